"""Several players' actions at one table applied together (cardroom/realtime/queue.py).

A batch must be indistinguishable from the same actions applied one by one: a version each,
the same journal, ledger and history; a refused action undoes only itself.
"""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.db import connection
from django.test import TestCase
from django.test.utils import CaptureQueriesContext

from accounts.models import Account, AccountKind, Transfer
from cardroom.history.journal_audit import table_replay
from cardroom.models import HandEvent, Seat, Table, TableAction
from cardroom.tables.runtime import (
    Outcome,
    table_act,
    table_act_many,
    table_create,
)
from games.engine import IllegalAction
from tests.cardroom.realtime.anted import survivor


def stacks(table: Table) -> dict[str, int]:
    held = Account.objects.filter(table_id=table.pk, kind=AccountKind.STACK)
    return dict(held.values_list("code", "balance"))


def without_times(actions: list[dict]) -> list[dict]:
    return [{k: v for k, v in action.items() if k not in ("now", "deck")} for action in actions]


@pytest.mark.django_db
def test_a_batch_is_what_the_same_actions_one_by_one_would_be(make_player):
    players = [make_player(name) for name in ("ann", "ben", "cat", "dan")]
    alone, together = survivor(players), survivor(players)
    for player in players:
        table_act(table_id=alone.pk, user=player, action={"kind": "ante"})
    answers = table_act_many(
        table_id=together.pk,
        requests=[(player, {"kind": "ante"}, f"a{n}") for n, player in enumerate(players)],
    )
    assert all(isinstance(answer, Outcome) for answer in answers), answers
    assert [answer.version for answer in answers] == [
        together.version + n for n in range(1, 5)
    ]  # one version each, in the order given
    alone.refresh_from_db()
    together.refresh_from_db()
    assert together.version == alone.version
    assert together.state["phase"] == alone.state["phase"] == "declare"

    def journal(table: Table) -> list[dict]:
        rows = TableAction.objects.filter(table=table).order_by("version", "seq")
        return without_times([row.action for row in rows])

    assert journal(together) == journal(alone)
    assert list(
        HandEvent.objects.filter(table=together).order_by("seq").values_list("version", "type")
    ) == list(HandEvent.objects.filter(table=alone).order_by("seq").values_list("version", "type"))
    assert sorted(stacks(together).values()) == sorted(stacks(alone).values())
    receipts = TableAction.objects.filter(table=together, client_id__isnull=False)
    assert sorted(receipts.values_list("client_id", flat=True)) == ["a0", "a1", "a2", "a3"]
    assert table_replay(table=together).ok


@pytest.mark.django_db
def test_a_refused_action_in_a_batch_undoes_only_itself(make_player):
    ann, ben, cat = (make_player(name) for name in ("ann", "ben", "cat"))
    table = survivor([ann, ben, cat])
    transfers = Transfer.objects.count()
    answers = table_act_many(
        table_id=table.pk,
        requests=[
            (ann, {"kind": "ante"}, "1"),
            (ann, {"kind": "ante"}, "2"),  # already made: refused
            (ben, {"kind": "fly"}, "3"),  # no such action
            (ben, {"kind": "ante"}, "4"),
        ],
    )
    assert isinstance(answers[0], Outcome) and isinstance(answers[3], Outcome)
    assert isinstance(answers[1], IllegalAction) and isinstance(answers[2], IllegalAction)
    assert answers[3].version == answers[0].version + 1
    assert Transfer.objects.count() == transfers + 2
    table.refresh_from_db()
    assert table.version == answers[3].version
    assert table_replay(table=table).ok
    # The same ids again: the applied ones are receipts, not new antes.
    again = table_act_many(table_id=table.pk, requests=[(ann, {"kind": "ante"}, "1")])
    assert again == [Outcome(table.pk, answers[0].version, (), repeated=True)]


