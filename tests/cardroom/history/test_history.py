"""Hand histories: each viewer reads only what they may, with openings that verify."""

from __future__ import annotations

import dataclasses
import re

import pytest
from django.urls import reverse

from cardroom.history.history import hand_history
from cardroom.models import Hand, HandEvent
from cardroom.presentation.event_words import cards_words
from cardroom.tables.runtime import table_act
from games.deck import Opening, verify_opening
from games.events import card_fields, event_cards
from tests.cardroom.driving import play_to_declare
from tests.cardroom.history.events import event_classes

pytestmark = pytest.mark.django_db


def finished_hand(table, players) -> Hand:
    ann, ben, cat = players
    play_to_declare(table, players)
    table_act(table_id=table.pk, user=ann, action={"kind": "declare", "choice": "in"})
    table_act(table_id=table.pk, user=ben, action={"kind": "declare", "choice": "in"})
    table_act(table_id=table.pk, user=cat, action={"kind": "declare", "choice": "out"})
    return Hand.objects.get(table=table, number=1)


def dealt_to(table, seat: int) -> set[str]:
    event = HandEvent.objects.get(table=table, type="cards_dealt", private_to=seat)
    return set(event.data["cards"])


def test_a_mucked_hand_is_in_its_owners_history_only(survivor_table, seated):
    hand = finished_hand(survivor_table, seated)
    ann, _, cat = seated
    muck = dealt_to(survivor_table, 2)
    for_ann = hand_history(hand=hand, user_id=ann.pk)
    for_cat = hand_history(hand=hand, user_id=cat.pk)
    ann_text = str(for_ann)
    assert not any(f"'{card}'" in ann_text for card in muck)
    assert {o["card"] for o in for_cat["openings"] if not o["public"]} == muck


def test_openings_cover_the_shown_cards_and_verify(survivor_table, seated):
    hand = finished_hand(survivor_table, seated)
    shown = dealt_to(survivor_table, 0) | dealt_to(survivor_table, 1)
    spectator = hand_history(hand=hand, user_id=None)
    assert {o["card"] for o in spectator["openings"]} == shown
    assert all(o["public"] and o["verified"] for o in spectator["openings"])
    for opening in spectator["openings"]:
        tampered = Opening(
            opening["position"], "2c" if opening["card"] != "2c" else "3c", opening["salt"]
        )
        assert not verify_opening(hand.commitment_root, hand.commitment["leaves"], tampered)


def test_no_openings_before_the_hand_ends(survivor_table, seated):
    play_to_declare(survivor_table, seated)
    hand = Hand.objects.get(table=survivor_table, number=1)
    assert hand_history(hand=hand, user_id=seated[0].pk)["openings"] == []


def test_hand_page_renders_for_a_player(client, survivor_table, seated):
    finished_hand(survivor_table, seated)
    client.force_login(seated[0])
    page = client.get(reverse("hand", args=[survivor_table.pk, 1]))
    assert page.status_code == 200
    assert "✔ matches" in page.content.decode()
    data = client.get(reverse("hand", args=[survivor_table.pk, 1]) + "?format=json").json()
    assert data["hand"] == 1


def test_the_hand_page_tells_the_events_in_words_with_names(client, survivor_table, seated):
    finished_hand(survivor_table, seated)
    client.force_login(seated[0])
    page = client.get(reverse("hand", args=[survivor_table.pk, 1])).content.decode()
    assert "ann anted $1.00" in page
    assert "The house took $0.09 in rake" in page
    cat_cards = dealt_to(survivor_table, 2)
    events = page[page.index('<ol class="events">') :]
    # Cat's mucked hand stays cat's: none of its cards is named among the events.
    assert not any(re.search(rf"\b{card}\b", events) for card in cat_cards)
    assert not any(cards_words([card]) in events for card in cat_cards)  # as the page draws it


def test_a_player_named_like_a_card_opens_no_card(survivor_table, seated, make_player):
    """Cards come from the events' card fields only: a player called ``9s`` who sits down
    during the hand does not open the 9s in cat's mucked hand to everyone."""
    ann, ben, cat = seated
    play_to_declare(survivor_table, seated)
    mucked = sorted(dealt_to(survivor_table, 2))[0]
    named = make_player(mucked)
    table_act(table_id=survivor_table.pk, user=named, action={"kind": "sit", "buy_in": 20_000})
    for player, choice in ((ann, "in"), (ben, "in"), (cat, "out")):
        table_act(
            table_id=survivor_table.pk, user=player, action={"kind": "declare", "choice": choice}
        )
    hand = Hand.objects.get(table=survivor_table, number=1)
    assert hand.events.filter(type="player_sat", data__player=mucked).exists()
    spectator = hand_history(hand=hand, user_id=None)
    assert mucked not in {o["card"] for o in spectator["openings"]}


def test_a_type_several_games_share_reads_none_of_their_other_fields_as_cards():
    """Some types are several games' (``cards_dealt``, ``player_sat``, ``hand_started``): the
    union of their card fields names no field that one of them holds something else in."""
    classes = event_classes()
    assert {"cards_dealt", "dealer_revealed", "hand_revealed", "hand_shown"} <= set(card_fields())
    for cls in classes:
        names = {field.name for field in dataclasses.fields(cls)}
        assert (card_fields()[cls.type] & names) <= cls.CARD_FIELDS, cls


@pytest.mark.parametrize(
    ("data", "cards"),
    [
        ({"type": "cards_dealt", "seat": None, "cards": ["Kd", "9h", "3s"]}, {"Kd", "9h", "3s"}),
        (
            {"type": "dealer_revealed", "cards": ["Kd", "9h", "3s"], "hand": "Ks"},
            {"Kd", "9h", "3s"},
        ),
        ({"type": "player_sat", "seat": 1, "player": "9s", "amount": 100}, set()),
        ({"type": "declared", "seat": 1, "choice": "Ah", "timed_out": False}, set()),
        ({"type": "point_won", "seat": 1, "card": "Ah", "total": 1}, {"Ah"}),
        ({"type": "no_such_event", "cards": ["Ah"]}, set()),
    ],
)
def test_cards_come_from_card_fields_only(data, cards):
    assert event_cards(data) == cards
