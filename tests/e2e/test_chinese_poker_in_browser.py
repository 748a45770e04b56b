"""Two players in two browsers play a hand of Chinese Poker on the setting board: Ann swaps two
cards by clicking them, then asks the solver and takes its rows, submits, and sits out from
the next hand; Ben takes the solver's rows at once. Both see the reveal: every row of both
hands, the pair's score and the payments.

The deck is the server's own shuffle, so what the page must show is read back from the hand's
stored events after the hand, and compared exactly.
"""

from __future__ import annotations

import pytest

from accounts.money import format_cents
from accounts.services import user_create
from cardroom.models import Hand
from cardroom.tables.runtime import table_create
from games.cards import parse_cards
from games.evaluators import rank_hand, rows_in_order
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
TABLE = "E2E Chinese"
ROWS = ("front", "middle", "back")
UNSORTED = "Cards sorted by rank: arrange them, then submit."
IN_ORDER = "Rows in order."
FOUL = "Foul: the back must be at least as strong as the middle, and the middle as the front."
WAITING = "Your hand is set. Waiting for the others."
#: Whether each row of the board is what ``rows`` names, card for card.
BOARD_IS = """rows => Object.entries(rows).every(([name, cards]) =>
  Array.from(document.querySelectorAll(`#cp-board .cp-row[data-row="${name}"] button.cp-card`))
    .map(button => button.dataset.card).join(" ") === cards.join(" "))"""


def row_cards(page, scope: str) -> dict[str, list[str]]:
    """Each row's cards, in order, as drawn in ``scope`` (the board, the suggestion, a hand)."""
    return {
        row: [
            node.get_attribute("data-card")
            for node in page.query_selector_all(f'{scope} .cp-row[data-row="{row}"] svg.card')
        ]
        for row in ROWS
    }


def signed(units: int) -> str:
    return f"+{units}" if units > 0 else ("0" if units == 0 else f"−{-units}")


def foul_text(rows: dict[str, list[str]], *, placed: bool) -> str:
    """The board's line under the rows: the foul warning first, else whether they were set."""
    if not rows_in_order(*(parse_cards(rows[row]) for row in ROWS)):
        return FOUL
    return IN_ORDER if placed else UNSORTED


def version(page) -> int:
    """The table version the page last drew."""
    return int(page.get_attribute("#table-status", "data-version"))


def swap_two_cards(player: Player) -> None:
    """Click the front row's first card, then the back row's first: the board sends the new
    rows and the server redraws them, with the foul warning worked out on the server."""
    page = player.page
    before = row_cards(page, "#cp-board")
    assert page.inner_text("#game-board .cp-foul") == foul_text(before, placed=False)
    drawn = version(page)
    page.click('#cp-board .cp-row[data-row="front"] button.cp-card >> nth=0')
    assert (
        page.get_attribute("#cp-board button.cp-card[aria-pressed=true]", "data-card")
        == (before["front"][0])
    )
    page.click('#cp-board .cp-row[data-row="back"] button.cp-card >> nth=0')
    page.wait_for_function(
        f"Number(document.querySelector('#table-status').dataset.version) > {drawn}",
        timeout=WAIT_MS,
    )
    after = row_cards(page, "#cp-board")
    assert after["front"] == [before["back"][0], *before["front"][1:]]
    assert after["middle"] == before["middle"]
    assert after["back"] == [before["front"][0], *before["back"][1:]]
    assert page.inner_text("#game-board .cp-foul") == foul_text(after, placed=True)


def take_suggestion_and_submit(player: Player, then: str) -> dict[str, list[str]]:
    """Ask the solver, use its rows, submit them once the board shows them, and wait for
    ``then``: the others still setting, or the reveal after the last hand is in."""
    page = player.page
    page.click("#game-board button:has-text('Suggest an arrangement')")
    page.wait_for_selector("#cp-suggestion .cp-row", timeout=WAIT_MS)
    assert page.inner_text("#cp-suggestion h3") == "The solver suggests"
    suggested = row_cards(page, "#cp-suggestion")
    assert sorted(card for cards in suggested.values() for card in cards) == sorted(
        node.get_attribute("data-card") for node in page.query_selector_all("#cp-board svg.card")
    )
    page.click("#cp-suggestion button:has-text('Use these rows')")
    page.wait_for_function(BOARD_IS, arg=suggested, timeout=WAIT_MS)
    assert page.inner_text("#game-board .cp-foul") == IN_ORDER
    page.click("#game-board button:has-text('Submit these rows')")
    page.wait_for_selector(then, timeout=WAIT_MS)
    return suggested


