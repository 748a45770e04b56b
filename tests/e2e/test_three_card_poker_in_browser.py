"""Two players in two browsers play a round of Three Card Poker against the house: Ann bets an
Ante and a Pair Plus and plays, Ben bets an Ante and folds; both see the dealer's reveal and
each bet's result, and the table's pay tables with their exact house edges.

The deck is the server's own shuffle, so the results the page must show are read back from the
hand's stored events after the round, and compared exactly.
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
TABLE = "E2E Three Card"
#: Each player's row of the bets table: they sit in turn, so in the seats' order.
ROW = {name: f'table.tcp-bets tr[data-seat="{number}"]' for number, name in enumerate(NAMES)}
BET_NAMES = {"ante": "Ante", "play": "Play", "ante_bonus": "Ante bonus", "pair_plus": "Pair Plus"}
OUTCOMES = ("won", "returned", "lost")

#: The seed's pay tables, counted exactly over every player and dealer hand; the published
#: figures for these tables (3.37 % Ante and Play, 2.01 % of all money bet, Pair Plus
#: 2.32 %, play Q-6-4 or better) agree.
ODDS_LINES = (
    "House edge of Ante and Play, best strategy: 3.3730 % of the Ante (exactly 686689/20358520);"
    " 2.0147 % of all money bet.",
    "Best strategy: play queen-high (Q-6-4) or better, fold anything worse; it plays 67.42 % of"
    " hands.",
    "House edge of Pair Plus: 2.3167 % (exactly 128/5525).",
)
PAY_TABLES = (
    "Straight\t1 to 1",
    "Three of a kind\t4 to 1",
    "Straight flush\t5 to 1",
    "Pair\t1 to 1",
    "Flush\t4 to 1",
    "Three of a kind\t30 to 1",
    "Straight flush\t40 to 1",
)


def signed(cents: int) -> str:
    if cents > 0:
        return f"+{format_cents(cents)}"
    return f"−{format_cents(-cents)}" if cents < 0 else format_cents(0)


def expected_results(events: list[dict], seat: int) -> list[str]:
    """Each settled bet of a seat as the page words it, from the hand's result events."""
    lines = []
    for event in events:
        bet, _, outcome = event["type"].rpartition("_")
        if outcome not in OUTCOMES or bet not in BET_NAMES or event["data"]["seat"] != seat:
            continue
        stake, paid = event["data"]["stake"], event["data"]["paid"]
        net = paid - (0 if bet == "ante_bonus" else stake)
        lines.append(f"{BET_NAMES[bet]} {format_cents(stake)} {outcome} ({signed(net)})")
    return lines


