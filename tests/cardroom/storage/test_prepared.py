"""The runtime's hand-written statements run as prepared statements of each PostgreSQL
connection (accounts/sql/prepared.py): prepared once, in the text of their first execute,
executed after; after a failed text, prepared again from nothing. Elsewhere they run as
before."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from accounts.sql.prepared import Prepared, _numbered, statement_name
from accounts.sql.writes import Writes
from cardroom.models import HandEvent, Table, TableAction
from cardroom.storage.rows import table_and_seats_locked
from cardroom.tables.runtime import table_create

pytestmark = pytest.mark.django_db

POSTGRES = connection.vendor == "postgresql"


def test_placeholders_are_numbered_in_order():
    sql = "UPDATE t SET a = %s, b = %s WHERE id = %s"
    assert _numbered(sql) == "UPDATE t SET a = $1, b = $2 WHERE id = $3"
    assert _numbered("SELECT 1") == "SELECT 1"


def test_names_say_what_they_run_and_change_with_the_text():
    first = statement_name("table_locked", "SELECT 1")
    assert first == statement_name("table_locked", "SELECT 1")
    assert first.startswith("cardroom_table_locked_")
    assert statement_name("table_locked", "SELECT 2") != first
    long = "insert_" + "a_table_with_a_very_long_name" * 3
    assert len(statement_name(long, "x")) <= 63  # PostgreSQL's identifiers
    assert statement_name(long, "x") != statement_name(long, "y")  # the digest is kept


@pytest.fixture
def table():
    table = table_create(game="guts", preset="survivor", name="t", options={"ante": 100})
    state = table.state
    yield table
    # The rows written here are not a game: taken out again, so the table's journal replays.
    TableAction.objects.filter(table=table, version__gt=0).delete()
    HandEvent.objects.filter(table=table).delete()
    Table.objects.filter(pk=table.pk).update(state=state, version=0)


def names_prepared() -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT name FROM pg_prepared_statements")
        return {name for (name,) in cursor.fetchall()}


def test_the_locked_read_is_prepared_once_then_executed(table):
    with connection.cursor() as cursor:
        assert Prepared(cursor).usable is POSTGRES  # SQLite's driver quotes nothing itself
    with transaction.atomic(), CaptureQueriesContext(connection) as first:
        read, seats = table_and_seats_locked(table.pk)
    with transaction.atomic(), CaptureQueriesContext(connection) as again:
        read_again, seats_again = table_and_seats_locked(table.pk)
    assert (read.pk, read.version, seats) == (table.pk, table.version, {})
    assert (read_again.pk, read_again.version, seats_again) == (table.pk, table.version, {})
    if not POSTGRES:
        return
    texts = [query["sql"] for query in again.captured_queries]
    assert [text for text in texts if "EXECUTE cardroom_table_locked_" in text]
    assert not [text for text in texts if "PREPARE" in text]  # planned once per connection
    prepared = names_prepared()
    assert {name.rsplit("_", 1)[0] for name in prepared} >= {
        "cardroom_table_locked",
        "cardroom_seats_held",
    }
    assert len(first.captured_queries) == len(again.captured_queries) == 1  # one round trip


def test_after_a_failed_text_the_next_prepares_again_from_nothing(table, make_player):
    """A refusal rolls back the transaction but not PREPARE: the next text must neither
    prepare a name twice (PostgreSQL would refuse) nor execute one never prepared."""
    ann = make_player("ann")
    row = {"table": table, "seq": 0, "action": {"kind": "ante"}, "actor": ann, "client_id": "same"}
    writes = Writes()
    writes.insert(TableAction, [TableAction(**row, version=11)])
    writes.flush()
    refused = Writes()
    # A statement shape this connection has not prepared yet, then the refused receipt.
    refused.insert(HandEvent, [HandEvent(table=table, version=12, seq=s, type="x", data={})
                               for s in (1, 2, 3)])  # fmt: skip
    refused.insert(TableAction, [TableAction(**row, version=12)])
    with pytest.raises(IntegrityError), transaction.atomic():
        refused.flush()
    with CaptureQueriesContext(connection) as captured:
        retried = Writes()
        retried.insert(HandEvent, [HandEvent(table=table, version=12, seq=s, type="x", data={})
                                   for s in (1, 2, 3)])  # fmt: skip
        retried.flush()
    assert HandEvent.objects.filter(table=table, version=12).count() == 3
    assert TableAction.objects.filter(table=table, client_id="same").count() == 1
    if POSTGRES:
        (text,) = [query["sql"] for query in captured.captured_queries]
        assert text.startswith("DEALLOCATE ALL; PREPARE cardroom_insert_cardroom_handevent_3_")
        with CaptureQueriesContext(connection) as later:
            table_and_seats_locked(table.pk)
        assert "DEALLOCATE" not in later.captured_queries[0]["sql"]  # known again


def test_the_clocks_claim_and_the_ledgers_lock_are_prepared_too(table, make_player):
    """Every timeout claims its table with the read of it, and every posting locks its
    accounts: on PostgreSQL both are executed by name, and answer as before."""
    from datetime import timedelta

    from django.utils import timezone

    from accounts.ledger import Posting, cashier_account, ledger_post
    from cardroom.storage.rows import due_table_and_seats_locked

    deadline = timezone.now()
    Table.objects.filter(pk=table.pk).update(deadline=deadline)
    ann = make_player("ann")
    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        assert due_table_and_seats_locked(table.pk, deadline - timedelta(seconds=1)) is None
        claimed = due_table_and_seats_locked(table.pk, deadline + timedelta(seconds=1))
        assert claimed is not None and claimed[0].pk == table.pk
        ledger_post([Posting(cashier_account().code, f"bankroll:u{ann.pk}", 100, "reload", "p-1")])
    texts = " ".join(query["sql"] for query in captured.captured_queries)
    if POSTGRES:
        assert texts.count("EXECUTE cardroom_table_due_locked_") == 2  # the clock's claims
        assert "EXECUTE cardroom_accounts_locked_" in texts
    else:
        assert "EXECUTE" not in texts
    Table.objects.filter(pk=table.pk).update(deadline=None)


def test_a_connection_not_seen_yet_starts_from_nothing(table):
    """A session a pooler hands on unreset may hold statements of its last client: the first
    text of a connection drops them all before it prepares its own."""
    from accounts.sql import prepared

    with connection.cursor() as cursor:
        if POSTGRES:
            prepared._PREPARED.pop(cursor.cursor.connection, None)  # as a new connection
            cursor.execute("PREPARE cardroom_left_over AS SELECT 1")  # another client's
    with transaction.atomic(), CaptureQueriesContext(connection) as first:
        read, _ = table_and_seats_locked(table.pk)
    assert read.pk == table.pk
    if POSTGRES:
        assert first.captured_queries[0]["sql"].startswith("DEALLOCATE ALL; PREPARE ")
        assert "cardroom_left_over" not in names_prepared()
