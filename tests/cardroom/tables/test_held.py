"""Held tables (cardroom/tables/held.py): a batch settled in memory and written behind the fence
writes exactly what the locked path writes, and never writes over a table that changed.

The property plays two tables side by side with the same draws (actions, batches, the clock,
the decks): one through the locked path (``table_act_many``, ``table_timeout``), one through
``held_act`` keeping what it holds from batch to batch, as the socket queue does; then every
row each wrote is compared, table and user ids aside, with the answers and the announced
snapshots.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from datetime import timedelta
from typing import Any, TypeVar
from unittest import mock

import pytest
from django.db import connection, transaction
from django.test import TestCase
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts.models import Account, Transfer
from accounts.services import user_create
from cardroom.models import Hand, HandEvent, Round, Seat, Table, TableAction
from cardroom.models.responsible import PlayerLimits
from cardroom.storage.rows import finished_hands_paid
from cardroom.tables import announce
from cardroom.tables.engines import engine_for
from cardroom.tables.hand_log import recent_hands
from cardroom.tables.held import PRESENCE, Held, held_act
from cardroom.tables.runtime import (
    Outcome,
    Request,
    table_act,
    table_act_many,
    table_apply,
    table_create,
    table_timeout,
)
from games.cards import DECK
from games.engine import IllegalAction
from tests.cardroom.plays import PROPERTY, TABLES, concrete
from tests.cardroom.queries import queries

NAMES = ("pam", "pat", "peg", "pip")
T = TypeVar("T")


class Side:
    """One of the two tables, its players and what was announced for it."""

    def __init__(self, prefix: str, table: Table) -> None:
        self.prefix, self.table = prefix, table
        self.players = [user_create(username=f"{prefix}{name}") for name in NAMES]
        self.index = {user.pk: number for number, user in enumerate(self.players)}
        self.held: Held | None = None
        self.announced: list[tuple[int, Any]] = []

    def normal(self, value: Any) -> Any:
        """``value`` with this side's table id, user ids and names made the same on both."""
        text = json.dumps(value, sort_keys=True, default=str)
        text = re.sub(rf"\b{self.prefix}(?=p[aei])", "x", text)
        text = re.sub(rf"\bt{self.table.pk}\b", "t*", text)
        text = re.sub(r"\bu(\d+)\b", lambda m: f"u#{self.index.get(int(m[1]), m[1])}", text)
        return _rootless(json.loads(text))

    def rows(self) -> dict[str, Any]:
        """Everything the table's actions wrote, with ids made comparable."""
        table = Table.objects.get(pk=self.table.pk)
        hands = {hand.pk: hand.number for hand in Hand.objects.filter(table=table)}
        transfers = list(Transfer.objects.filter(table_id=table.pk).order_by("id"))
        rest = sum(1 for transfer in transfers if transfer.pk <= table.rest_transfer)
        who = self.index.get
        return self.normal(
            {
                "table": [table.version, table.status, table.state, table.rest_state, rest,
                          str(table.deadline), table.last_event_seq, table.open_hand_dealt,
                          hands.get(table.open_hand_id)],
                "journal": [
                    (row.version, row.seq, row.action, who(row.actor_id), row.client_id)
                    for row in TableAction.objects.filter(table=table).order_by("version", "seq")
                ],
                "events": [
                    (row.version, row.seq, row.type, row.data, row.private_to, row.audience,
                     sorted(who(user) for user in row.readers or []), hands.get(row.hand_id))
                    for row in HandEvent.objects.filter(table=table).order_by("seq")
                ],
                "transfers": [
                    (row.amount, row.kind, row.memo, row.source.code, row.target.code,
                     hands.get(row.hand_id), row.idempotency_key)
                    for row in transfers
                ],
                "hands": [
                    (hand.number, hand.dealt, hand.result, hand.ended is None, hand.round_id
                     is None, hand.deck.get("deck") if isinstance(hand.deck, dict) else None)
                    for hand in Hand.objects.filter(table=table).order_by("number")
                ],
                "rounds": [
                    (row.number, row.ended is None, row.end_reason)
                    for row in Round.objects.filter(table=table).order_by("number")
                ],
                "accounts": {
                    account.code: account.balance
                    for account in Account.objects.filter(table_id=table.pk)
                },
                "seats": [
                    (seat.number, who(seat.user_id), seat.left is None)
                    for seat in Seat.objects.filter(table=table).order_by("id")
                ],
            }
        )  # fmt: skip

    def snapshots(self) -> list[Any]:
        found = []
        for _, snapshot in self.announced:
            kept = {k: v for k, v in snapshot.items() if k not in ("stamp", "id", "seats")}
            kept["seats"] = [[n, self.index[user], online] for n, user, online in snapshot["seats"]]
            if kept.get("commitment"):  # its root hashes salts of its own
                kept["commitment"] = kept["commitment"]["number"]
            if "bankrolls" in kept:
                kept["bankrolls"] = {
                    self.index[int(user)]: cents for user, cents in snapshot["bankrolls"].items()
                }
            found.append(self.normal(kept))
        return found