def test_ann_plays_and_ben_folds_against_the_dealer_in_the_browser(browser):
    table = table_create(
        game="three_card_poker",
        preset="standard",
        options={"bet_seconds": 20, "decision_seconds": 20},
        name=TABLE,
    )
    for name in NAMES:
        user_create(username=name, password=PASSWORD)
    with live_server("e2e-three-card") as url:
        players = [enter_table(browser, url, name, TABLE) for name in NAMES]
        ann, ben = players
        for player in players:
            player.page.click("details.tcp-odds summary")
            odds = player.page.inner_text("details.tcp-odds")
            for line in ODDS_LINES + PAY_TABLES:
                assert line in odds
            assert "Ante $1.00 to $100.00; Pair Plus up to $100.00." in odds
        for player in players:
            sit(player)

        # Bets: Ann $5 Ante and $2 Pair Plus, Ben $5 Ante alone; the second bet closes betting.
        for player, pair_plus in ((ann, "2"), (ben, "0")):
            # Selectors, not element handles: a push may redraw the form around its inputs
            # (which keep what was typed) at any moment.
            player.page.wait_for_selector("form.tcp-bet-form", timeout=WAIT_MS)
            assert player.page.inner_text("form.tcp-bet-form .limits").startswith("$1.00 to")
            player.page.fill("form.tcp-bet-form input[name=ante]", "5")
            player.page.fill("form.tcp-bet-form input[name=pair_plus]", pair_plus)
            player.page.click("form.tcp-bet-form button[type=submit]")
            player.page.wait_for_selector(f"{ROW[player.name]} >> text=$5.00", timeout=WAIT_MS)

        # The deal: three cards each, the dealer's face down; Play (P) or Fold (F).
        for player in players:
            player.page.wait_for_selector("form.action-play button", timeout=WAIT_MS)
            assert player.page.inner_text("form.action-play button") == "Play $5.00 P"
            assert player.page.inner_text("form.action-fold button") == "Fold F"
            assert len(player.page.query_selector_all("#you svg.card")) == 3
            assert len(player.page.query_selector_all(".tcp-dealer svg.card.back")) == 3
            assert player.page.inner_text("#table-status .phase") == "Play or fold?"
        ann.page.keyboard.press("p")
        ben.page.keyboard.press("f")

        # The reveal: the dealer's cards face up, each bet's result and each player's net.
        seen = {}
        for player in players:
            player.page.wait_for_selector(".tcp-dealer svg.card:not(.back)", timeout=WAIT_MS)
            player.page.wait_for_selector(f"{ROW['ben']} .bet-net", timeout=WAIT_MS)
            seen[player.name] = {
                "dealer": [
                    node.get_attribute("data-card")
                    for node in player.page.query_selector_all(".tcp-dealer svg.card")
                ],
                "dealer_hand": player.page.inner_text(".tcp-dealer .hand-name"),
                "dealer_text": " ".join(player.page.inner_text(".tcp-dealer").split()),
                "results": {
                    name: [
                        node.inner_text()
                        for node in player.page.query_selector_all(f"{ROW[name]} .bet-result")
                    ]
                    for name in NAMES
                },
                "nets": {name: player.page.inner_text(f"{ROW[name]} .bet-net") for name in NAMES},
                "log": player.page.inner_text("#log li"),
                # Opened before the round, and kept open through every push since.
                "odds_open": player.page.get_attribute("details.tcp-odds", "open") is not None,
            }
            player.page.screenshot(
                path=str(ARTIFACTS / f"three-card-poker-{player.name}.png"), full_page=True
            )

    hand = Hand.objects.get(table=table, number=1)
    assert hand.ended is not None
    events = hand_events(hand)
    revealed = next(e["data"] for e in events if e["type"] == "dealer_revealed")
    nets = {item["seat"]: item["net"] for item in hand.result["results"]}
    qualifies = (
        "qualifies"
        if revealed["qualifies"]
        else "does not qualify (Ante paid 1 to 1, Play returned)"
    )
    for name in NAMES:
        assert seen[name]["dealer"] == revealed["cards"]
        assert seen[name]["dealer_hand"] == revealed["hand"]
        assert seen[name]["dealer_text"].endswith(f" {revealed['hand']} · {qualifies}")
        assert seen[name]["results"] == {
            other: expected_results(events, seat) for seat, other in enumerate(NAMES)
        }
        assert seen[name]["nets"] == {
            other: f"net {signed(nets[seat])}" for seat, other in enumerate(NAMES)
        }
        log = " ".join(
            f"{other} {'won' if nets[seat] > 0 else 'lost'} {format_cents(abs(nets[seat]))}"
            for seat, other in enumerate(NAMES)
            if nets[seat]
        )
        assert seen[name]["log"] == f"#1 {log} {log_payments(hand)}"
        assert seen[name]["odds_open"]
    # Ann played with a Pair Plus; Ben folded, losing his Ante and nothing else.
    assert seen["ann"]["results"]["ann"][0].startswith("Ante $5.00 ")
    assert seen["ann"]["results"]["ann"][1].startswith("Play $5.00 ")
    assert any(line.startswith("Pair Plus $2.00 ") for line in seen["ann"]["results"]["ann"])
    assert seen["ann"]["results"]["ben"] == ["Ante $5.00 lost (−$5.00)"]
    for seat, player in enumerate(players):
        assert_no_foreign_cards(player, seat, hand, f'/tables/{table.pk}/hands/1/"')
    assert_ledger_balances()
