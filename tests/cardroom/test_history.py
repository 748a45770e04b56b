"""Hand histories: each viewer reads only what they may, with openings that verify."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from cardroom.history import hand_history, viewer_seats
from cardroom.models import Hand, HandEvent
from cardroom.runtime import table_act
from games.deck import Opening, verify_opening
from tests.cardroom.test_runtime import play_to_declare

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
    for_ann = hand_history(hand=hand, seats=viewer_seats(hand=hand, user_id=ann.pk))
    for_cat = hand_history(hand=hand, seats=viewer_seats(hand=hand, user_id=cat.pk))
    ann_text = str(for_ann)
    assert not any(f"'{card}'" in ann_text for card in muck)
    assert {o["card"] for o in for_cat["openings"] if not o["public"]} == muck


def test_openings_cover_the_shown_cards_and_verify(survivor_table, seated):
    hand = finished_hand(survivor_table, seated)
    shown = dealt_to(survivor_table, 0) | dealt_to(survivor_table, 1)
    spectator = hand_history(hand=hand, seats=set())
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
    assert hand_history(hand=hand, seats={0})["openings"] == []


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
    assert "Ante posted: ann, amount $1.00" in page
    assert "Rake taken:" in page
    cat_cards = dealt_to(survivor_table, 2)
    events = page[page.index('<ol class="events">') :]
    # Cat's mucked hand stays cat's: none of its cards is named among the events.
    assert not any(re.search(rf"\b{card}\b", events) for card in cat_cards)
