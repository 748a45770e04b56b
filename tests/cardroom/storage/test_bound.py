"""The runtime's hand-written statements on psycopg's server-binding cursors
(accounts/sql/bound.py): prepared by psycopg on a connection's first run of them, sent together
in one pipeline, and after a failed transaction working as before. Elsewhere (SQLite) Django's
cursor runs them one by one, with the same results."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from accounts.sql import bound
from accounts.sql.writes import Writes
from cardroom.models import HandEvent, Table, TableAction
from cardroom.storage.rows import held_seats, table_and_seats_locked
from cardroom.tables.runtime import table_create

pytestmark = pytest.mark.django_db

POSTGRES = connection.vendor == "postgresql"


@pytest.fixture
def table():
    table = table_create(game="guts", preset="survivor", name="t", options={"ante": 100})
    state = table.state
    yield table
    # The rows written here are not a game: taken out again, so the table's journal replays.
    TableAction.objects.filter(table=table, version__gt=0).delete()
    HandEvent.objects.filter(table=table).delete()
    Table.objects.filter(pk=table.pk).update(state=state, version=0)


def prepared(fragment: str) -> list[tuple[str, list[str]]]:
    """The statements prepared on this connection whose text holds ``fragment``, with their
    parameters' types."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement, parameter_types::text[] FROM pg_prepared_statements")
        return [(text, types) for text, types in cursor.fetchall() if fragment in text]


def test_the_locked_read_is_prepared_once_then_executed(table):
    with transaction.atomic(), CaptureQueriesContext(connection) as first:
        read, seats = table_and_seats_locked(table.pk)
    with transaction.atomic(), CaptureQueriesContext(connection) as again:
        read_again, seats_again = table_and_seats_locked(table.pk)
    assert (read.pk, read.version, seats) == (table.pk, table.version, {})
    assert (read_again.pk, read_again.version, seats_again) == (table.pk, table.version, {})
    reads = [len(captured.captured_queries) for captured in (first, again)]
    if not POSTGRES:
        assert reads == [2, 2]  # the table, then its seats
        return
    assert reads == [1, 1]  # one pipeline each time
    locked = prepared("FOR UPDATE OF")
    assert len(locked) == 1 and "$1" in locked[0][0], locked  # prepared once, bound
    assert len(prepared('WHERE "cardroom_seat"."table_id" = $1')) == 1


def test_numbers_of_any_size_share_one_prepared_statement():
    """psycopg would send 7 as a smallint and 70,000 as an integer, and prepare the statement
    once for each; these cursors send both as bigints."""
    assert (held_seats(7), held_seats(70_000)) == ({}, {})
    if POSTGRES:
        (statement,) = prepared('"cardroom_seat"."table_id" = $1 AND')
        assert statement[1] == ["bigint"]


def test_statements_together_run_in_order_and_give_each_ones_rows(table):
    table_name = Table._meta.db_table
    found = bound.together(
        [
            (f"UPDATE {table_name} SET version = version + %s WHERE id = %s", [5, table.pk]),
            (f"SELECT version FROM {table_name} WHERE id = %s", [table.pk]),
            (f"SELECT name FROM {table_name} WHERE id = %s", [table.pk]),
        ]
    )
    assert found == [[], [(table.version + 5,)], [("t",)]]
    assert bound.together([]) == []


@pytest.fixture
def waits(monkeypatch):
    """The waits on the database's socket, one count for each wait psycopg's connection runs:
    each value its generator yields is one."""
    import psycopg.connection

    counts: list[int] = []
    polling = psycopg.connection.waiting.wait

    def counted(generator, fileno, **options):
        def counting():
            waited = 0
            try:
                wanted = next(generator)
                while True:
                    waited += 1
                    wanted = generator.send((yield wanted))
            except StopIteration as done:
                return done.value
            finally:
                counts.append(waited)

        return polling(counting(), fileno, **options)

    monkeypatch.setattr(psycopg.connection.waiting, "wait", counted)
    return counts


def test_a_pipeline_waits_on_its_socket_only_at_its_end(waits):
    """The statements of a pipeline go in one send, and their results are read once all have
    come back: psycopg's own pipeline polled the socket after each (about twice a statement)."""
    statements = [("SELECT %s + 1", [number]) for number in range(12)]
    bound.together(statements)  # prepared on this connection first
    waits.clear()
    assert bound.together(statements) == [[(number + 1,)] for number in range(12)]
    if POSTGRES:
        assert 1 <= sum(waits) <= 2, waits


