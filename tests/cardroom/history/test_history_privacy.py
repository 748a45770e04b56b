"""Hand histories follow the user, not the seat number: a player who sat in a seat earlier in a
hand never reads the cards of whoever sat there after them. And whatever is played, nobody's
history names a card the live game never showed them.
"""

from __future__ import annotations

from datetime import timedelta
from importlib import import_module
from pathlib import Path

import pytest
from django.apps import apps as django_apps
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from cardroom import migrations
from cardroom.history.history import hand_history
from cardroom.models import Hand, HandEvent
from cardroom.tables.runtime import table_act, table_create, table_timeout
from tests.cardroom.plays import (
    CLASSIC,
    PROPERTY,
    TABLES,
    named_cards,
    play_and_check,
)

pytestmark = pytest.mark.django_db


def run_clock(table) -> None:
    table.refresh_from_db()
    assert table.deadline is not None
    assert table_timeout(table_id=table.pk, now=table.deadline + timedelta(milliseconds=5))


@pytest.fixture
def seat_reused(make_player):
    """Three Card Poker: W sits; Z sits and bets; X sits in seat 1 and leaves before the deal;
    Y sits in seat 1, bets and folds. Returns the table, the users and Y's cards."""
    table = table_create(
        game="three_card_poker", preset="standard", options={"time_bank": 0}, name="TCP"
    )
    w, z, x, y = (make_player(name) for name in ("wes", "zoe", "xan", "yan"))

    def act(user, **action) -> None:
        table_act(table_id=table.pk, user=user, action=action)

    act(w, kind="sit", buy_in=10_000, seat=0)
    act(z, kind="sit", buy_in=10_000, seat=2)
    act(z, kind="bet", ante=100)
    act(x, kind="sit", buy_in=10_000, seat=1)
    act(x, kind="leave")
    act(y, kind="sit", buy_in=10_000, seat=1)
    act(y, kind="bet", ante=100)
    run_clock(table)  # betting closes: the deal goes to Z and Y
    act(y, kind="fold")
    run_clock(table)  # Z does not decide in time: the hand ends
    hand = Hand.objects.get(table=table, number=1)
    assert hand.ended is not None
    cards = set(HandEvent.objects.get(hand=hand, type="cards_dealt", private_to=1).data["cards"])
    return table, {"w": w, "z": z, "x": x, "y": y}, cards


def test_an_earlier_occupant_of_a_seat_never_reads_the_later_ones_cards(seat_reused):
    table, users, folded = seat_reused
    hand = Hand.objects.get(table=table, number=1)
    for_x = hand_history(hand=hand, user_id=users["x"].pk)
    assert not named_cards(for_x) & folded
    assert not any(event["type"] == "cards_dealt" for event in for_x["events"])
    for_y = hand_history(hand=hand, user_id=users["y"].pk)
    assert {o["card"] for o in for_y["openings"] if not o["public"]} == folded
    assert all(o["verified"] for o in for_y["openings"])


def test_the_hand_page_follows_the_user_not_the_seat(client, seat_reused):
    table, users, folded = seat_reused
    url = reverse("hand", args=[table.pk, 1]) + "?format=json"
    client.force_login(users["x"])
    for_x = client.get(url).json()
    assert not named_cards(for_x) & folded
    assert set(for_x) == {
        "hand", "table", "root", "leaves", "ended", "result", "events", "openings", "payments"
    }  # fmt: skip
    client.force_login(users["y"])
    for_y = client.get(url).json()
    assert folded <= named_cards(for_y)
    assert set(for_y["events"][0]) == {"seq", "type", "data", "words", "private"}


def test_the_migration_names_the_readers_of_the_events_recorded_before_it(seat_reused):
    """Best effort, for the events recorded before readers were: the player who held the seat
    when the event was recorded."""
    table, users, _ = seat_reused
    events = HandEvent.objects.filter(table=table)
    expected = dict(events.values_list("seq", "readers"))
    events.update(readers=None)
    (path,) = Path(migrations.__file__).parent.glob("*_event_readers.py")
    import_module(f"cardroom.migrations.{path.stem}").fill_readers(django_apps, None)
    assert dict(events.values_list("seq", "readers")) == expected
    dealt = {e.private_to: e.readers for e in events.filter(type="cards_dealt")}
    assert dealt == {2: [users["z"].pk], 1: [users["y"].pk], -1: []}


# Whatever is played, with players leaving and others taking their seats mid-hand, nobody's
# history names a card the live game never showed them. The live view (``game.view(state,
# seat)``) is the rules' statement of what a viewer may see; each user's history (events and
# openings) must stay within everything their views ever showed.


@pytest.mark.parametrize("name", sorted(TABLES))
@PROPERTY
@given(data=st.data())
def test_no_history_names_a_card_its_reader_was_not_shown(name, data):
    play_and_check(name, data)


@PROPERTY
@given(data=st.data(), preset=st.sampled_from(CLASSIC))
def test_no_classic_guts_history_names_a_card_its_reader_was_not_shown(data, preset):
    play_and_check(preset, data)
