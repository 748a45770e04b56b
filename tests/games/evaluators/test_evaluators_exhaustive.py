"""Whole-table checks: every 2-, 3- and 5-card hand against the counts of
docs/rules/guts-classic.md, "Hand rankings"."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from games.cards import DECK
from games.evaluators import category_of, key_function, rank_hand

THREE_CARD_COUNTS = {
    "straight_flush": 48,
    "three_of_a_kind": 52,
    "straight": 720,
    "flush": 1_096,
    "pair": 3_744,
    "high_card": 16_440,
}
FIVE_CARD_COUNTS = {
    "straight_flush": 40,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "pair": 1_098_240,
    "high_card": 1_302_540,
}


def census(kind: str, size: int, **options: object) -> Counter[str]:
    key = key_function(kind, **options)
    return Counter(
        category_of(kind, key(hand), **options) for hand in combinations(range(52), size)
    )


def test_every_three_card_hand_gives_the_counts_of_the_rankings_page() -> None:
    assert census("three_card", 3) == THREE_CARD_COUNTS
    assert sum(THREE_CARD_COUNTS.values()) == 22_100


@pytest.mark.parametrize(
    "options",
    [{"trips_over_straight_flush": True}, {"flush_over_straight": True}],
)
def test_reordering_options_keep_the_three_card_counts(options: dict[str, bool]) -> None:
    assert census("three_card", 3, **options) == THREE_CARD_COUNTS


def test_without_three_card_straights_and_flushes_they_are_high_cards() -> None:
    expected = {"three_of_a_kind": 52, "pair": 3_744, "high_card": 18_304}
    assert census("three_card", 3, three_card_straights_flushes=False) == expected
    assert census("chinese_front", 3) == expected


def test_three_card_keys_are_distinct_per_rank_pattern() -> None:
    key = key_function("three_card")
    keys = {key(hand) for hand in combinations(range(52), 3)}
    # Of the 286 sets of three ranks, 12 are straights: 274 high cards, 12 straights, and as
    # many flushes and straight flushes; then 13 x 12 pairs and 13 trips.
    assert len(keys) == 274 + 12 + 274 + 12 + 156 + 13


def test_three_card_rank_hand_and_key_function_agree_on_every_hand() -> None:
    key = key_function("three_card")
    for hand in combinations(range(52), 3):
        assert rank_hand("three_card", [DECK[i] for i in hand]).key == key(hand)


def test_every_two_card_hand() -> None:
    assert census("two_card", 2) == {"pair": 78, "high_card": 1_248}
    assert census("two_card", 2, two_card_straights_flushes=True) == {
        "pair": 78,
        "straight_flush": 52,
        "straight": 156,
        "flush": 260,
        "high_card": 780,
    }


@pytest.mark.slow
def test_every_five_card_hand_gives_the_standard_counts_and_7462_values() -> None:
    key = key_function("five_card")
    counts: Counter[int] = Counter()
    for hand in combinations(range(52), 5):
        value = key(hand)
        counts[value] += 1
    keys = set(counts)
    by_category: Counter[str] = Counter()
    for value, count in counts.items():
        by_category[category_of("five_card", value)] += count
    assert by_category == FIVE_CARD_COUNTS
    assert len(keys) == 7_462
    royal = rank_hand("five_card", "As Ks Qs Js Ts").key
    assert counts[royal] == 4
