"""A table that plays for a tournament's chips: players may not sit, top up or leave there,
the house never stands them up (they sit out), an operator's close points to the cancel, a
void moves chips only, and no chip ever reaches the ledger."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import Transfer
from cardroom.clock.clock import presence_sweep
from cardroom.models import Seat, TableStatus
from cardroom.tables.control import hand_void, table_close
from cardroom.tables.runtime import (
    table_act,
    table_create,
    table_release,
    table_seat_chips,
    table_timeout,
)
from games.engine import IllegalAction

pytestmark = pytest.mark.django_db


@pytest.fixture
def chips_table(make_player):
    """A tournament's Guts table (no tournament row: the hook finds none and does nothing)
    with ann and ben seated by the house with 1,000 chips each."""
    table = table_create(
        game="guts",
        preset="monte_carlo",
        options={"ante": 10, "seats": 3, "rake_basis_points": 0, "rake_cap": 0,
                 "short_ante": "all_in", "away_antes": True, "top_up_seconds": 0},
        name="SnG",
        plays_for_chips=True,
    )  # fmt: skip
    players = [make_player(name) for name in ("ann", "ben")]
    for number, player in enumerate(players):
        table_seat_chips(table_id=table.pk, user=player, seat=number, stack=1000)
    table.refresh_from_db()
    return table, players


@pytest.mark.parametrize(
    ("action", "words"),
    [
        ({"kind": "top_up", "amount": 500}, "cannot be topped up"),
        ({"kind": "leave"}, "stay until they are out of chips"),
    ],
)
def test_seated_players_may_not_top_up_or_leave(chips_table, action, words):
    table, (ann, _) = chips_table
    version = table.version
    with pytest.raises(IllegalAction, match=words):
        table_act(table_id=table.pk, user=ann, action=action)
    table.refresh_from_db()
    assert table.version == version
    assert table.state["seats"][0]["stack"] == 1000


def test_nobody_sits_down_by_themselves(chips_table, make_player):
    table, _ = chips_table
    cat = make_player("cat")
    with pytest.raises(IllegalAction, match="register for the tournament"):
        table_act(table_id=table.pk, user=cat, action={"kind": "sit", "buy_in": 1000})
    assert not Seat.objects.filter(table=table, user=cat).exists()
    assert Transfer.objects.filter(source__code=f"bankroll:u{cat.pk}").count() == 0


def test_the_house_seats_only_at_a_chips_table(survivor_table, make_player):
    with pytest.raises(IllegalAction, match="only a tournament's table"):
        table_seat_chips(table_id=survivor_table.pk, user=make_player("cat"), seat=0, stack=5)
    assert not Seat.objects.filter(table=survivor_table).exists()


def test_an_idle_player_sits_out_and_keeps_the_seat(chips_table):
    table, (ann, _) = chips_table
    long_ago = timezone.now() - timedelta(hours=2)
    Seat.objects.filter(table=table, user=ann).update(last_seen=long_ago, connections=0)
    presence_sweep()
    seat = Seat.objects.get(table=table, user=ann)
    assert seat.left is None and seat.presence_step == 2
    table.refresh_from_db()
    assert table.state["seats"][0]["sitting_out"] is True
    version = table.version
    presence_sweep()  # once is enough: nothing more is applied
    table.refresh_from_db()
    assert table.version == version


def test_a_flag_to_leave_sits_the_player_out_and_not_up(chips_table):
    table, (ann, _) = chips_table
    Seat.objects.filter(table=table, user=ann).update(leave_at_rest=True)
    assert table_release(table_id=table.pk) is not None
    table.refresh_from_db()
    assert table.state["seats"][0]["sitting_out"] is True
    assert Seat.objects.get(table=table, user=ann).left is None
    assert table_release(table_id=table.pk) is None  # nothing more to do: no new version


def test_an_operator_close_points_to_the_cancel(chips_table):
    table, _ = chips_table
    with pytest.raises(IllegalAction, match="cancel the tournament instead"):
        table_close(table_id=table.pk)
    table.refresh_from_db()
    assert table.status == TableStatus.OPEN


def test_the_chips_of_a_hand_never_reach_the_ledger_and_a_void_gives_them_back(chips_table):
    table, _ = chips_table
    now = timezone.now()
    while table.state["phase"] != "declare":
        now = max(now, table.deadline) + timedelta(milliseconds=5)
        table_timeout(table_id=table.pk, now=now)
        table.refresh_from_db()
    assert table.state["pot"] == 20  # both antes, in chips
    assert not Transfer.objects.filter(table_id=table.pk).exists()
    voided = hand_void(table_id=table.pk, reason="a test")
    assert voided["returned"] == 0  # no money: the chips come back with the state
    table.refresh_from_db()
    assert [seat["stack"] for seat in table.state["seats"][:2]] == [1000, 1000]
    assert not Transfer.objects.filter(table_id=table.pk).exists()


def test_no_wait_list_and_no_house_bots_at_a_chips_table(chips_table, make_player):
    from cardroom.tables.control import table_bots_set
    from cardroom.waitlist.services import WaitListError, wait_list_join

    table, _ = chips_table
    with pytest.raises(WaitListError, match="no wait list"):
        wait_list_join(table_id=table.pk, user=make_player("cat"))
    with pytest.raises(IllegalAction, match="seats its own bots"):
        table_bots_set(table_id=table.pk, bots=1)
    table.refresh_from_db()
    assert table.bots == 0
