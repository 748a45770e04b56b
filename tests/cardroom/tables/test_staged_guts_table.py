"""Classic Guts in stages at the table: 3-5-7's private comparisons, legs, bots (issue 10)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from cardroom.clock.bots import bots_sweep
from cardroom.history.history import hand_history
from cardroom.models import Hand, HandEvent, Seat
from cardroom.tables.runtime import table_act, table_create, table_timeout
from cardroom.tables.selectors import table_state
from tests.cardroom.driving import to_declare

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(three_five_seven, make_player):
    seated = [make_player(name) for name in ("ann", "ben", "cat")]
    for player in seated:
        table_act(
            table_id=three_five_seven.pk, user=player, action={"kind": "sit", "buy_in": 20_000}
        )
    return seated


def seat_of(table, user) -> int:
    return Seat.objects.get(table=table, user=user, left__isnull=True).number


def test_the_stage_and_its_direction_are_in_the_view(three_five_seven, players):
    to_declare(three_five_seven)
    view = table_state(table=three_five_seven, user_id=players[0].pk)["table"]
    assert view["stage"]["words"] == "deal 1, stage 1 of 3: three cards, threes wild, high"
    assert view["stage"]["direction"] == "high"
    assert all(seat.get("legs") == 0 for seat in view["seats"] if "player" in seat)


def test_a_private_comparison_is_shown_only_to_the_players_in_it(three_five_seven, players):
    ann, ben, cat = players
    to_declare(three_five_seven)
    for player, choice in ((ann, "in"), (ben, "in"), (cat, "out")):
        table_act(
            table_id=three_five_seven.pk, user=player, action={"kind": "declare", "choice": choice}
        )
    three_five_seven.refresh_from_db()
    dealt = {
        event.private_to: set(event.data["cards"])
        for event in HandEvent.objects.filter(table=three_five_seven, type="cards_dealt")
    }
    in_cards = dealt[seat_of(three_five_seven, ann)] | dealt[seat_of(three_five_seven, ben)]
    cat_view = str(table_state(table=three_five_seven, user_id=cat.pk))
    assert not any(f"'{card}'" in cat_view for card in in_cards)
    ann_view = str(table_state(table=three_five_seven, user_id=ann.pk))
    assert all(f"'{card}'" in ann_view for card in dealt[seat_of(three_five_seven, ben)])
    private = HandEvent.objects.filter(table=three_five_seven, type="hand_shown_privately")
    assert private.exists()
    assert all(sorted(e.audience) == sorted([seat_of(three_five_seven, p) for p in (ann, ben)])
               for e in private)  # fmt: skip
    hand = Hand.objects.get(table=three_five_seven, number=1)
    for_cat = hand_history(hand=hand, user_id=cat.pk)
    assert not any(e["type"] == "hand_shown_privately" for e in for_cat["events"])
    for_ann = hand_history(hand=hand, user_id=ann.pk)
    assert any(e["type"] == "hand_shown_privately" for e in for_ann["events"])


def test_the_page_names_the_stage_and_the_legs(client, three_five_seven, players):
    from django.urls import reverse

    to_declare(three_five_seven)
    client.force_login(players[0])
    page = client.get(reverse("table", args=[three_five_seven.pk])).content.decode()
    assert "Deal 1, stage 1 of 3: three cards, threes wild, high." in page
    assert "0 legs" in page
    assert "3 legs take the pot." in page


def test_house_bots_play_a_staged_game(make_player):
    table = table_create(
        game="classic_guts", preset="nuts", options={"ante": 100, "seats": 4}, name="Nuts",
        bots=2,
    )  # fmt: skip
    table_act(table_id=table.pk, user=make_player("ann"), action={"kind": "sit", "buy_in": 20_000})
    later = timezone.now()
    acted = 0
    for _ in range(40):
        later += timedelta(seconds=5)
        acted += bots_sweep(now=later)
        table.refresh_from_db()
        if table.deadline is not None and table.deadline <= later:
            table_timeout(table_id=table.pk, now=later)
    assert acted >= 2
    assert Hand.objects.filter(table=table).exists()
    call_command("audit_ledger")


def test_house_rules_describe_the_stages_not_a_card_count(three_five_seven):
    from cardroom.presentation.house_rules import house_rules
    from cardroom.presentation.names import preset_name

    rules = house_rules(three_five_seven)
    assert any(rule.startswith("Stages of three, five and seven cards") for rule in rules)
    assert "Three cards each (three-card ranking)." not in rules
    assert preset_name(three_five_seven.preset) == "3-5-7"


@pytest.mark.django_db(transaction=True)
async def test_three_five_seven_over_the_api_shows_the_private_comparison_to_no_one_out():
    """Every frame the Out player receives is free of the In players' cards."""
    import json

    from asgiref.sync import sync_to_async

    from tests.cardroom.sockets import advance, make_clients

    table = await sync_to_async(table_create)(
        game="classic_guts", preset="three_five_seven", options={"ante": 100, "seats": 4},
        name="3-5-7 API",
    )  # fmt: skip
    clients = await make_clients(table, ["ann", "ben", "cat"])
    for client in clients:
        assert (await client.act(kind="sit", buy_in=20_000))["type"] == "ack"
    for _ in range(5):
        await table.arefresh_from_db()
        if table.state["phase"] == "declare":
            break
        await advance(table)
    for client in clients:
        await client.drain(table)
    for client, choice in zip(clients, ("in", "in", "out"), strict=True):
        assert (await client.act(kind="declare", choice=choice))["type"] == "ack"
    for client in clients:
        await client.drain(table)
        await client.close()
    seats = {
        name: (await Seat.objects.aget(table=table, user__username=name, left__isnull=True)).number
        for name in ("ann", "ben", "cat")
    }
    dealt = {
        event.private_to: set(event.data["cards"])
        async for event in HandEvent.objects.filter(table=table, type="cards_dealt")
    }
    cat_text = json.dumps(clients[2].frames)
    for name in ("ann", "ben"):
        assert not any(f'"{card}"' in cat_text for card in dealt[seats[name]])
    ann_text = json.dumps(clients[0].frames)
    assert all(f'"{card}"' in ann_text for card in dealt[seats["ben"]])


