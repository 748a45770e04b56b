"""Exact odds (docs/rules/three-card-poker.md, "Figures"), checked against an independent count.

The independent count here is written plainly: player hands are grouped by the smallest of
their 24 suit relabellings, and for each group every dealer hand of the 49 other cards is
compared, one by one, with ``rank_hand`` values.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations, permutations

import pytest

from games.cards import DECK, parse_cards
from games.engine import ConfigError
from games.evaluators import HandValue, rank_hand
from games.three_card_poker.config import PayTables
from games.three_card_poker.odds import decimal_text, exact_odds, should_play

SEED_EDGE = Fraction(686689, 20358520)


def test_seed_tables_give_the_known_figures() -> None:
    odds = exact_odds()
    assert odds.ante_play_house_edge == SEED_EDGE
    assert decimal_text(odds.ante_play_house_edge) == "0.0337298094"
    assert decimal_text(odds.element_of_risk) == "0.0201467240"
    assert odds.pair_plus_house_edge == Fraction(512, 22100)
    assert odds.dealer_qualifies == Fraction(22100 - 6720, 22100)
    assert odds.play_probability == Fraction(149, 221)
    threshold = odds.play_threshold
    assert (threshold.text, threshold.hand, threshold.monotone) == (
        "Q 6 4",
        "queen-high (Q-6-4)",
        True,
    )


def test_the_json_gives_each_figure_as_a_fraction_and_a_decimal() -> None:
    data = exact_odds(pair_plus=(1, 3, 6, 30, 40)).to_json()
    assert data["pair_plus_house_edge"] == {"fraction": "402/5525", "decimal": "0.0727601810"}
    assert data["ante_play_house_edge"]["fraction"] == "686689/20358520"
    assert data["play_threshold"]["text"] == "Q 6 4"


def test_should_play_follows_the_threshold() -> None:
    for text, play in [
        ("Qs 6d 4c", True),
        ("Qs 6d 3c", False),
        ("Qs 7d 2c", True),
        ("Jh Td 9c", True),
        ("Js Td 8c", False),
        ("2c 2d 3h", True),
    ]:
        assert should_play(parse_cards(text)) is play, text


def test_a_huge_straight_bonus_changes_the_strategy() -> None:
    tables = PayTables(ante_bonus=(100, 4, 5))
    assert should_play(parse_cards("4c 3d 2h"), tables) is True
    assert should_play(parse_cards("4c 3d 2h")) is True  # a straight is always worth playing
    assert exact_odds(ante_bonus=(100, 4, 5)).ante_play_house_edge < 0


def test_bad_pay_tables_are_refused_with_the_valid_shape() -> None:
    with pytest.raises(ConfigError, match="ante_bonus needs 3 whole payouts"):
        exact_odds(ante_bonus=(1, 4))
    with pytest.raises(ConfigError, match="such as 1,4,6,30,40"):
        exact_odds(pair_plus=(1, 4, 6, 30, -40))


def test_results_are_cached_per_pay_table() -> None:
    assert exact_odds(pair_plus=(1, 4, 6, 30, 40)) is exact_odds()
    assert exact_odds(pair_plus=(2, 4, 6, 30, 40)) is not exact_odds()


BONUS = ("straight", "three_of_a_kind", "straight_flush")
CATEGORIES = ("pair", "flush", "straight", "three_of_a_kind", "straight_flush")


def slow_odds(ante_bonus: tuple[int, ...], pair_plus: tuple[int, ...]) -> dict[str, Fraction]:
    """The figures counted plainly (module docstring)."""
    value: dict[tuple[int, ...], HandValue] = {
        hand: rank_hand("three_card", [DECK[i] for i in hand])
        for hand in combinations(range(52), 3)
    }
    # Plain ints (a bit mask of the cards, the value's key) keep the inner loop quick.
    dealers = [(1 << a | 1 << b | 1 << c, value[a, b, c].key) for a, b, c in value]
    queen = rank_hand("three_card", parse_cards("Qh 3s 2d")).key
    groups: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
    for hand in value:
        smallest = min(
            tuple(sorted(card - card % 4 + suits[card % 4] for card in hand))
            for suits in permutations(range(4))
        )
        groups.setdefault(smallest, []).append(hand)
    total = Fraction(0)
    played = 0
    pair_plus_total = Fraction(0)
    for members in groups.values():
        player = members[0]
        mine = value[player].key
        held = sum(1 << card for card in player)
        result = 0
        for cards, theirs in dealers:
            if cards & held:
                continue
            if theirs < queen:
                result += 1
            elif mine > theirs:
                result += 2
            elif mine < theirs:
                result -= 2
        category = value[player].category
        bonus = ante_bonus[BONUS.index(category)] if category in BONUS else 0
        play = Fraction(result, 18424) + bonus
        if play >= -1:
            played += len(members)
        total += len(members) * max(play, Fraction(-1))
        pays = pair_plus[CATEGORIES.index(category)] if category in CATEGORIES else -1
        pair_plus_total += len(members) * pays
    edge = -total / 22100
    return {
        "edge": edge,
        "risk": edge / (1 + Fraction(played, 22100)),
        "pair_plus": -pair_plus_total / 22100,
    }


def test_changed_pay_tables_match_an_independent_slow_count() -> None:
    ante_bonus, pair_plus = (2, 3, 6), (1, 3, 5, 25, 50)
    slow = slow_odds(ante_bonus, pair_plus)
    odds = exact_odds(ante_bonus=ante_bonus, pair_plus=pair_plus)
    assert odds.ante_play_house_edge == slow["edge"]
    assert odds.element_of_risk == slow["risk"]
    assert odds.pair_plus_house_edge == slow["pair_plus"]


def test_should_play_needs_three_different_cards() -> None:
    with pytest.raises(ValueError, match="three different cards"):
        should_play(parse_cards("As Kd"))
    with pytest.raises(ValueError, match="three different cards"):
        should_play(parse_cards("As As Kd", allow_repeats=True))
