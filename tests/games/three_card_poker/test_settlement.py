"""Every row of the settlement table, the Ante bonus, Pair Plus and the dealer's qualification
(docs/rules/three-card-poker.md, "Settle"), played through the table with fixed decks."""

from __future__ import annotations

import pytest

from games.engine import Move
from games.three_card_poker.config import PayTables, TableConfig
from games.three_card_poker.events import DealerRevealed, HandEnded

from .helpers import Table, types

START = 10_000
ANTE = 100


def one_round(player: str, dealer: str, decision: str = "play", pair_plus: int = 0) -> Table:
    table = Table(START)
    table.round({0: (ANTE, pair_plus)}, {0: player}, dealer, {0: decision})
    return table


def results(table: Table) -> list[tuple[str, int]]:
    """(type, paid) of each bet-result event."""
    return [
        (event.to_json()["type"], event.to_json()["paid"])
        for event in table.events
        if "paid" in event.to_json()
    ]


def test_dealer_not_qualifying_pays_the_ante_and_returns_the_play() -> None:
    table = one_round("7c 5d 3h", "Jc Td 8s")
    assert results(table) == [("ante_won", 200), ("play_returned", 100)]
    assert table.stack(0) == START + ANTE


def test_better_hand_than_a_qualified_dealer_wins_ante_and_play() -> None:
    table = one_round("4c 4d 9h", "Kc Td 7s")
    assert results(table) == [("ante_won", 200), ("play_won", 200)]
    assert table.stack(0) == START + 2 * ANTE


def test_equal_hands_against_a_qualified_dealer_are_returned() -> None:
    table = one_round("Kc Td 7s", "Kh Ts 7d")
    assert results(table) == [("ante_returned", 100), ("play_returned", 100)]
    assert table.stack(0) == START


def test_dealer_better_takes_ante_and_play() -> None:
    table = one_round("Qc 9d 5s", "Ac 3d 2s")
    assert results(table) == [("ante_lost", 0), ("play_lost", 0)]
    assert table.stack(0) == START - 2 * ANTE


def test_folding_loses_the_ante_only() -> None:
    table = one_round("Qc 6d 3s", "2c 3d 5s", decision="fold")
    assert results(table) == [("ante_lost", 0)]
    assert table.stack(0) == START - ANTE


def test_money_moves_to_the_house_at_each_bet_and_back_at_settlement() -> None:
    table = one_round("4c 4d 9h", "Kc Td 7s", pair_plus=50)
    moves = [move for event in table.events for move in event.moves()]
    assert moves == [
        Move("bankroll:0", "stack:0", START),
        Move("stack:0", "house", ANTE),
        Move("stack:0", "house", 50),
        Move("stack:0", "house", ANTE),
        Move("house", "stack:0", 200),
        Move("house", "stack:0", 200),
        Move("house", "stack:0", 100),
    ]
    ended = [event for event in table.events if isinstance(event, HandEnded)]
    assert ended == [HandEnded(hand=1, results=((0, 250),), house=-250)]


@pytest.mark.parametrize(
    ("player", "bonus"),
    [("9c Td Js", 100), ("8c 8d 8s", 400), ("5h 6h 7h", 500), ("Ah 2c 3d", 100)],
)
def test_ante_bonus_paid_to_a_player_who_played(player: str, bonus: int) -> None:
    table = one_round(player, "2s 4d 6s")  # the dealer does not qualify
    assert results(table)[-1] == ("ante_bonus_won", bonus)
    assert table.stack(0) == START + ANTE + bonus


def test_ante_bonus_paid_even_when_the_dealer_wins() -> None:
    table = one_round("9c Td Js", "9h Th Jh")  # straight against a straight flush
    assert results(table) == [("ante_lost", 0), ("play_lost", 0), ("ante_bonus_won", 100)]
    assert table.stack(0) == START - 2 * ANTE + ANTE


def test_ante_bonus_not_paid_after_a_fold() -> None:
    table = one_round("8c 8d 8s", "2c 4d 6s", decision="fold")
    assert results(table) == [("ante_lost", 0)]
    assert table.stack(0) == START - ANTE


def test_no_ante_bonus_for_a_flush_or_a_pair() -> None:
    assert results(one_round("2h 9h Kh", "2c 4d 6s"))[-1] == ("play_returned", 100)
    assert results(one_round("Kc Kh 2d", "2c 4d 6s"))[-1] == ("play_returned", 100)


@pytest.mark.parametrize(
    ("player", "paid"),
    [
        ("4c 4d 9h", 50 * 2),
        ("2h 9h Kh", 50 * 5),
        ("9c Td Js", 50 * 7),
        ("8c 8d 8s", 50 * 31),
        ("5h 6h 7h", 50 * 41),
        ("Kc 9d 4h", 0),
    ],
)
def test_pair_plus_pays_by_the_players_hand_also_after_a_fold(player: str, paid: int) -> None:
    table = one_round(player, "As Ad Ac", decision="fold", pair_plus=50)
    outcome = "pair_plus_lost" if paid == 0 else "pair_plus_won"
    assert results(table) == [("ante_lost", 0), (outcome, paid)]
    assert table.stack(0) == START - ANTE - 50 + paid


def test_pair_plus_zero_payout_returns_the_bet() -> None:
    config = TableConfig(pay_tables=PayTables(pair_plus=(0, 4, 6, 30, 40)))
    table = Table(START, config=config)
    table.round({0: (ANTE, 50)}, {0: "4c 4d 9h"}, "2c 3d 5s", {0: "fold"})
    assert results(table) == [("ante_lost", 0), ("pair_plus_returned", 50)]


def test_changed_ante_bonus_table_pays_its_own_figures() -> None:
    config = TableConfig(pay_tables=PayTables(ante_bonus=(2, 3, 10)))
    table = Table(START, config=config)
    table.round({0: (ANTE, 0)}, {0: "5h 6h 7h"}, "2c 4d 6s", {0: "play"})
    assert results(table)[-1] == ("ante_bonus_won", 1000)


def dealer_revealed(table: Table) -> DealerRevealed:
    return next(event for event in table.events if isinstance(event, DealerRevealed))


def test_queen_high_with_the_lowest_kickers_qualifies() -> None:
    table = one_round("7c 5d 4h", "Qs 3d 2c")
    assert dealer_revealed(table).qualifies is True
    assert results(table) == [("ante_lost", 0), ("play_lost", 0)]


def test_queen_high_beaten_by_a_better_queen_pays_both_bets() -> None:
    table = one_round("Qc 4d 2h", "Qs 3d 2c")
    assert results(table) == [("ante_won", 200), ("play_won", 200)]


def test_jack_high_does_not_qualify() -> None:
    table = one_round("7c 5d 4h", "Js Td 8c")
    assert dealer_revealed(table).qualifies is False
    assert dealer_revealed(table).hand == "jack-high (J-T-8)"
    assert results(table) == [("ante_won", 200), ("play_returned", 100)]


def test_two_players_settle_independently() -> None:
    table = Table(START, START)
    events = table.round(
        {0: (ANTE, 0), 1: (200, 0)},
        {0: "Ac Kd 2h", 1: "3c 5d 7h"},
        "Kc Qd 9s",
        {0: "play", 1: "play"},
    )
    assert types(events)[-7:] == [
        "dealer_revealed",
        "ante_won",
        "play_won",
        "ante_lost",
        "play_lost",
        "hand_ended",
        "betting_opened",
    ]
    assert table.stack(0) == START + 200
    assert table.stack(1) == START - 400
    assert table.tally.balance["house"] == 200