@pytest.mark.django_db(transaction=True)
def test_in_djangos_transaction_the_begin_goes_with_the_statements(table, waits):
    """Where Django's ``atomic`` has sent nothing yet, the transaction's BEGIN goes in the
    pipeline's one send rather than in a round trip of its own, and what the pipeline did is
    the transaction's: rolled back with it."""
    table_name = Table._meta.db_table
    update = f"UPDATE {table_name} SET version = version + %s WHERE id = %s"
    read = f"SELECT version FROM {table_name} WHERE id = %s"
    bound.together([(update, [0, table.pk]), (read, [table.pk])])  # prepared first
    with transaction.atomic():
        before = len(waits)
        found = bound.together([(update, [5, table.pk]), (read, [table.pk])])
        pipeline_waits = waits[before:]
        transaction.set_rollback(True)
    assert found == [[], [(table.version + 5,)]]
    assert Table.objects.get(pk=table.pk).version == table.version
    if POSTGRES:
        assert 1 <= sum(pipeline_waits) <= 2, pipeline_waits


def test_a_value_that_cannot_be_sent_sends_nothing(table):
    """On PostgreSQL every value is converted before the pipeline sends anything: a value
    psycopg cannot send refuses the whole pipeline, none of whose statements ran."""
    table_name = Table._meta.db_table
    statements = [
        (f"UPDATE {table_name} SET version = version + %s WHERE id = %s", [5, table.pk]),
        ("SELECT %s", [object()]),
    ]
    with pytest.raises(DatabaseError):
        bound.together(statements)
    if POSTGRES:
        assert Table.objects.get(pk=table.pk).version == table.version
        assert bound.together([("SELECT %s", [1])]) == [[(1,)]]  # the connection works on


def test_a_rollback_of_psycopgs_own_leaves_the_pipeline_preparing_again(table):
    """psycopg deallocates every statement it prepared at a rollback; the pipeline's statements
    are in psycopg's own account, so the next pipeline prepares them again."""
    read = f"SELECT name FROM {Table._meta.db_table} WHERE id = %s AND %s = %s"
    assert bound.together([(read, [table.pk, 1, 1])]) == [[("t",)]]

    def renamed_then_rolled_back() -> None:
        with transaction.atomic():
            Table.objects.filter(pk=table.pk).update(name="u")
            raise ZeroDivisionError  # Django rolls back, through psycopg

    with pytest.raises(ZeroDivisionError):
        renamed_then_rolled_back()
    assert bound.together([(read, [table.pk, 2, 2])]) == [[("t",)]]
    if POSTGRES:
        assert len(prepared("AND $2 = $3")) == 1


@pytest.mark.django_db(transaction=True)
def test_a_pipeline_cut_short_closes_its_connection_rather_than_leave_results_unread(
    monkeypatch,
):
    """Results left unread on a connection would be read by its next pipeline as its own: a
    pipeline cut short before reading them closes the connection instead, and Django opens a
    new one."""
    from accounts.sql import pipeline

    statements = [("SELECT %s + 1", [number]) for number in range(3)]
    assert bound.together(statements) == [[(1,)], [(2,)], [(3,)]]

    def cut_short(pgconn):
        raise RuntimeError("cut short")

    monkeypatch.setattr(pipeline, "_flushed_and_read", cut_short)
    if POSTGRES:
        with pytest.raises(RuntimeError):
            bound.together(statements)
        assert connection.connection.closed
        connection.close()  # as Django does with a connection that failed
    monkeypatch.undo()
    assert bound.together(statements) == [[(1,)], [(2,)], [(3,)]]


def test_writes_go_in_one_round_trip(table, make_player):
    ann = make_player("ann")
    writes = Writes()
    writes.insert(HandEvent, [HandEvent(table=table, version=2, seq=1, type="x", data={})])
    writes.insert(TableAction, [TableAction(table=table, version=2, seq=0, action={}, actor=ann)])
    writes.update(table, ["version"])
    with CaptureQueriesContext(connection) as captured:
        writes.flush()
    texts = [query["sql"] for query in captured.captured_queries]
    assert HandEvent.objects.filter(table=table, version=2).count() == 1
    assert TableAction.objects.filter(table=table, version=2).count() == 1
    if POSTGRES:
        (text,) = texts  # one round trip, the statements in the order added
        added = ["INTO {}", "INTO {}", "UPDATE {}"]
        names = ['"cardroom_handevent"', '"cardroom_tableaction"', '"cardroom_table"']
        places = [text.index(part.format(name)) for part, name in zip(added, names, strict=True)]
        assert places == sorted(places)
        assert prepared('INTO "cardroom_handevent"')  # bound on the server, prepared
    else:
        assert len(texts) == 3


#: Text a player may type (a chat line, a table's name), which the writes must carry as it is.
AWKWARD = ["it's", 'say "in"', "%s", "%%", "%(name)s", "back\\slash", "é ♠ 𝄞", "a;\nCOMMIT;", ""]