@pytest.mark.django_db
def test_a_sit_refused_after_its_seat_was_taken_leaves_no_seat(make_player):
    ann, ben = make_player("ann"), make_player("ben")
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Sits"
    )
    answers = table_act_many(
        table_id=table.pk,
        requests=[
            (ann, {"kind": "sit", "buy_in": "lots"}, None),  # the seat row is written first
            (ben, {"kind": "sit", "buy_in": 20_000}, None),
            (ann, {"kind": "sit", "buy_in": 20_000, "seat": 1}, None),
        ],
    )
    assert isinstance(answers[0], IllegalAction), answers
    assert isinstance(answers[1], Outcome) and isinstance(answers[2], Outcome), answers
    held = Seat.objects.filter(table=table, left__isnull=True)
    assert sorted(held.values_list("user__username", flat=True)) == ["ann", "ben"]
    assert Seat.objects.filter(table=table).count() == 2


@pytest.mark.django_db
def test_a_defect_in_one_request_fails_that_request_only(make_player, monkeypatch):
    import cardroom.tables.runtime

    ann, ben, cat = (make_player(name) for name in ("ann", "ben", "cat"))
    table = survivor([ann, ben, cat])
    real = cardroom.tables.runtime.guard_stake

    def broken_for_ben(**kwargs):
        if kwargs["seat"].user_id == ben.pk:
            raise KeyError("a bug")
        return real(**kwargs)

    monkeypatch.setattr(cardroom.tables.runtime, "guard_stake", broken_for_ben)
    answers = table_act_many(
        table_id=table.pk,
        requests=[(player, {"kind": "ante"}, None) for player in (ann, ben, cat)],
    )
    assert isinstance(answers[1], KeyError)
    assert [type(answers[0]), type(answers[2])] == [Outcome, Outcome]
    assert answers[2].version == answers[0].version + 1
    table.refresh_from_db()
    assert table_replay(table=table).ok