def _rootless(value: Any) -> Any:
    """``value`` without the deck commitments' roots, which hash salts of their own."""
    if isinstance(value, dict):
        return {key: _rootless(item) for key, item in value.items() if key != "root"}
    if isinstance(value, list):
        return [_rootless(item) for item in value]
    return value


def first_difference(one: Any, two: Any, path: str = "") -> str | None:
    """Where two JSON values first differ (for a failure's message)."""
    if isinstance(one, dict) and isinstance(two, dict):
        for key in sorted(set(one) | set(two), key=str):
            if (found := first_difference(one.get(key), two.get(key), f"{path}.{key}")) is not None:
                return found
        return None
    if isinstance(one, list) and isinstance(two, list) and len(one) == len(two):
        for index, (a, b) in enumerate(zip(one, two, strict=True)):
            if (found := first_difference(a, b, f"{path}[{index}]")) is not None:
                return found
        return None
    return None if one == two else f"{path}: {one!r} != {two!r}"


def answer_of(answer: Outcome | Exception | None) -> Any:
    if isinstance(answer, Outcome):
        return ("applied", answer.version, answer.events, answer.repeated)
    if answer is None:
        return ("nothing due",)
    return ("refused", type(answer).__name__, str(answer))


class Pair:
    """The two sides played with the same draws."""

    def __init__(self, name: str, data: Any) -> None:
        game, preset, options = TABLES[name]
        self.data = data
        self.game = engine_for(game).game
        self.locked = Side("a", table_create(game=game, preset=preset, options=options, name="t"))
        self.held = Side("b", table_create(game=game, preset=preset, options=options, name="t"))
        self.clock = timezone.now()
        self.dealing: Side | None = None
        self.steps = 0
        #: Batches applied held from start to end (not handed to the locked path).
        self.kept = 0
        self.ids: list[str] = []
        self.decks: list[tuple[str, ...]] = []

    def deck(self) -> tuple[str, ...]:
        """The same deck for each table's n-th hand (a held batch handed to the locked path
        may have shuffled for a hand it did not write)."""
        side = self.dealing
        assert side is not None
        number = Hand.objects.filter(table_id=side.table.pk).count()
        while len(self.decks) <= number:
            self.decks.append(tuple(self.data.draw(st.permutations(DECK), label="deck")))
        return self.decks[number]

    def heard(self, announcement: announce.Announcement) -> None:
        for side in (self.locked, self.held):
            if announcement.table_id == side.table.pk:
                side.announced.append((announcement.version, announcement.snapshot))

    def choices(self) -> list[tuple[int, dict[str, Any]]]:
        """Every action a player may take at the locked side now (player index, action)."""
        table = Table.objects.get(pk=self.locked.table.pk)
        state = self.game.load(table.state)
        seated = dict(
            Seat.objects.filter(table=table, left__isnull=True).values_list("user_id", "number")
        )
        free = [e["seat"] for e in self.game.view(state, None)["seats"] if "player" not in e]
        found = [
            (index, {"kind": "sit", "buy_in": 20_000, "seat": number})
            for index, user in enumerate(self.locked.players)
            if user.pk not in seated
            for number in free
        ]
        for index, user in enumerate(self.locked.players):
            if user.pk in seated:
                seat = seated[user.pk]
                cards = self.game.view(state, seat)["you"].get("cards") or []
                for legal in self.game.legal_actions(state, seat):
                    found += [(index, action) for action in concrete(legal, cards)]
                found.append((index, {"kind": "ante"}))  # now and then out of turn
        return found

    def step(self) -> None:
        table = Table.objects.get(pk=self.locked.table.pk)
        if table.deadline is not None and self.data.draw(st.integers(0, 5), label="tick") == 0:
            self.clock = max(self.clock, table.deadline) + timedelta(milliseconds=5)
            self.both(None)
            return
        choices = self.choices()
        if not choices:
            if table.deadline is not None:
                self.clock = max(self.clock, table.deadline) + timedelta(milliseconds=5)
                self.both(None)
            return
        count = self.data.draw(st.integers(1, 3), label="batch")
        batch = [self.data.draw(st.sampled_from(choices), label="action") for _ in range(count)]
        self.clock += timedelta(milliseconds=200)
        self.steps += 1
        if self.data.draw(st.integers(0, 9), label="retry") or self.steps == 1:
            self.ids = [f"s{self.steps}-{n}" for n in range(count)]
        else:  # a client sends its last ids again (a dropped socket)
            self.ids = [*self.ids, *(f"s{self.steps}-{n}" for n in range(count))][:count]
        self.both(batch)

    def both(self, batch: list[tuple[int, dict[str, Any]]] | None) -> None:
        """The batch (None: the clock's timeout) at each side; their answers must agree."""
        self.dealing = self.locked
        if batch is None:
            locked = committed(
                lambda: [table_timeout(table_id=self.locked.table.pk, now=self.clock, claim=True)]
            )
        else:
            locked = committed(lambda: table_act_many(
                table_id=self.locked.table.pk,
                requests=[Request(self.locked.players[i], dict(a), self.ids[n]) for n, (i, a)
                          in enumerate(batch)],
            ))  # fmt: skip
        self.dealing = self.held
        requests = (
            [Request(None, {"kind": "timeout"})]
            if batch is None
            else [Request(self.held.players[i], dict(a), self.ids[n]) for n, (i, a)
                  in enumerate(batch)]
        )  # fmt: skip
        was = self.held.held
        held, self.held.held = committed(
            lambda: held_act(table_id=self.held.table.pk, requests=requests, held=was)
        )
        self.kept += was is not None and self.held.held is was
        if batch is None:
            held = [None if isinstance(answer, IllegalAction) else answer for answer in held]
        assert [answer_of(a) for a in held] == [answer_of(a) for a in locked], batch


