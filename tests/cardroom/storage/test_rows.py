"""The hand-written queries of cardroom/storage/rows.py leave what the ORM would."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cardroom.models import Seat
from cardroom.models.responsible import PlayerLimits
from cardroom.responsible.checks import limits_row
from cardroom.storage.rows import held_seats, table_row, table_row_locked
from cardroom.tables.runtime import table_act, table_create, table_timeout


def values(instance) -> dict:
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.fields}


@pytest.mark.django_db
def test_the_seats_rows_are_the_orms_rows(make_player):
    ann, ben, cat = make_player("ann"), make_player("ben"), make_player("cat")
    PlayerLimits.objects.create(
        user=ben, loss_day=5_000, reality_minutes=30, reality_acknowledged=timezone.now()
    )
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Rows"
    )
    for player in (ann, ben, cat):
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    table_act(table_id=table.pk, user=cat, action={"kind": "leave"})
    Seat.objects.filter(user=ann).update(
        connections=2, lease_until=timezone.now() + timedelta(seconds=30), leave_at_rest=True
    )
    orm = {
        seat.number: seat
        for seat in Seat.objects.filter(table=table, left__isnull=True).select_related(
            "user", "user__play_limits"
        )
    }
    with CaptureQueriesContext(connection) as captured:
        rows = held_seats(table.pk)
        read = {
            number: (values(seat), values(seat.user), limits_row(seat.user))
            for number, seat in rows.items()
        }
    assert len(captured.captured_queries) == 1  # the related rows came with the seats
    assert list(rows) == sorted(orm) and len(rows) == 2
    for number, seat in orm.items():
        seat_values, user_values, limits = read[number]
        assert seat_values == values(seat)
        assert user_values == values(seat.user)
        assert type(seat_values["lease_until"]) is type(seat.lease_until)
        expected = limits_row(seat.user)
        assert (limits and values(limits)) == (expected and values(expected))
    assert read[orm_number(orm, ben)][2].loss_day == 5_000
    assert read[orm_number(orm, ann)][2] is None
    assert read[orm_number(orm, ann)][0]["leave_at_rest"] is True


def orm_number(seats: dict, user) -> int:
    return next(number for number, seat in seats.items() if seat.user_id == user.pk)


@pytest.mark.django_db
def test_the_locked_table_row_is_the_orms_row_with_its_open_hand(make_player):
    from cardroom.models import Table
    from cardroom.tables.runtime import table_timeout

    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Row"
    )
    players = [make_player(name) for name in ("ann", "ben")]
    for player in players:
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    read = table_row_locked(table.pk)
    assert read.open_hand is None
    orm = Table.objects.get(pk=table.pk)
    assert {k: v for k, v in values(read).items() if k != "rest_state"} == {
        k: v for k, v in values(orm).items() if k != "rest_state"
    }
    assert read.rest_state == orm.rest_state  # deferred: read when asked for
    table.refresh_from_db()
    table_timeout(table_id=table.pk, now=table.deadline + timedelta(milliseconds=10))
    table_act(table_id=table.pk, user=players[0], action={"kind": "ante"})  # opens the hand
    with CaptureQueriesContext(connection) as captured:
        read = table_row_locked(table.pk)
        hand = read.open_hand
        deck = hand.deck
    assert len(captured.captured_queries) == 1
    orm = Table.objects.select_related("open_hand").get(pk=table.pk)
    assert hand is not None and values(orm.open_hand)["deck"] == deck
    assert {k: v for k, v in values(hand).items() if k != "commitment"} == {
        k: v for k, v in values(orm.open_hand).items() if k != "commitment"
    }
    assert type(read.deadline) is type(orm.deadline) and read.deadline == orm.deadline
    with pytest.raises(Table.DoesNotExist):
        table_row_locked(table.pk + 1000)
    unlocked = table_row(table.pk)  # a socket's first frame reads the same, with no lock
    assert values(unlocked) == values(read) and values(unlocked.open_hand) == values(hand)


@pytest.mark.django_db
def test_the_last_transfer_and_the_bankrolls_are_the_ledgers(make_player):
    from django.db.models import Max

    from accounts.models import Account, AccountKind, Transfer
    from cardroom.models import Table
    from cardroom.storage.rows import bankroll_balances

    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Ledger"
    )
    assert Table.objects.get(pk=table.pk).rest_transfer == 0
    ann, ben = make_player("ann"), make_player("ben")
    table_act(table_id=table.pk, user=ann, action={"kind": "sit", "buy_in": 12_345})
    table_act(table_id=table.pk, user=ben, action={"kind": "sit", "buy_in": 20_000})
    last = Transfer.objects.filter(table_id=table.pk).aggregate(n=Max("id"))["n"]
    # Each sit is a point between hands: the row keeps the id of the transfer it made.
    assert Table.objects.get(pk=table.pk).rest_transfer == last > 0
    bankrolls = dict(
        Account.objects.filter(kind=AccountKind.BANKROLL).values_list("user_id", "balance")
    )
    assert bankroll_balances({ann.pk, ben.pk}) == {
        ann.pk: bankrolls[ann.pk],
        ben.pk: bankrolls[ben.pk],
    }
    assert bankroll_balances(set()) == {}


@pytest.mark.django_db
def test_rows_where_reads_the_orms_instances(make_player):
    from cardroom.models.waitlist import WaitingPlayer
    from cardroom.storage.rows import rows_where

    ann, ben = make_player("ann"), make_player("ben")
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 2}, name="Where"
    )
    now = timezone.now()
    WaitingPlayer.objects.create(table=table, user=ben, joined=now, offered_until=now)
    WaitingPlayer.objects.create(table=table, user=ann, joined=now - timedelta(minutes=1))
    PlayerLimits.objects.create(user=ann, loss_day=5_000, reality_acknowledged=now)
    raw = rows_where(WaitingPlayer, "table_id", table.pk)
    orm = list(WaitingPlayer.objects.filter(table=table).order_by("pk"))
    assert [values(row) for row in raw] == [values(row) for row in orm]
    assert [row.user_id for row in raw] == [ben.pk, ann.pk]  # by primary key, not by joined
    assert isinstance(raw[1].joined, type(now))  # SQLite's text converted as the ORM does
    (limits,) = rows_where(PlayerLimits, "user_id", ann.pk)
    assert values(limits) == values(PlayerLimits.objects.get(user=ann))
    assert rows_where(PlayerLimits, "user_id", ben.pk) == []


@pytest.mark.django_db(transaction=True)
def test_look_ups_read_ahead_come_with_the_lock_once_and_never_outlive_their_block(make_player):
    """``read_ahead``: the look-ups go with the table's lock (no statement of their own); the
    first ``rows_where`` of each takes those rows, a second reads again and sees what the
    transaction wrote; outside the block nothing read ahead is taken."""
    from django.db import transaction

    from cardroom.models.waitlist import WaitingPlayer
    from cardroom.storage.rows import read_ahead, rows_where, table_and_seats_locked

    ann, ben = make_player("ann"), make_player("ben")
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 2}, name="Ahead"
    )
    now = timezone.now()
    WaitingPlayer.objects.create(table=table, user=ben, joined=now)
    PlayerLimits.objects.create(user=ann, loss_day=5_000, reality_acknowledged=now)
    line, limits = (WaitingPlayer, "table_id", table.pk), (PlayerLimits, "user_id", ann.pk)
    with transaction.atomic(), read_ahead(line, limits):
        with CaptureQueriesContext(connection) as captured:
            table_and_seats_locked(table.pk)
            waiting = rows_where(*line)
            (limit,) = rows_where(*limits)
        # The lock's read and its look-ups: one round trip on PostgreSQL (one entry).
        on_postgres = connection.vendor == "postgresql"
        assert len(captured.captured_queries) == (1 if on_postgres else 4)
        assert [row.user_id for row in waiting] == [ben.pk] and limit.loss_day == 5_000
        WaitingPlayer.objects.filter(user=ben).delete()
        with CaptureQueriesContext(connection) as again:
            assert rows_where(*line) == []  # read again: the transaction's own delete shows
        assert len(again.captured_queries) == 1
    WaitingPlayer.objects.create(table=table, user=ben, joined=now)
    with transaction.atomic(), read_ahead(line):
        table_and_seats_locked(table.pk)  # read ahead, and left untaken
    with transaction.atomic():
        WaitingPlayer.objects.filter(user=ben).delete()
        assert rows_where(*line) == []  # not the rows left from the block before


@pytest.mark.django_db
def test_a_batch_of_sits_reads_every_players_limits_with_the_tables_lock(make_player):
    """Sits applied together: each player's limits, and the wait list for the first of them,
    come with the table's lock; a later sit reads the wait list again, after the sits before
    it (one of them may have left the line)."""
    from cardroom.tables.runtime import Request, table_act_many

    players = [make_player(name) for name in ("ann", "ben", "cat")]
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 4}, name="Sits"
    )
    sits = [Request(player, {"kind": "sit", "buy_in": 20_000}) for player in players]
    with CaptureQueriesContext(connection) as captured:
        answers = table_act_many(table_id=table.pk, requests=sits)
    assert [answer.version for answer in answers] == [1, 2, 3]
    statements = [query["sql"] for query in captured.captured_queries]
    with_lock = [sql for sql in statements if 'FROM "cardroom_waitingplayer"' in sql][:1]
    alone = [sql for sql in statements if sql.startswith('SELECT "cardroom_playerlimits"')]
    line = [sql for sql in statements if sql.startswith('SELECT "cardroom_waitingplayer"')]
    if connection.vendor == "postgresql":
        assert "FOR UPDATE" in with_lock[0]
        assert with_lock[0].count('FROM "cardroom_playerlimits"') == 3 and alone == []
        assert len(line) == 2  # the second and third sits
    else:  # each statement of the lock's read is one entry here
        assert len(alone) == 3 and len(line) == 3


@pytest.mark.django_db
def test_a_sits_look_ups_go_with_the_tables_lock(make_player):
    """A sit reads the table's wait list and the player's limits with the table's lock: on
    PostgreSQL no round trip of their own."""
    ann = make_player("ann")
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 2}, name="Sit"
    )
    with CaptureQueriesContext(connection) as captured:
        table_act(table_id=table.pk, user=ann, action={"kind": "sit", "buy_in": 20_000})
    statements = [query["sql"] for query in captured.captured_queries]
    (line,) = [sql for sql in statements if '"cardroom_waitingplayer"' in sql]  # read once
    assert Seat.objects.get(table=table).user_id == ann.pk
    if connection.vendor == "postgresql":  # in the lock's own round trip (one pipeline)
        assert "FOR UPDATE" in line and line.count('FROM "cardroom_playerlimits"') == 1


@pytest.mark.django_db
def test_hand_numbering_is_the_last_hand_and_the_open_round(make_player):
    from cardroom.models import Hand, Round
    from cardroom.storage.rows import hand_numbering

    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 2}, name="Numbering"
    )
    assert hand_numbering(table.pk) == (0, None)
    players = (make_player("ann"), make_player("ben"))
    for player in players:
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    table.refresh_from_db()
    assert table_timeout(table_id=table.pk, now=table.deadline + timedelta(milliseconds=10))
    for player in players:
        table_act(table_id=table.pk, user=player, action={"kind": "ante"})
    last = Hand.objects.filter(table=table).order_by("-number").first()
    open_round = Round.objects.filter(table=table, ended__isnull=True).order_by("-number").first()
    assert hand_numbering(table.pk) == (
        last.number if last else 0,
        open_round.pk if open_round else None,
    )
    assert last is not None and open_round is not None  # a Survivor round opens with its antes
    Round.objects.filter(pk=open_round.pk).update(ended=timezone.now())
    assert hand_numbering(table.pk) == (last.number, None)
    Round.objects.filter(pk=open_round.pk).update(ended=None)  # as the journal left it


@pytest.mark.django_db
def test_a_table_is_still_due_once_its_deadline_has_passed(make_player):
    from cardroom.models import Table
    from cardroom.storage.rows import table_still_due

    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 2}, name="Due"
    )
    assert not table_still_due(table.pk, timezone.now())  # no deadline at all
    for player in (make_player("ann"), make_player("ben")):
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    deadline = Table.objects.get(pk=table.pk).deadline
    assert deadline is not None
    assert not table_still_due(table.pk, deadline - timedelta(milliseconds=1))
    assert table_still_due(table.pk, deadline)
    assert table_still_due(table.pk, deadline + timedelta(hours=1))
    assert not table_still_due(table.pk + 1000, deadline)  # no such table


@pytest.mark.django_db
def test_a_usable_token_is_read_as_the_orm_reads_it(make_player):
    from cardroom.models import ApiToken
    from cardroom.realtime.auth import _digest, token_create
    from cardroom.storage.rows import usable_token

    ann = make_player("ann")
    now = timezone.now()
    plain = token_create(user=ann, name="plain")
    later = token_create(user=ann, name="later", expires=now + timedelta(hours=1))
    expired = token_create(user=ann, name="expired", expires=now - timedelta(seconds=1))
    revoked = token_create(user=ann, name="revoked")
    ApiToken.objects.filter(name="revoked").update(revoked=now)
    for token in (plain, later):
        found = usable_token(_digest(token), now)
        orm = ApiToken.objects.select_related("user").get(digest=_digest(token))
        assert found is not None and values(found) == values(orm)
        assert values(found.user) == values(orm.user)  # cached: no query for the user
    assert usable_token(_digest(later), now + timedelta(hours=2)) is None  # expired by then
    for token in (expired, revoked, "no such token"):
        assert usable_token(_digest(token), now) is None


@pytest.mark.django_db
def test_the_snapshots_reads_are_the_orms(make_player):
    from cardroom.models import Hand, Table
    from cardroom.storage.rows import (
        finished_hands,
        open_commitment,
        seat_connections,
        seats_online,
        seats_since,
    )

    players = [make_player(name) for name in ("ann", "ben", "cat")]
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 4}, name="Snapshot"
    )
    for player in players:
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    for _ in range(2):  # two hands: the antes, then everyone out (the pot carries)
        while (table := Table.objects.get(pk=table.pk)).state.get("phase") != "ante":
            assert table_timeout(table_id=table.pk, now=table.deadline + timedelta(seconds=0.01))
        for player in players:
            table_act(table_id=table.pk, user=player, action={"kind": "ante"})
        assert open_commitment(table.pk) is not None
        for player in players:
            table_act(table_id=table.pk, user=player, action={"kind": "declare", "choice": "out"})
    table_act(table_id=table.pk, user=players[2], action={"kind": "leave"})
    finished = Hand.objects.filter(table=table, ended__isnull=False).order_by("-number")
    assert len(finished) >= 2
    raw = finished_hands(table.pk, 8)
    assert [(h.pk, h.number, h.result, h.started, h.ended, h.void_reason) for h in raw] == [
        (h.pk, h.number, h.result, h.started, h.ended, h.void_reason) for h in finished
    ]
    assert [h.number for h in finished_hands(table.pk, 1)] == [finished[0].number]
    since = raw[-1].started
    orm = Seat.objects.filter(table=table).select_related("user").order_by("pk")
    expected = [s for s in orm if s.left is None or s.left >= since]
    assert [(values(s), values(s.user)) for s in seats_since(table.pk, since)] == [
        (values(s), values(s.user)) for s in expected
    ]
    Seat.objects.filter(user=players[0], left__isnull=True).update(connections=1)
    held = Seat.objects.filter(table=table, left__isnull=True).order_by("number")
    assert seats_online(table.pk) == [(s.number, s.user_id, s.user == players[0]) for s in held]
    gone = Seat.objects.get(table=table, user=players[2]).number  # left: not held any more
    asked = [*(s.number for s in held), gone, 99]
    assert seat_connections(table.pk, asked) == {s.number: s.connections for s in held}
    assert seat_connections(table.pk, []) == {}
    open_hand = Hand.objects.filter(table=table, ended__isnull=True).order_by("-number").first()
    assert open_commitment(table.pk) == (
        None
        if open_hand is None
        else {"number": open_hand.number, "root": open_hand.commitment_root}
    )


@pytest.mark.django_db
def test_a_viewers_chat_is_the_orms_lines_without_the_muted_and_their_ids(make_player):
    from cardroom.chat import lines_recent, lines_seen_by, mute_add, muted_ids
    from cardroom.models import ChatLine
    from cardroom.storage.rows import chat_of_viewer

    ann, ben, cat = make_player("ann"), make_player("ben"), make_player("cat")
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Chat"
    )
    other = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Other"
    )
    start = timezone.now()
    for index in range(60):  # more than a socket is sent; two lines at one moment
        at = start + timedelta(seconds=index // 2)
        speaker = (ann, ben, cat)[index % 3]
        ChatLine.objects.create(
            table=table, user=speaker, name=speaker.username, text=f"{index}", at=at
        )
    ChatLine.objects.create(table=other, user=ben, name="ben", text="elsewhere", at=start)
    mute_add(muter=ann, name="ben")

    latest, muted = chat_of_viewer(table.pk, ann.pk, 50)
    orm = list(ChatLine.objects.filter(table=table).exclude(user=ben).order_by("-at", "-id")[:50])
    assert [values(line) for line in latest] == [values(line) for line in orm]
    assert muted == {ben.pk} == muted_ids(ann.pk)
    for viewer in (ann, cat):
        assert lines_seen_by(table_id=table.pk, user_id=viewer.pk) == (
            lines_recent(table_id=table.pk, hidden=muted_ids(viewer.pk)),
            muted_ids(viewer.pk),
        )
    assert len(lines_seen_by(table_id=table.pk, user_id=cat.pk)[0]) == 50
    assert "ben" not in {
        line["from"] for line in lines_seen_by(table_id=table.pk, user_id=ann.pk)[0]
    }
