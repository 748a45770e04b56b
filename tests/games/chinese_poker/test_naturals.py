"""Naturals: detection of each clean sweep, and the rows shown for three straights/flushes."""

from __future__ import annotations

import pytest

from games.cards import format_cards, parse_cards
from games.chinese_poker.naturals import (
    NATURAL_VALUES,
    NATURALS,
    find_natural,
    makes_natural,
    natural_rank,
    natural_rows,
)
from games.evaluators import rows_in_order
from tests.games.chinese_poker.helpers import build_pair

EXAMPLES = {
    "thirteen_colors": "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As",
    "dragon": "2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac",
    "twelve_colors": "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Ah 2c",
    "trips_five_pairs": "2c 2d 2h 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d",
    "three_straights": "Ac 2d 3h 2s 3c 4d 5h 6s 9c Td Jh Qs Kc",
    "three_flushes": "2d 7d Kd 3c 5c 8c Tc Qc 4h 6h 9h Jh 2h",
    "six_pairs": "2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9h",
}


@pytest.mark.parametrize("name", NATURALS)
def test_each_natural_is_found_as_the_highest_it_makes(name: str) -> None:
    assert find_natural(parse_cards(EXAMPLES[name])) == name


def test_a_regular_hand_makes_no_natural() -> None:
    cards = parse_cards("As Ad Kc Kd Qh Jh 9s 8s 7d 5c 4c 3h 2d")
    assert find_natural(cards) is None
    assert not any(makes_natural(name, cards) for name in NATURALS)


def test_values_and_ranks_follow_the_rules_table() -> None:
    assert [NATURAL_VALUES[name] for name in NATURALS] == [13, 13, 8, 4, 4, 3, 3]
    assert [natural_rank(name) for name in NATURALS] == [1, 2, 3, 4, 5, 6, 7]


def test_thirteen_colors_is_also_a_dragon_and_a_claim_of_either_holds() -> None:
    cards = parse_cards(EXAMPLES["thirteen_colors"])
    assert makes_natural("dragon", cards)
    assert makes_natural("three_flushes", cards)
    assert not makes_natural("twelve_colors", cards)


def test_twelve_colors_needs_exactly_twelve_of_a_suit() -> None:
    eleven = parse_cards("2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qc Kc Ac")
    assert not makes_natural("twelve_colors", eleven)


def test_four_of_a_kind_counts_as_two_pairs() -> None:
    trips_quads = parse_cards("2c 2d 2h 3c 3d 3h 3s 5c 5d 6c 6d 7c 7d")
    six = parse_cards("2c 2d 2h 2s 3c 3d 4c 4d 5c 5d 6c 6d 9h")
    assert makes_natural("trips_five_pairs", trips_quads)
    assert makes_natural("six_pairs", six)
    assert find_natural(six) == "six_pairs"


def test_two_trips_are_not_trips_and_five_pairs() -> None:
    cards = parse_cards("2c 2d 2h 3c 3d 3h 5c 5d 6c 6d 7c 7d 9s")
    assert not makes_natural("trips_five_pairs", cards)
    assert not makes_natural("six_pairs", cards)


def test_three_straights_counts_a_three_card_front_straight_but_not_a_wrap() -> None:
    wheel_front = parse_cards("Ac 2d 3h 4s 5c 6d 7h 8s 9c Tc Jd Qh Kh")
    assert makes_natural("three_straights", wheel_front)
    wrap = parse_cards("Kc Ad 2h 3s 4c 5d 6h 7s 8c 9c Td Jh Qh")
    # K-A-2 wraps; the only other splits leave no straight front.
    assert find_natural(wrap) == "dragon"
    assert (
        natural_rows("three_straights", parse_cards("Kc Ad 2h 4s 5c 6d 7h 8s 9c Tc Jd Qh Kh"))
        is None
    )


def test_natural_rows_show_three_flushes_in_row_order() -> None:
    cards = parse_cards(EXAMPLES["three_flushes"])
    rows = natural_rows("three_flushes", cards)
    assert rows is not None
    front, middle, back = rows
    assert [format_cards(row) for row in rows] == ["Kd 7d 2d", "Jh 9h 6h 4h 2h", "Qc Tc 8c 5c 3c"]
    assert rows_in_order(front, middle, back)
    assert sorted(front + middle + back) == sorted(cards)
    assert all(len({card.suit for card in row}) == 1 for row in rows)


def test_natural_rows_split_a_suit_of_eight_into_a_back_and_a_front() -> None:
    cards = parse_cards("2d 4d 6d 8d Td Qd Kd Ad 3c 5c 7c 9c Jc")
    front, middle, back = natural_rows("three_flushes", cards) or ((), (), ())
    assert rows_in_order(front, middle, back)
    assert {card.suit for card in front} == {"d"}


def test_unknown_natural_name_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown natural 'flush'; naturals: thirteen_colors"):
        makes_natural("flush", parse_cards(EXAMPLES["dragon"]))


@pytest.mark.parametrize("first", NATURALS)
@pytest.mark.parametrize("second", NATURALS)
def test_test_builder_makes_each_pair_of_naturals_from_one_deck(first: str, second: str) -> None:
    one, two = build_pair(first, second)
    assert makes_natural(first, one) and makes_natural(second, two)
    assert len(set(one) | set(two)) == 26