def test_two_players_set_submit_and_see_the_reveal_in_the_browser(browser):
    table = table_create(
        game="chinese_poker",
        preset="unit-1",
        options={"seats": 2, "set_seconds": 60, "pause_seconds": 2},
        name=TABLE,
    )
    for name in NAMES:
        user_create(username=name, password=PASSWORD)
    with live_server("e2e-chinese") as url:
        players = [enter_table(browser, url, name, TABLE) for name in NAMES]
        ann, ben = players
        for player in players:
            assert player.page.inner_text(".cp-stakes") == "Unit $1.00 · hand fee $0.20"
            assert player.page.input_value("form.action-sit input[name=buy_in]") == "20"
        for player in players:
            sit(player)

        # The deal follows the pause: thirteen cards on each board, 3, 5 and 5.
        for player in players:
            player.page.wait_for_selector("#cp-board.editable", timeout=WAIT_MS)
            sizes = [len(cards) for cards in row_cards(player.page, "#cp-board").values()]
            assert sizes == [3, 5, 5]
            assert player.page.inner_text("#table-status .phase") == "Set your hand"
        # On a phone, Submit is on the first screen without scrolling.
        ann.page.set_viewport_size({"width": 390, "height": 844})
        ann.page.evaluate("window.scrollTo(0, 0)")
        submit = ann.page.locator("#game-board button:has-text('Submit these rows')")
        box = submit.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844, box
        assert box["height"] >= 44
        swap_two_cards(ann)
        suggested = {ann.name: take_suggestion_and_submit(ann, f"#game-board >> text={WAITING}")}
        # Ann sits out from the next hand, so after the pause the table waits and the reveal
        # stays on both pages (it shows until the next deal).
        ann.page.click("form.action-sit_out button")
        ann.page.wait_for_selector("form.action-sit_in button", timeout=WAIT_MS)
        suggested[ben.name] = take_suggestion_and_submit(ben, ".cp-reveal")

        # The reveal: both hands' rows, the pair's score, the payments.
        seen = {}
        for player in players:
            page = player.page
            page.wait_for_selector("#table-status[data-phase=waiting]", timeout=WAIT_MS)
            assert page.inner_text("#table-status .phase") == "Waiting for players"
            seen[player.name] = {
                "heading": page.inner_text(".cp-reveal h2"),
                "rows": {
                    name: row_cards(page, f'.cp-hand[data-seat="{seat}"]')
                    for seat, name in enumerate(NAMES)
                },
                "units": {
                    name: page.inner_text(f'.cp-hand[data-seat="{seat}"] .cp-units')
                    for seat, name in enumerate(NAMES)
                },
                "pairs": [node.inner_text() for node in page.query_selector_all(".cp-pairs li")],
                "payments": [
                    node.inner_text() for node in page.query_selector_all(".cp-payments li")
                ],
                "log": page.inner_text("#log li"),
            }
            page.screenshot(
                path=str(ARTIFACTS / f"chinese-poker-{player.name}.png"), full_page=True
            )

    hand = Hand.objects.get(table=table, number=1)
    assert hand.ended is not None
    events = hand_events(hand)
    units = {NAMES[int(seat)]: value for seat, value in hand.result["units"].items()}
    payments = [
        f"{NAMES[e['data']['payer']]} pays {NAMES[e['data']['winner']]} "
        f"{format_cents(e['data']['amount'])}"
        for e in events
        if e["type"] == "payment_made"
    ] or ["No money changed hands."]
    (pair,) = [e["data"] for e in events if e["type"] == "pair_scored"]
    (revealed,) = [e["data"]["hands"] for e in events if e["type"] == "hand_revealed"]
    # Both set the solver's rows: no foul, no natural declared, no surrender.
    assert pair["reason"] == "rows"
    pair_line = expected_pair_line(pair, {hand["seat"]: hand for hand in revealed})
    log_units = " ".join(
        f"{name} {signed(units[name])} unit{'s' if abs(units[name]) != 1 else ''}"
        for name in NAMES
        if units[name]
    )
    for name in NAMES:
        assert seen[name]["heading"] == "Hand #1"
        assert seen[name]["rows"] == suggested
        assert seen[name]["units"] == {other: f"{signed(units[other])} units" for other in NAMES}
        assert seen[name]["payments"] == payments
        assert seen[name]["pairs"] == [pair_line]
        assert (
            seen[name]["log"]
            == " ".join(
                ["#1", log_units or "all square: no units changed hands", log_payments(hand)]
            ).strip()
        )
    for seat, player in enumerate(players):
        assert_no_foreign_cards(player, seat, hand, f'/tables/{table.pk}/hands/1/"')
    assert sum(units.values()) == 0
    assert_ledger_balances()


def expected_pair_line(pair: dict, rows: dict[int, dict]) -> str:
    """The pair's line as the page words it, from the stored score and rows: a row won for
    more than one unit (a bonus) names the winning row's hand."""
    first, second = NAMES[pair["first"]], NAMES[pair["second"]]
    parts = []
    for row, units in zip(ROWS, pair["rows"], strict=True):
        part = f"{row} {signed(units)}"
        if abs(units) > 1:
            cards = parse_cards(rows[pair["first"] if units > 0 else pair["second"]][row])
            part += f" ({rank_hand('chinese_front' if row == 'front' else 'five_card', cards)})"
        parts.append(part)
    total = pair["total"]
    if total == 0:
        why = "rows split evenly: nothing changes hands"
    else:
        winner, payer = (first, second) if total > 0 else (second, first)
        count = abs(total)
        why = f"{winner} wins {count} unit{'s' if count != 1 else ''} from {payer}"
    return f"{first} v {second}: {', '.join(parts)} = {signed(total)} for {first}. {why}"
