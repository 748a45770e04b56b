"""The best-arrangement solver: legal, complete, optimal for its objective, claims naturals."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import DECK, Card, parse_cards
from games.chinese_poker.naturals import NATURALS, find_natural
from games.chinese_poker.solver import best_arrangement, expected_units, rows_text
from games.evaluators import rows_in_order
from tests.games.chinese_poker.helpers import build_pair


def brute_force(cards: list[Card]) -> float:
    """The objective's best value over all 72,072 splits, the slow way."""
    best = float("-inf")
    for back in combinations(cards, 5):
        rest = [card for card in cards if card not in back]
        for middle in combinations(rest, 5):
            front = [card for card in rest if card not in middle]
            value = expected_units(front, middle, back)
            if value > best and rows_in_order(front, middle, back):
                best = value
    return best


@pytest.mark.parametrize(
    "text",
    [
        "As Ad Kc Kd Qh Jh 9s 8s 7d 5c 4c 3h 2d",
        "2c 7d 9h Js Kc 3d 5h 8s Tc Qd 4h 6s 2h",
    ],
)
def test_solver_finds_the_best_value_of_all_splits(text: str) -> None:
    cards = list(parse_cards(text))
    best = best_arrangement(cards)
    assert best.value == pytest.approx(brute_force(cards), abs=1e-12)


def test_solver_sets_a_straight_and_a_flush_in_order() -> None:
    best = best_arrangement(parse_cards("As Kd Qc Jh 9s 8s 7s 6s 2s 2d 3c 4h 5d"))
    assert best.natural is None
    assert rows_text(best) == ["Kd Qc Jh", "6s 5d 4h 3c 2d", "As 9s 8s 7s 2s"]


def test_solver_orders_equal_straights_by_the_suit_of_the_highest_card() -> None:
    cards = parse_cards("9s 8c 7d 6h 5c 9h 8s 7c 6d 5d 2c 3d 4h")
    best = best_arrangement(cards)
    assert rows_in_order(best.front, best.middle, best.back)
    assert [str(card) for card in best.back][:1] == ["9s"]


@pytest.mark.parametrize("name", NATURALS)
def test_solver_claims_each_natural(name: str) -> None:
    cards, _ = build_pair(name, name)
    best = best_arrangement(cards)
    assert best.natural == find_natural(cards)
    assert best.natural is not None
    assert rows_in_order(best.front, best.middle, best.back)


def test_solver_shows_three_flushes_in_their_rows() -> None:
    cards = parse_cards("2d 7d Kd 3c 5c 8c Tc Qc 4h 6h 9h Jh 2h")
    best = best_arrangement(cards)
    assert best.natural == "three_flushes"
    assert all(len({card.suit for card in row}) == 1 for row in best.rows)


def test_solver_rejects_a_wrong_hand() -> None:
    with pytest.raises(ValueError, match="13 cards, not 12"):
        best_arrangement(list(DECK[:12]))
    with pytest.raises(ValueError, match="appears twice"):
        best_arrangement([*DECK[:12], DECK[0]])


@settings(max_examples=60, deadline=None)
@given(st.permutations(DECK))
def test_solver_never_fouls_and_uses_exactly_the_13_cards(deck: list[Card]) -> None:
    cards = deck[:13]
    best = best_arrangement(cards)
    assert (len(best.front), len(best.middle), len(best.back)) == (3, 5, 5)
    assert sorted(best.front + best.middle + best.back) == sorted(cards)
    assert rows_in_order(best.front, best.middle, best.back)
    assert best.natural == find_natural(cards)