def test_written_values_come_back_as_they_were_given(table, make_player):
    """Whatever a value holds (quotes, placeholders, backslashes, statement ends, any
    character), it is written as given: bound by psycopg, never pasted in."""
    ann = make_player("ann")
    moment = datetime(2026, 12, 7, 6, 30, 0, 123456, tzinfo=UTC)
    writes = Writes()
    writes.insert_values(
        HandEvent,
        [
            {"table_id": table.pk, "version": 3, "seq": seq, "type": text,
             "data": {"text": text, text: [seq, None, True, 2**62]}}
            for seq, text in enumerate(AWKWARD, start=1)
        ],
    )  # fmt: skip
    row = {"table": table, "version": 3, "seq": 0, "actor": ann, "action": {"kind": "ante"}}
    writes.insert(TableAction, [TableAction(**row, client_id="%s';--")])
    table.deadline = moment
    writes.update(table, ["deadline"])
    writes.flush()
    events = HandEvent.objects.filter(table=table, version=3).order_by("seq")
    assert [(event.type, event.data) for event in events] == [
        (text, {"text": text, text: [seq, None, True, 2**62]})
        for seq, text in enumerate(AWKWARD, start=1)
    ]
    action = TableAction.objects.get(table=table, version=3)
    assert (action.client_id, action.actor_id) == ("%s';--", ann.pk)
    assert Table.objects.get(pk=table.pk).deadline == moment


def test_after_a_failed_pipeline_later_transactions_work(table, make_player):
    """A refusal aborts the rest of its pipeline, the statements psycopg was preparing there
    included: the next transactions neither run a statement never prepared nor prepare one
    twice."""
    ann = make_player("ann")
    row = {"table": table, "seq": 0, "action": {"kind": "ante"}, "actor": ann, "client_id": "same"}
    writes = Writes()
    writes.insert(TableAction, [TableAction(**row, version=11)])
    writes.flush()

    def events(version: int) -> list[HandEvent]:  # a statement shape not run before
        seqs = (10 * version + step for step in (1, 2, 3))  # a table numbers its events once
        return [HandEvent(table=table, version=version, seq=seq, type="x", data={}) for seq in seqs]

    refused = Writes()
    refused.insert(TableAction, [TableAction(**row, version=12)])  # the refused receipt
    refused.insert(HandEvent, events(12))  # after it: never runs
    with pytest.raises(IntegrityError), transaction.atomic():
        refused.flush()
    for version in (13, 14):  # the first time, and once psycopg counts it prepared
        retried = Writes()
        retried.insert(HandEvent, events(version))
        with transaction.atomic():
            retried.flush()
    assert HandEvent.objects.filter(table=table, version__in=(12, 13, 14)).count() == 6
    assert TableAction.objects.filter(table=table, client_id="same").count() == 1
    with transaction.atomic():
        assert table_and_seats_locked(table.pk)[0].pk == table.pk


def test_timestamps_read_as_djangos_cursor_reads_them():
    """psycopg's own loader (compiled with psycopg[binary]) where the session is in UTC: the
    same values, the same ``tzinfo``, as Django's."""
    sql = "SELECT %s, %s"
    moment = datetime(2026, 12, 1, 21, 0, 0, 123456, tzinfo=UTC)
    far = datetime(1, 1, 1, tzinfo=UTC)
    with connection.cursor() as cursor:
        cursor.execute(sql, [moment, far])
        django_read = cursor.fetchone()
    with bound.cursor() as cursor:
        cursor.execute(sql, [moment, far])
        read = cursor.fetchone()
    assert read == django_read
    if POSTGRES:
        assert read == (moment, far) and all(value.tzinfo is UTC for value in read)
        from psycopg import adapters
        from psycopg.pq import Format

        oid = adapters.types["timestamptz"].oid
        with bound.cursor() as cursor:
            assert cursor.cursor.adapters.get_loader(oid, Format.TEXT) is adapters.get_loader(
                oid, Format.TEXT
            )


def test_the_clocks_miss_commits_and_keeps_the_prepared_statements(table):
    """A table not due yet (or claimed by another process) is refused after a commit, not a
    rollback: psycopg forgets everything it prepared on a connection at a rollback."""
    from datetime import timedelta

    from django.utils import timezone

    from cardroom.tables.runtime import table_timeout

    deadline = timezone.now()
    Table.objects.filter(pk=table.pk).update(deadline=deadline)
    early = deadline - timedelta(seconds=1)
    with CaptureQueriesContext(connection) as captured:
        assert table_timeout(table_id=table.pk, now=early, claim=True) is None
        assert table_timeout(table_id=table.pk, now=early, claim=True) is None
    assert not [query for query in captured.captured_queries if "ROLLBACK" in query["sql"]]
    if POSTGRES:
        assert len(prepared("SKIP LOCKED")) == 1  # prepared once, still there
    Table.objects.filter(pk=table.pk).update(deadline=None)
