"""The replayer in a real browser: a finished Survivor hand stepped through with the → key to
its end, the caption read out and the stacks drawn as the ledger has them; Play and ← too; the
page fits a phone and passes axe."""

from __future__ import annotations

import pytest

from accounts.services import user_create
from cardroom.models import Hand
from cardroom.tables.runtime import table_act, table_create
from games.cards import DECK, parse_cards
from tests.cardroom.driving import play_to_declare
from tests.cardroom.history.hands import HANDS
from tests.e2e.accessibility import PHONE, overflow, serious_violations
from tests.e2e.players import PASSWORD, WAIT_MS
from tests.live import ARTIFACTS, live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_player_steps_through_a_hand_to_its_end(browser, monkeypatch):
    hands = [parse_cards(HANDS[name]) for name in ("ben", "cat", "ann")]
    order = [hand[turn] for turn in range(3) for hand in hands]
    deck = tuple(order) + tuple(card for card in DECK if card not in order)
    monkeypatch.setattr("cardroom.tables.runtime.shuffled_deck", lambda: deck)
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Replay table"
    )
    players = [user_create(username=name, password=PASSWORD) for name in ("ann", "ben", "cat")]
    for player in players:
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    play_to_declare(table, players)
    for player, choice in zip(players, ("in", "in", "out"), strict=True):
        table_act(table_id=table.pk, user=player, action={"kind": "declare", "choice": choice})
    assert Hand.objects.get(table=table, number=1).ended is not None

    with live_server("e2e-replayer") as url:
        page = browser.new_context(viewport=PHONE).new_page()
        page.goto(f"{url}/accounts/login/")
        page.fill("input[name=username]", "ann")
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit]")
        page.wait_for_url(lambda address: "/accounts/login/" not in address, timeout=WAIT_MS)
        page.goto(f"{url}/tables/{table.pk}/hands/1/")
        page.click("text=Replay the hand")
        page.wait_for_selector("[data-go=play]:not([hidden])", timeout=WAIT_MS)
        caption = page.locator("[data-caption]")
        assert caption.inner_text() == "The table before hand 1"
        assert caption.get_attribute("aria-live") == "polite"
        counter = page.inner_text("[data-counter]")
        total = int(counter.rsplit(" ", 1)[1])
        assert counter == f"Step 1 of {total}"

        page.keyboard.press("ArrowRight")
        assert caption.inner_text() == "Seat 0 (ann) antes $1.00"
        assert page.inner_text("li.seat.you [data-stack]") == "$199.00"
        for _ in range(total + 3):  # past the end: it stays on the last step
            page.keyboard.press("ArrowRight")
        assert page.inner_text("[data-counter]") == f"Step {total} of {total}"
        assert caption.inner_text() == (
            "In all: ann loses $4.00; ben wins $1.91; cat loses $1.00 (rake $0.09)"
        )
        assert page.inner_text("li.seat[data-seat='1'] [data-stack]") == "$201.91"
        assert page.inner_text("li.seat.you [data-stack]") == "$196.00"
        # Ann's own cards are drawn; Cat's mucked hand never reaches her page.
        drawn = set(page.eval_on_selector_all("svg[data-card]", "s => s.map(e => e.dataset.card)"))
        assert set(HANDS["ann"].split()) <= drawn
        assert not set(HANDS["cat"].split()) & drawn
        assert "step=" + str(total - 1) in page.url
        page.screenshot(path=str(ARTIFACTS / "replayer-end.png"), full_page=True)

        page.keyboard.press("ArrowLeft")
        assert page.inner_text("[data-counter]") == f"Step {total - 1} of {total}"
        page.keyboard.press("Home")
        page.click("[data-go=play]")
        assert page.get_attribute("[data-go=play]", "aria-pressed") == "true"
        page.wait_for_function(
            "document.querySelector('[data-counter]').textContent.startsWith('Step 3 ')",
            timeout=WAIT_MS,
        )
        page.click("[data-go=play]")
        assert page.get_attribute("[data-go=play]", "aria-pressed") == "false"
        assert serious_violations(page) == []
        assert overflow(page) == 0
