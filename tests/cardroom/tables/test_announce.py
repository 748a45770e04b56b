"""The runtime hands each committed version to the hook the sockets plug in, after commit only
(cardroom/tables/announce.py)."""

from __future__ import annotations

import contextlib

import pytest
from django.db import transaction

from cardroom.realtime.broadcast import send_version
from cardroom.tables import announce
from cardroom.tables.runtime import Request, table_act, table_act_many

pytestmark = pytest.mark.django_db

SIT = {"kind": "sit", "buy_in": 20_000}


@pytest.fixture
def heard(monkeypatch):
    """What the hook hears, instead of the sockets."""
    heard: list[announce.Announcement] = []
    monkeypatch.setattr(announce, "_hook", heard.append)
    return heard


def test_every_process_plugs_in_the_sockets_send():
    # Plugged by the app's ready(), which runclock and the servers run as the tests do.
    assert announce.plugged() is send_version


def test_a_version_is_announced_once_it_commits_and_not_before(
    survivor_table, make_player, heard, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        outcome = table_act(table_id=survivor_table.pk, user=make_player("ann"), action=SIT)
        assert heard == []  # the transaction has not committed yet
    assert len(callbacks) == 1
    assert [(said.group, said.table_id, said.version) for said in heard] == [
        (f"table-{survivor_table.pk}", survivor_table.pk, outcome.version)
    ]
    snapshot = heard[0].snapshot
    assert snapshot is not None and snapshot["version"] == outcome.version


def test_a_version_rolled_back_is_never_announced(
    survivor_table, make_player, heard, django_capture_on_commit_callbacks
):
    ann = make_player("ann")
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        contextlib.suppress(RuntimeError),
        transaction.atomic(),
    ):
        table_act(table_id=survivor_table.pk, user=ann, action=SIT)
        raise RuntimeError("undone")
    assert callbacks == [] and heard == []


def test_each_version_of_a_batch_is_announced_as_it_was(
    survivor_table, make_player, heard, django_capture_on_commit_callbacks
):
    """The group, id and version are read when announced: one Table object changed twice in
    one transaction announces both of its versions."""
    requests = [Request(make_player(name), SIT) for name in ("ann", "ben")]
    with django_capture_on_commit_callbacks(execute=True):
        answers = table_act_many(table_id=survivor_table.pk, requests=requests)
    assert [answer.version for answer in answers] == [1, 2]
    assert [said.version for said in heard] == [1, 2]
    assert [said.snapshot["version"] for said in heard] == [1, 2]


def test_the_bankrolls_announced_are_the_ledgers_as_the_postings_left_them(
    survivor_table, make_player, heard, django_capture_on_commit_callbacks
):
    """A sit, a batch of two sits and a leave: each version's snapshot says the bankroll its
    postings left, which they gave without a read of the ledger of their own."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts.models import Account, AccountKind

    def ledger() -> dict[str, int]:
        rows = Account.objects.filter(kind=AccountKind.BANKROLL)
        return {str(user): balance for user, balance in rows.values_list("user_id", "balance")}

    ann, ben, cat = (make_player(name) for name in ("ann", "ben", "cat"))
    before = ledger()
    table = survivor_table.pk
    with (
        django_capture_on_commit_callbacks(execute=True),
        CaptureQueriesContext(connection) as queries,
    ):
        table_act(table_id=table, user=ann, action={"kind": "sit", "buy_in": 12_345})
        table_act_many(
            table_id=table,
            requests=[Request(ben, {"kind": "sit", "buy_in": 17_000}), Request(cat, SIT)],
        )
        table_act(table_id=table, user=ann, action={"kind": "leave"})
    moves = [(ann, -12_345), (ben, -17_000), (cat, -20_000), (ann, 0)]
    assert [said.snapshot["bankrolls"] for said in heard] == [
        {str(user.pk): before[str(user.pk)] + move} for user, move in moves
    ]
    after = ledger()
    assert {user: after[user] - before[user] for user in after} == {
        str(ann.pk): 0,
        str(ben.pk): -17_000,
        str(cat.pk): -20_000,
    }
    reads = [query["sql"] for query in queries.captured_queries]
    assert not [sql for sql in reads if '"balance" FROM "accounts_account" WHERE "kind"' in sql]