def committed(work: Callable[[], T]) -> T:
    """``work()``, then what its transactions left to do on commit, as their commits would
    (the example's own transaction never commits); nothing of one that was undone."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return work()


# Every example on both databases: the held path writes through PostgreSQL's pipeline there.
@settings(PROPERTY, max_examples=15)
@given(data=st.data())
@pytest.mark.parametrize("name", sorted(TABLES))
@pytest.mark.django_db
def test_held_batches_write_what_the_locked_path_writes(name, data):
    started = timezone.now()
    pairs: list[Pair] = []

    def now() -> Any:
        return pairs[0].clock if pairs else started

    hook = announce.plugged()
    with (
        transaction.atomic(),
        mock.patch("cardroom.tables.runtime.shuffled_deck", side_effect=lambda: pairs[0].deck()),
        mock.patch("django.utils.timezone.now", now),
    ):
        pair = committed(lambda: Pair(name, data))
        pairs.append(pair)
        announce.plug(pair.heard)
        try:
            for _ in range(data.draw(st.integers(10, 40), label="steps")):
                pair.step()
        finally:
            announce.plug(hook)  # type: ignore[arg-type]
        held, locked = pair.held.rows(), pair.locked.rows()
        assert held == locked, first_difference(held, locked)
        held, locked = pair.held.snapshots(), pair.locked.snapshots()
        assert held == locked, first_difference(held, locked)
        assert len(pair.held.announced) == Table.objects.get(pk=pair.held.table.pk).version
        transaction.set_rollback(True)


def survivor(players: int = 3, prefix: str = "h") -> tuple[Table, list[Any]]:
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": players}, name="held"
    )
    users = [user_create(username=f"{prefix}{n}") for n in range(players)]
    for user in users:
        table_act(table_id=table.pk, user=user, action={"kind": "sit", "buy_in": 20_000})
    return table, users


def due(table: Table) -> Held | None:
    """Hold the table, then apply its due timeout held; what is held after."""
    table.refresh_from_db()
    with mock.patch(
        "django.utils.timezone.now", return_value=table.deadline + timedelta(seconds=1)
    ):
        answers, held = held_act(
            table_id=table.pk, requests=[Request(None, {"kind": "timeout"})], held=None
        )
    assert isinstance(answers[0], Outcome), answers
    return held


@pytest.mark.django_db
def test_a_table_changed_behind_the_held_rows_is_never_written_over():
    table, users = survivor()
    held = due(table)  # the ante call
    assert held is not None
    # Another process (or the locked path here) changes the table: the held rows are stale.
    table_act(table_id=table.pk, user=users[0], action={"kind": "ante"})
    version = Table.objects.get(pk=table.pk).version
    answers, kept = held_act(
        table_id=table.pk, requests=[Request(users[1], {"kind": "ante"})], held=held
    )
    assert isinstance(answers[0], Outcome) and answers[0].version == version + 1
    assert kept is None  # the locked path answered; the next batch reads the table again
    assert TableAction.objects.filter(table=table, version=version + 1).count() == 1
    assert Table.objects.get(pk=table.pk).version == version + 1


@pytest.mark.django_db
def test_two_holders_of_one_table_never_both_apply():
    table, users = survivor()
    first = due(table)
    assert first is not None
    # Both hold the same version; the first to write wins, the second finds its rows stale.
    second_held = Held(*_copy(first))
    one, first = held_act(table_id=table.pk, requests=[Request(users[0], {"kind": "ante"})],
                          held=first)  # fmt: skip
    two, _ = held_act(table_id=table.pk, requests=[Request(users[0], {"kind": "ante"})],
                      held=second_held)  # fmt: skip
    assert isinstance(one[0], Outcome)
    assert isinstance(two[0], IllegalAction)  # said from the table as it is: anted already
    assert TableAction.objects.filter(table=table, version=one[0].version).count() == 1


def _copy(held: Held) -> tuple[Any, ...]:
    table = Table.objects.get(pk=held.table.pk)
    table.open_hand = held.table.open_hand
    return table, dict(held.seats), {code: Account.objects.get(code=code) for code in held.accounts}


@pytest.mark.django_db
def test_a_flag_or_limits_set_behind_the_held_rows_send_the_batch_to_the_locked_path():
    table, users = survivor()
    held = due(table)
    Seat.objects.filter(table=table, user=users[2]).update(leave_at_rest=True)
    answers, kept = held_act(
        table_id=table.pk, requests=[Request(users[0], {"kind": "ante"})], held=held
    )
    assert isinstance(answers[0], Outcome) and kept is None
    table2, users2 = survivor(prefix="k")
    held = due(table2)
    PlayerLimits.objects.create(user=users2[0])
    answers, kept = held_act(
        table_id=table2.pk, requests=[Request(users2[1], {"kind": "ante"})], held=held
    )
    assert isinstance(answers[0], Outcome) and kept is None
    assert due(table2) is None  # a player with limits: the table is not held


@pytest.mark.django_db
def test_a_player_cannot_send_the_clock_s_timeout():
    table, users = survivor()
    table.refresh_from_db()
    with mock.patch(
        "django.utils.timezone.now", return_value=table.deadline + timedelta(seconds=1)
    ):
        answers, _ = held_act(
            table_id=table.pk, requests=[Request(users[0], {"kind": "timeout"})], held=None
        )
    assert isinstance(answers[0], IllegalAction) and "unknown action" in str(answers[0])
    assert Table.objects.get(pk=table.pk).version == table.version


@pytest.mark.django_db
def test_a_held_decision_is_one_round_trip_and_its_commit():
    table, users = survivor()
    held = due(table)
    for user in users:  # the first ante opens the hand; the last deals
        _, held = held_act(table_id=table.pk, requests=[Request(user, {"kind": "ante"})],
                           held=held)  # fmt: skip
    assert held is not None
    count = queries(
        lambda: held_act(
            table_id=table.pk,
            requests=[Request(users[0], {"kind": "declare", "choice": "in"})],
            held=held,
        )
    )
    if connection.vendor == "postgresql":
        # The fenced row, the journal and the events in one pipeline: one entry; the
        # test's own transaction stands in for the BEGIN and COMMIT.
        assert count == 1, count
    else:
        assert count <= 4, count
    table_apply(table_id=table.pk, action={"kind": "sit_out", "seat": 2})  # still consistent


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_a_held_decision_is_one_round_trip_commit_included():
    table, users = survivor(prefix="r")
    held = due(table)
    for user in users:
        _, held = held_act(table_id=table.pk, requests=[Request(user, {"kind": "ante"})],
                           held=held)  # fmt: skip
    assert held is not None
    version = Table.objects.get(pk=table.pk).version
    with CaptureQueriesContext(connection) as captured:
        answers, held = held_act(
            table_id=table.pk,
            requests=[Request(users[0], {"kind": "declare", "choice": "in"})],
            held=held,
        )
    assert isinstance(answers[0], Outcome) and held is not None
    sent = [query["sql"] for query in captured.captured_queries]
    if connection.vendor == "postgresql":
        # BEGIN, the fenced row, the journal, the events and COMMIT: one pipeline.
        assert len(sent) == 1 and sent[0].startswith("BEGIN") and sent[0].endswith("COMMIT"), sent
    assert Table.objects.get(pk=table.pk).version == version + 1  # committed
    # A stale held table writes nothing, and its transaction is rolled back.
    stale = held
    table_act(table_id=table.pk, user=users[1], action={"kind": "declare", "choice": "out"})
    answers, kept = held_act(
        table_id=table.pk,
        requests=[Request(users[2], {"kind": "declare", "choice": "in"})],
        held=stale,
    )
    assert kept is None and isinstance(answers[0], Outcome)
    assert not connection.in_atomic_block
    assert TableAction.objects.filter(table=table, version=version + 3).count() == 1


@pytest.mark.django_db
def test_the_owner_reads_only_the_hands_finished_since_the_log_it_last_announced():
    """The log of hands a held table announces at each showdown is the one read whole, though
    only the hands finished since its last log are read, and a kept hand that falls off the
    log's end leaves it."""
    table, users = survivor(prefix="g")
    game = engine_for(table.game).game
    logs: list[tuple[list[Any], list[Any]]] = []  # (announced, read whole), at each showdown

    def heard(announcement: announce.Announcement) -> None:
        snapshot = announcement.snapshot or {}
        if announcement.table_id == table.pk and "recent" in snapshot:
            whole = recent_hands(table=Table.objects.get(pk=table.pk))
            reads.pop()  # the test's own read
            logs.append((snapshot["recent"], whole))

    reads: list[tuple[int, int]] = []  # (hands known, hands read) at each read of the log

    def read(table_id: int, limit: int, known: Any = ()) -> Any:
        found = finished_hands_paid(table_id, limit, known)
        reads.append((len(known), len(found)))
        return found

    clock = [timezone.now()]

    def now() -> Any:
        return clock[0]

    hook = announce.plugged()
    announce.plug(heard)
    try:
        with (
            mock.patch("cardroom.tables.runtime.shuffled_deck", side_effect=lambda: list(DECK)),
            mock.patch("cardroom.tables.hand_log.finished_hands_paid", side_effect=read),
            mock.patch("django.utils.timezone.now", now),
            mock.patch("django.db.transaction.on_commit", lambda run, *_, **__: run()),
        ):
            held = None
            while len(logs) < 11:
                row = Table.objects.get(pk=table.pk)
                state = game.load(row.state)
                seated = dict(Seat.objects.filter(table=row, left__isnull=True)
                              .values_list("number", "user_id"))  # fmt: skip
                requests = []
                for number, user_id in seated.items():
                    for legal in game.legal_actions(state, number):
                        if legal["kind"] in ("ante", "declare"):
                            choice = "in" if number == 0 else "out"  # seat 0 takes each pot
                            action = {"kind": "ante"} if legal["kind"] == "ante" else {
                                "kind": "declare", "choice": choice}  # fmt: skip
                            user = next(u for u in users if u.pk == user_id)
                            requests.append(Request(user, action))
                            break
                if not requests:
                    assert row.deadline is not None, "the table is stuck"
                    clock[0] = max(clock[0], row.deadline) + timedelta(milliseconds=5)
                    requests = [Request(None, {"kind": "timeout"})]
                clock[0] += timedelta(milliseconds=50)
                answers, held = held_act(table_id=table.pk, requests=requests, held=held)
                assert all(isinstance(answer, Outcome) for answer in answers), answers
    finally:
        announce.plug(hook)  # type: ignore[arg-type]
    for announced, whole in logs:
        assert announced == whole
    assert [len(announced) for announced, _ in logs] == [1, 2, 3, 4, 5, 6, 7, 8, 8, 8, 8]
    # Held from the first showdown on: read whole once, then one new hand at each showdown.
    assert reads == [(0, 1), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1), (6, 1), (7, 1), (8, 1),
                     (8, 1), (8, 1)], reads  # fmt: skip