def test_a_stage_says_who_showed_what_who_paid_and_marks_wild_cards(
    client, three_five_seven, players, monkeypatch
):
    from django.urls import reverse

    from games.cards import DECK

    # Threes first: stage 1 deals three cards each, threes wild, so threes are in hands.
    threes = [card for card in DECK if str(card)[0] == "3"]
    deck = threes + [card for card in DECK if card not in threes]
    monkeypatch.setattr("cardroom.tables.runtime.shuffled_deck", lambda: deck)
    ann, ben, cat = players
    to_declare(three_five_seven)
    holders = {
        event.private_to
        for event in HandEvent.objects.filter(table=three_five_seven, type="cards_dealt")
        if any(card[0] == "3" for card in event.data["cards"])
    }
    holder = next(p for p in players if seat_of(three_five_seven, p) in holders)
    client.force_login(holder)
    page = client.get(reverse("table", args=[three_five_seven.pk])).content.decode()
    assert 'class="card wild"' in page or 'class="card red wild"' in page
    assert ", wild" in page  # read out as wild

    for player, choice in ((ann, "in"), (ben, "in"), (cat, "out")):
        table_act(
            table_id=three_five_seven.pk, user=player, action={"kind": "declare", "choice": choice}
        )
    three_five_seven.refresh_from_db()
    assert three_five_seven.state["phase"] == "stage_over"
    client.force_login(ann)
    ann_page = client.get(reverse("table", args=[three_five_seven.pk])).content.decode()
    result = ann_page[ann_page.index('class="stage-result"') :]
    result = result[: result.index("</ul>")]
    assert "ann: " in result and "ben: " in result  # both hands, named
    paid = [line for line in result.split("<li>") if " pays " in line]
    assert len(paid) == 1 and "$" in paid[0]
    client.force_login(cat)
    cat_page = client.get(reverse("table", args=[three_five_seven.pk])).content.decode()
    cat_result = cat_page[cat_page.index('class="stage-result"') :]
    cat_result = cat_result[: cat_result.index("</ul>")]
    assert " pays " in cat_result
    assert "ann: " not in cat_result and "ben: " not in cat_result  # a private comparison
