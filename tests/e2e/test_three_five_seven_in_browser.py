"""Three players in three browsers play stage 1 of a Three-Five-Seven deal (issue 10): the page
names the stage and its direction in words, every seat shows its legs, and the comparison of
the two players In is private: they see each other's cards, the player Out never does (not on
the page, not in any frame the table's socket pushed). Then stage 2 is dealt and the page says so.

The deck is the server's own shuffle, so the cards the pages must (or must not) show are read
back from the hand's stored events and compared exactly.
"""

from __future__ import annotations

from typing import Any

import pytest

from accounts.services import user_create
from cardroom.models import Hand, HandEvent, Seat
from cardroom.tables.runtime import table_create
from tests.e2e.players import (
    PASSWORD,
    WAIT_MS,
    Player,
    assert_ledger_balances,
    cards_shown,
    enter_table,
    private_cards,
    sit,
)
from tests.live import ARTIFACTS, live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ("ann", "ben", "cat")
CHOICES = {"ann": "in", "ben": "in", "cat": "out"}
TABLE = "E2E Three-Five-Seven"
STAGE_ONE = (
    "Deal 1, stage 1 of 3: three cards, threes wild, high. This deal plays HIGH. "
    "3 legs take the pot."
)
STAGE_TWO = (
    "Deal 1, stage 2 of 3: five cards, fives wild, high. This deal plays HIGH. 3 legs take the pot."
)


def seat_selector(number: int) -> str:
    return f'#seats li.seat[data-seat="{number}"]'


def faces(page: Any, selector: str) -> list[str]:
    """The card faces a region of the page draws, in order (face-down backs carry none)."""
    return [node.get_attribute("data-card") for node in page.query_selector_all(selector)]


def wait_for_stage(players: list[Player], number: int) -> None:
    """Every page is at the declare of stage ``number``."""
    for player in players:
        player.page.wait_for_selector(
            f"#classic-table .stage >> text=stage {number} of 3", timeout=WAIT_MS
        )
        player.page.wait_for_selector('#table-status[data-phase="declare"]', timeout=WAIT_MS)


def test_three_players_play_a_private_three_five_seven_comparison_in_the_browser(browser):
    table = table_create(
        game="classic_guts",
        preset="three_five_seven",
        # the stage's result shows for showdown_seconds: long enough to read three pages
        options={"ante": 100, "seats": 4, "showdown_seconds": 5, "decision_seconds": 20},
        name=TABLE,
    )
    for name in NAMES:
        user_create(username=name, password=PASSWORD)
    with live_server("e2e-357") as url:
        players = [enter_table(browser, url, name, TABLE) for name in NAMES]
        by_name = {player.name: player for player in players}
        for player in players:
            assert "Stages of three, five and seven cards" in player.page.inner_text(
                "details.house-rules"
            )
        # The deal waits a pause after the second player sits: the third sits within it.
        for player in players:
            sit(player)
        seat_of = {
            seat.user.username: seat.number
            for seat in Seat.objects.filter(table=table, left__isnull=True).select_related("user")
        }
        assert sorted(seat_of) == sorted(NAMES)
        seat = {name: seat_selector(number) for name, number in seat_of.items()}

        # Stage 1's declare: the stage and its direction in words, 0 legs by every seat.
        wait_for_stage(players, 1)
        for player in players:
            page = player.page
            assert page.inner_text("#classic-table .stage") == STAGE_ONE
            assert page.inner_text("#table-status .phase") == "In or Out?"
            assert len(faces(page, "#you svg.card[data-card]")) == 3
            for name in NAMES:
                assert page.inner_text(f"{seat[name]} .marks") == "0 legs"
                if name != player.name:
                    assert faces(page, f"{seat[name]} .hand-cards svg.card[data-card]") == []
                    assert len(page.query_selector_all(f"{seat[name]} svg.card.back")) == 3
            buttons = page.query_selector_all("form.action-declare button")
            assert [button.inner_text() for button in buttons] == ["In I", "Out O"]

        # The declare is at once: each presses a key; only the last one ends the stage.
        for player in players:
            player.page.keyboard.press(CHOICES[player.name][0])
            own = f"{seat[player.name]} .choice"
            player.page.wait_for_selector(own, timeout=WAIT_MS)
            assert player.page.inner_text(own) == CHOICES[player.name].upper()

        # The private comparison: while the stage's result shows, read every page.
        cards_seen: dict[str, dict[str, list[str]]] = {}
        choices_seen: dict[str, list[str]] = {}
        for player in players:
            player.page.wait_for_selector('#table-status[data-phase="stage_over"]', timeout=WAIT_MS)
            cards_seen[player.name] = {
                name: faces(player.page, f"{seat[name]} .hand-cards svg.card[data-card]")
                for name in NAMES
                if name != player.name
            }
            choices_seen[player.name] = [
                player.page.inner_text(f"{seat[name]} .choice") for name in NAMES
            ]
        for player in players:
            player.page.screenshot(path=str(ARTIFACTS / f"357-{player.name}.png"), full_page=True)

        # Stage 2: two more cards each, and the page says so.
        wait_for_stage(players, 2)
        for player in players:
            page = player.page
            assert page.inner_text("#classic-table .stage") == STAGE_TWO
            assert len(faces(page, "#you svg.card[data-card]")) == 5
            for name in NAMES:
                assert page.inner_text(f"{seat[name]} .marks") == "0 legs"
                if name != player.name:
                    assert faces(page, f"{seat[name]} .hand-cards svg.card[data-card]") == []

    hand = Hand.objects.get(table=table, number=1)
    assert hand.ended is None  # the deal goes on to stage 3
    shown = {
        event.data["seat"]: (event.data["cards"], sorted(event.audience))
        for event in HandEvent.objects.filter(hand=hand, type="hand_shown_privately")
    }
    ins = sorted(seat_of[name] for name in NAMES if CHOICES[name] == "in")
    assert {number: audience for number, (_, audience) in shown.items()} == dict.fromkeys(ins, ins)
    for name in NAMES:
        assert choices_seen[name] == ["IN", "IN", "OUT"]
    assert cards_seen["ann"] == {"ben": shown[seat_of["ben"]][0], "cat": []}
    assert cards_seen["ben"] == {"ann": shown[seat_of["ann"]][0], "cat": []}
    assert cards_seen["cat"] == {"ann": [], "ben": []}

    # Every frame: the player Out never received a card of a player In (their stage 1 and
    # stage 2 cards alike); each player In did receive the other's stage 1 cards.
    owners = private_cards(hand)
    in_cards = owners[seat_of["ann"]] | owners[seat_of["ben"]]
    assert len(in_cards) == 10
    out = by_name["cat"]
    assert out.frames
    for frame in out.frames:
        leaked = cards_shown(frame) & in_cards
        assert not leaked, f"cat was sent {sorted(leaked)}"
    for name, other in (("ann", "ben"), ("ben", "ann")):
        received = set().union(*(cards_shown(frame) for frame in by_name[name].frames))
        assert set(shown[seat_of[other]][0]) <= received
    assert_ledger_balances()