def notice(seat: int) -> Request:
    """A socket's presence notice, as cardroom/realtime/queue.py submits it."""
    return Request(None, {"kind": PRESENCE, "seat": seat})


@pytest.mark.django_db
def test_a_presence_notice_tells_the_game_what_the_count_says_when_applied_held():
    table, users = survivor(prefix="n")
    held = due(table)
    assert held is not None
    seat = Seat.objects.get(table=table, user=users[1])
    journal = TableAction.objects.filter(table=table)
    version = Table.objects.get(pk=table.pk).version
    # No socket counts for the seat (sat without one): the notice tells the game so.
    answers, kept = held_act(table_id=table.pk, requests=[notice(seat.number)], held=held)
    assert isinstance(answers[0], Outcome) and kept is held  # still held: nothing read again
    assert journal.get(version=version + 1).action["kind"] == "disconnect"
    # The consumer counted a socket: the next notice tells the game "connect".
    Seat.objects.filter(pk=seat.pk).update(connections=1)
    answers, kept = held_act(table_id=table.pk, requests=[notice(seat.number)], held=kept)
    assert isinstance(answers[0], Outcome) and kept is held
    assert journal.get(version=version + 2).action["kind"] == "connect"
    assert kept.seats[seat.number].connections == 1  # the snapshot's "online" comes from it
    # The count went back to none, and two notices come together (one late): both are told
    # what the count says now, whatever order they were sent in.
    Seat.objects.filter(pk=seat.pk).update(connections=0)
    answers, kept = held_act(
        table_id=table.pk, requests=[notice(seat.number), notice(seat.number)], held=kept
    )
    assert all(isinstance(answer, Outcome) for answer in answers) and kept is not None
    told = [row.action["kind"] for row in journal.filter(version__gt=version + 2)]
    assert told == ["disconnect", "disconnect"]
    assert Table.objects.get(pk=table.pk).version == kept.table.version == version + 4
    events = HandEvent.objects.filter(table=table, type="connection_changed").order_by("seq")
    # The last notice changed nothing: the game had been told already.
    assert [event.data["connected"] for event in events] == [False, True, False]


