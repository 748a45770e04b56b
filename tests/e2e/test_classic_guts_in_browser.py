"""Two players in two browsers play a classic Guts hand (the Kitty: a ghost hand plays every
showdown), from the lobby to the settlement: whose turn it is, the house rules, the showdown.

The deck is the server's own shuffle, so what the page must show is read back from the hand's
stored events and result after the hand, and compared exactly.
"""

from __future__ import annotations

import pytest

from accounts.money import format_cents
from accounts.services import user_create
from cardroom.models import Hand
from cardroom.tables.runtime import table_create
from tests.e2e.players import (
    PASSWORD,
    WAIT_MS,
    Player,
    assert_ledger_balances,
    assert_no_foreign_cards,
    enter_table,
    hand_events,
    log_payments,
    sit,
)
from tests.live import ARTIFACTS, live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ("ann", "ben")
TABLE = "E2E Kitty"
#: Each player's seat on the page: they sit in turn, so in the seats' order.
SEAT = {name: f'#seats li.seat[data-seat="{number}"]' for number, name in enumerate(NAMES)}


def drawn(page, selector: str) -> list[str]:
    """The cards a region of the page draws, in order."""
    return [node.get_attribute("data-card") for node in page.query_selector_all(selector)]


def declare_in(players: list[Player], expected_turn: str) -> None:
    """The player whose turn every page names declares In; the others have no declare button."""
    for player in players:
        text = player.page.inner_text("#classic-table .turn")
        assert text == f"It is {expected_turn}'s turn to declare."
    for player in players:
        buttons = player.page.query_selector_all("form.action-declare button")
        if player.name == expected_turn:
            assert [b.inner_text() for b in buttons] == ["In I", "Out O"]
        else:
            assert buttons == []
    turn = next(player for player in players if player.name == expected_turn)
    turn.page.keyboard.press("i")


def test_two_players_play_a_classic_kitty_hand_in_the_browser(browser):
    table = table_create(
        game="classic_guts",
        preset="kitty",
        options={"ante": 100, "seats": 4, "showdown_seconds": 5, "decision_seconds": 20},
        name=TABLE,
    )
    for name in NAMES:
        user_create(username=name, password=PASSWORD)
    with live_server("e2e-classic") as url:
        players = [enter_table(browser, url, name, TABLE) for name in NAMES]
        for player in players:
            rules = player.page.inner_text("details.house-rules")
            for line in (
                "Ante $1.00.",
                "Pot limit $100.00; the excess waits in a reserve.",
                "A ghost hand plays every showdown; an In hand must beat it.",
                "When nobody is In, everyone antes again.",
                "Rake 3 % of each pot won, at most $3.00.",
            ):
                assert line in rules
            assert player.page.inner_text(".table-head .muted").startswith("Classic Guts · Kitty")
        for player in players:
            sit(player)

        # The first deal follows the pause; the seat left of the button declares first.
        for player in players:
            player.page.wait_for_selector("#classic-table .turn", timeout=WAIT_MS)
            assert len(player.page.query_selector_all("#you svg.card")) == 2
            assert player.page.inner_text("#table-status .phase") == "In or Out?"
            assert player.page.inner_text("#pot strong") == "$2.00"  # two antes of $1
        button_name = players[0].page.inner_text("#seats li:has(.dealer-button) .name")
        first, second = (NAMES[1], NAMES[0]) if button_name == NAMES[0] else NAMES
        declare_in(players, first)
        for player in players:
            player.page.wait_for_selector(f"#classic-table .turn >> text={second}", timeout=WAIT_MS)
            assert player.page.inner_text(f"{SEAT[first]} .choice") == "IN"
        declare_in(players, second)

        # The showdown: both hands and the ghost face up, the result in the log.
        marker = f'/tables/{table.pk}/hands/1/"'
        for player in players:
            player.page.wait_for_selector("#log .hand-number", timeout=WAIT_MS)
        seen = {
            player.name: {
                "ghost": drawn(player.page, "#classic-table .ghost svg.card"),
                "seats": {
                    name: drawn(player.page, f"{SEAT[name]} .hand-cards svg.card") for name in NAMES
                },
                "log": player.page.inner_text("#log li"),
                "phase": player.page.inner_text("#table-status .phase"),
            }
            for player in players
        }
        for player in players:
            player.page.screenshot(
                path=str(ARTIFACTS / f"classic-guts-{player.name}.png"), full_page=True
            )

    hand = Hand.objects.get(table=table, number=1)
    assert hand.ended is not None
    events = hand_events(hand)
    seat_of = {name: n for n, name in enumerate(NAMES)}
    table.refresh_from_db()
    seats = {s.user.username: s.number for s in table.seats.select_related("user")}
    assert seats == seat_of
    shown = {e["data"]["seat"]: e["data"]["cards"] for e in events if e["type"] == "hand_shown"}
    ghost = next(e["data"]["cards"] for e in events if e["type"] == "ghost_shown")
    for name in NAMES:
        assert seen[name]["phase"] == "Next hand shortly"
        assert seen[name]["ghost"] == ghost
        assert seen[name]["seats"] == {other: shown[seats[other]] for other in NAMES}
        assert seen[name]["log"] == expected_log_line(hand, NAMES)
    for player in players:
        assert_no_foreign_cards(player, seat_of[player.name], hand, marker)
    assert [e["data"]["choice"] for e in events if e["type"] == "declared"] == ["in", "in"]
    assert_ledger_balances()


def expected_log_line(hand: Hand, names: tuple[str, ...]) -> str:
    """The log's line for hand #1, as the page's template words it: who won, from the stored
    result, then the hand's other payments, from the ledger."""
    result = hand.result
    parts = ["#1"]
    parts += [f"{names[seat]} won {format_cents(amount)}" for seat, amount in result["winners"]]
    if not result["winners"]:
        parts.append("nobody stayed In; the pot carries")
    parts.append(log_payments(hand))
    return " ".join(part for part in parts if part)