@pytest.mark.django_db
def test_the_table_is_locked_and_its_seats_read_once_per_batch(make_player):
    players = [make_player(f"p{n}") for n in range(5)]
    table = survivor(players)
    table_act(table_id=table.pk, user=players[0], action={"kind": "ante"})  # opens the hand
    with CaptureQueriesContext(connection) as one:
        table_act(table_id=table.pk, user=players[1], action={"kind": "ante"})
    with CaptureQueriesContext(connection) as three:
        table_act_many(
            table_id=table.pk, requests=[(p, {"kind": "ante"}, None) for p in players[2:]]
        )

    def counted(captured: CaptureQueriesContext) -> list[str]:
        return [
            query["sql"]
            for query in captured.captured_queries
            if not query["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
        ]

    def reads(captured: CaptureQueriesContext) -> list[str]:
        """The statements that read the table or its seats (on PostgreSQL one pipeline reads
        both: cardroom/storage/rows.py, table_and_seats_locked)."""
        return [sql for sql in counted(captured) if sql.startswith("SELECT")
                and ('FROM "cardroom_table"' in sql or 'FROM "cardroom_seat"' in sql)]  # fmt: skip

    # Each further action of a batch costs its writes only (the last ante also deals: one).
    writes = len(counted(one)) - len(reads(one))
    assert len(counted(three)) <= len(reads(one)) + 3 * writes + 1
    read = reads(three)
    assert len(read) == len(reads(one)), read
    assert len([sql for sql in read if 'FROM "cardroom_table"' in sql]) == 1, read
    assert len([sql for sql in read if 'FROM "cardroom_seat"' in sql]) == 1, read


@pytest.mark.django_db
def test_a_batch_with_no_refusal_takes_no_savepoint_and_one_with_a_refusal_starts_over(
    make_player, monkeypatch
):
    """A batch goes in one transaction with no savepoint (two round trips a request fewer);
    when a request is refused, all of it is undone, with what it was to announce, and the
    batch applied again with a savepoint for each request."""
    import cardroom.tables.runtime
    from cardroom.tables import announce

    players = [make_player(f"p{n}") for n in range(4)]
    table = survivor(players)
    heard: list[int] = []
    hook = announce.plugged()
    announce.plug(lambda announcement: heard.append(announcement.version))
    applied: list[str] = []
    real = cardroom.tables.runtime._apply_to

    def counted(*args, **kwargs):
        applied.append(args[2]["kind"])
        return real(*args, **kwargs)

    monkeypatch.setattr(cardroom.tables.runtime, "_apply_to", counted)
    try:
        with (
            CaptureQueriesContext(connection) as clean,
            TestCase.captureOnCommitCallbacks(execute=True),
        ):
            answers = table_act_many(
                table_id=table.pk, requests=[(p, {"kind": "ante"}, None) for p in players[:2]]
            )
        assert [type(answer) for answer in answers] == [Outcome, Outcome]
        # The batch's own transaction is a savepoint inside the test's: the only one.
        savepoints = [q for q in clean.captured_queries if q["sql"].startswith("SAVEPOINT")]
        assert len(savepoints) == 1
        assert applied == ["ante", "ante"]
        applied.clear()
        with (
            CaptureQueriesContext(connection) as refused,
            TestCase.captureOnCommitCallbacks(execute=True),
        ):
            answers = table_act_many(
                table_id=table.pk,
                requests=[
                    (players[2], {"kind": "ante"}, None),
                    (players[0], {"kind": "ante"}, None),
                ],
            )
    finally:
        announce.plug(hook)  # type: ignore[arg-type]
    assert [type(answer) for answer in answers] == [Outcome, IllegalAction]
    assert applied == ["ante", "ante", "ante", "ante"]  # the first try, then again
    # The first try's, then the second's and one for each of its requests.
    assert len([q for q in refused.captured_queries if q["sql"].startswith("SAVEPOINT")]) == 4
    table.refresh_from_db()
    # Announced once each, in order: nothing of the try that was undone.
    assert heard == [answers[0].version - 2, answers[0].version - 1, answers[0].version]
    assert table.version == answers[0].version
    assert table_replay(table=table).ok


@pytest.mark.django_db(transaction=True)
async def test_actions_arriving_while_their_table_is_busy_go_as_one_batch(make_player, monkeypatch):
    from asgiref.sync import sync_to_async

    import cardroom.realtime.queue
    from cardroom.realtime.queue import submit

    players = [await sync_to_async(make_player)(f"q{n}") for n in range(4)]
    table = await sync_to_async(survivor)(players)
    sizes: list[int] = []
    real = cardroom.realtime.queue.held_act
    release = threading.Event()

    threads: list[str] = []

    def recorded(**kwargs):
        sizes.append(len(kwargs["requests"]))
        threads.append(threading.current_thread().name)
        release.wait(5)  # the first batch is held until the others have arrived
        return real(**kwargs)

    monkeypatch.setattr(cardroom.realtime.queue, "held_act", recorded)

    def ante(player) -> asyncio.Task:
        return asyncio.ensure_future(
            submit(table_id=table.pk, user=player, action={"kind": "ante"}, action_id=None)
        )

    first = ante(players[0])
    for _ in range(500):
        if sizes:
            break
        await asyncio.sleep(0.01)
    rest = [ante(player) for player in players[1:]]
    await asyncio.sleep(0.05)
    release.set()
    outcomes = await asyncio.gather(first, *rest)
    # The first went at once; the three that came while it was applied went together.
    assert sizes == [1, 3]
    # PostgreSQL: in the actions' own threads, never queued behind reads; SQLite: in the one
    # thread its writes keep to.
    postgres = connection.vendor == "postgresql"
    assert [name.startswith("cardroom-action") for name in threads] == [postgres, postgres]
    assert [outcome.version for outcome in outcomes] == [table.version + n for n in range(1, 5)]
    with pytest.raises(IllegalAction):
        await submit(table_id=table.pk, user=players[0], action={"kind": "ante"}, action_id=None)