@pytest.mark.django_db
def test_a_presence_notice_for_a_seat_left_is_refused_and_writes_nothing():
    table, _ = survivor(prefix="m")
    held = due(table)
    version = Table.objects.get(pk=table.pk).version
    answers, _ = held_act(table_id=table.pk, requests=[notice(7)], held=held)  # no such seat
    assert isinstance(answers[0], IllegalAction)
    assert Table.objects.get(pk=table.pk).version == version


@pytest.mark.django_db
def test_a_player_cannot_send_a_presence_notice():
    table, users = survivor(prefix="o")
    version = Table.objects.get(pk=table.pk).version
    answers, _ = held_act(
        table_id=table.pk, requests=[Request(users[0], {"kind": PRESENCE, "seat": 1})], held=None
    )
    assert isinstance(answers[0], IllegalAction) and "unknown action" in str(answers[0])
    assert Table.objects.get(pk=table.pk).version == version


@pytest.mark.django_db
def test_a_held_presence_notice_is_the_count_s_read_and_one_round_trip():
    table, users = survivor(prefix="p")
    held = due(table)
    Seat.objects.filter(table=table, user=users[0]).update(connections=1)
    number = Seat.objects.get(table=table, user=users[0]).number
    count = queries(lambda: held_act(table_id=table.pk, requests=[notice(number)], held=held))
    if connection.vendor == "postgresql":
        assert count == 2, count  # the seat's count, then the fenced rows in one pipeline
    else:
        assert count <= 5, count
