"""Every ordering rule of docs/rules/guts-classic.md, "Hand rankings", each option, wild cards
and the public contract."""

from __future__ import annotations

from itertools import pairwise

import pytest

from games.cards import parse_cards
from games.evaluators import (
    CATEGORIES,
    EvaluatorError,
    HandValue,
    category_of,
    key_function,
    rank_hand,
    row_at_least,
    rows_in_order,
    three_card_table,
    value_of,
)


def ranked(kind: str, *hands: str, **options: object) -> list[HandValue]:
    return [rank_hand(kind, hand, **options) for hand in hands]


def assert_strictly_better(kind: str, *hands: str, **options: object) -> None:
    """Each hand beats the next one."""
    values = ranked(kind, *hands, **options)
    for better, worse in pairwise(values):
        assert better > worse, (str(better), str(worse))


# --- the value object -------------------------------------------------------------------


def test_hand_value_is_ordered_hashable_and_frozen() -> None:
    a, b, c = ranked("three_card", "Ac Ad Kh", "As Ah Ks", "Kc Kd Ah")
    assert a == b and hash(a) == hash(b) and a is b
    assert a > c and c < a and a >= b and a <= b
    assert max([c, a]) is a
    with pytest.raises(AttributeError):
        a.key = 0  # type: ignore[misc]


def test_hand_value_round_trips_through_its_key() -> None:
    value = rank_hand("five_card", "Kc Kd Ks 9h 9c")
    assert HandValue.from_key("five_card", value.key) == value
    assert value_of("five_card", value.key) is value
    assert category_of("five_card", value.key) == "full_house"
    assert str(HandValue.from_key("five_card", value.key)) == "full house, kings full of nines"


@pytest.mark.parametrize(
    ("kind", "cards", "options", "text"),
    [
        ("three_card", "9c 9d Kh", {}, "pair of nines, king kicker"),
        ("three_card", "Qh Jh Tc", {}, "straight, Q-high"),
        ("three_card", "3h 2h Ah", {}, "straight flush, 3-high"),
        ("three_card", "7c 7d 7h", {}, "three sevens"),
        ("three_card", "Ah 9h 4h", {}, "flush, ace-high (A-9-4)"),
        ("three_card", "Kh 9c 4h", {}, "king-high (K-9-4)"),
        ("five_card", "As Ks Qs Js Ts", {}, "royal flush"),
        ("five_card", "6s 5s 4s 3s 2s", {}, "straight flush, 6-high"),
        ("five_card", "Jc Jd Jh Js 2s", {}, "four jacks, two kicker"),
        ("five_card", "6c 6d Ah Ks 2s", {}, "pair of sixes, A-K-2 kickers"),
        ("five_card", "6c 6d Ah As 2s", {}, "two pair, aces and sixes, two kicker"),
        ("five_card", "5c 4d 3h 2s As", {}, "straight, 5-high"),
        ("five_card", "2c 2d 2h Ad As", {"wild_ranks": "2"}, "five aces"),
        ("five_card", "2c 2d 2h Ks As", {"wild_ranks": "2"}, "royal flush"),
        ("one_card", "Qh", {}, "queen of hearts"),
        ("two_card", "3c 2d", {"royal_crumpler": True}, "royal crumpler (3-2)"),
        ("two_card", "Ac Kd", {}, "ace-high (A-K)"),
        ("low_napalm", "7c 5d 4h 3s 2s", {}, "seven-high (7-5-4-3-2) (low)"),
        ("low_nuts", "Ac 2d", {}, "two-high (2-A) (low)"),
        ("chinese_front", "Qh Jh Th", {}, "queen-high (Q-J-T)"),
    ],
)
def test_descriptions_read_like_a_dealer(
    kind: str, cards: str, options: dict[str, object], text: str
) -> None:
    assert str(rank_hand(kind, cards, **options)) == text


# --- one, two and three cards --------------------------------------------------------------


def test_one_card_suits_break_ties_clubs_diamonds_hearts_spades() -> None:
    assert_strictly_better("one_card", "As", "Ah", "Ad", "Ac", "Ks", "2s", "2c")


def test_two_card_pairs_then_high_cards_down_to_three_two() -> None:
    assert_strictly_better("two_card", "Ac As", "Kc Ks", "2c 2d", "Ac Kd", "Ac 2d", "Kc Qd")
    assert_strictly_better("two_card", "4c 2d", "3c 2d")
    assert rank_hand("two_card", "Ac Kd") == rank_hand("two_card", "Ah Ks")


def test_two_card_default_has_no_straights_or_flushes() -> None:
    assert rank_hand("two_card", "Kh Qh").category == "high_card"
    assert rank_hand("two_card", "Ac Kd") > rank_hand("two_card", "Kh Qh")


def test_two_card_straights_flushes_sit_between_pairs_and_high_cards() -> None:
    option = {"two_card_straights_flushes": True}
    assert_strictly_better(
        "two_card", "2c 2d", "Kh Qh", "Ac Kd", "Ah 2d", "Ah Jh", "Ac Jd", **option
    )
    categories = [v.category for v in ranked("two_card", "Kh Qh", "Ac Kd", "Ah Jh", **option)]
    assert categories == ["straight_flush", "straight", "flush"]


def test_two_card_ace_two_is_the_lowest_straight() -> None:
    option = {"two_card_straights_flushes": True}
    assert_strictly_better("two_card", "3c 2d", "Ac 2d", "Ac Qd", **option)
    assert rank_hand("two_card", "Ac 2d", **option).category == "straight"


def test_royal_crumpler_beats_aces_and_nothing_else_changes() -> None:
    option = {"royal_crumpler": True}
    assert_strictly_better("two_card", "3c 2d", "Ac Ad", "Kc Kd", "Ac Kd", "4c 2d", **option)
    crumpler = rank_hand("two_card", "3h 2h", royal_crumpler=True)
    assert crumpler.category == "high_card"
    assert rank_hand("two_card", "3h 2h", royal_crumpler=True, two_card_straights_flushes=True) == (
        crumpler
    )


def test_three_card_default_order_of_categories() -> None:
    assert_strictly_better(
        "three_card", "Qh Jh Th", "2c 2d 2h", "Ac Kd Qh", "Ah 9h 4h", "Ac Ad 2h", "Ac Kd Jh"
    )


def test_three_card_straights_from_ace_king_queen_down_to_ace_two_three() -> None:
    assert_strictly_better("three_card", "Ac Kd Qh", "Kc Qd Jh", "4c 3d 2h", "Ac 2d 3h")
    assert rank_hand("three_card", "Ac 2d 3h").category == "straight"
    assert rank_hand("three_card", "Kc Ad 2h").category == "high_card"


def test_three_card_ties_pair_then_odd_card_flush_and_high_card_card_by_card() -> None:
    assert_strictly_better("three_card", "9c 9d Kh", "9h 9s Qh", "8c 8d Ah")
    assert_strictly_better("three_card", "Ah Kh 4h", "Ac Qc Jc", "Ac Qc Tc")
    assert_strictly_better("three_card", "Ah Kd 4h", "Ac Qd Jc", "Ac Qd Tc")
    assert rank_hand("three_card", "9c 9d Kh") == rank_hand("three_card", "9h 9s Ks")


def test_trips_over_straight_flush_option() -> None:
    option = {"trips_over_straight_flush": True}
    assert_strictly_better("three_card", "2c 2d 2h", "Qh Jh Th", "Ac Kd Qh", **option)


def test_flush_over_straight_option() -> None:
    option = {"flush_over_straight": True}
    assert_strictly_better("three_card", "Ac Ad Ah", "5h 9h 4h", "Ac Kd Qh", "Ac Ad Kh", **option)


def test_no_three_card_straights_or_flushes_option() -> None:
    option = {"three_card_straights_flushes": False}
    assert_strictly_better("three_card", "2c 2d 2h", "2c 2d 3h", "Ac Kd 2h", "Kh Qh Jh", **option)
    categories = {v.category for v in ranked("three_card", "Kh Qh Jh", "Kh 9h 4h", **option)}
    assert categories == {"high_card"}


def test_three_card_table_matches_the_key_function_in_any_card_order() -> None:
    table = three_card_table()
    key = key_function("three_card")
    for a, b, c in [(0, 5, 51), (51, 0, 5), (5, 51, 0), (12, 13, 14)]:
        assert table[a << 12 | b << 6 | c] == key([a, b, c]) == key([c, a, b])


# --- wild cards ---------------------------------------------------------------------------


def test_wild_with_four_aces_is_five_aces_above_four_kings_and_straight_flushes() -> None:
    wild = {"wild_ranks": "2"}
    assert_strictly_better(
        "best_five", "2c Ac Ad Ah As", "Ks Qs Js Ts 9s", "Kc Kd Kh Ks Ac", "2d Kc Kd Kh 9s", **wild
    )
    assert rank_hand("five_card", "2c Ac Ad Ah As", **wild).category == "five_of_a_kind"


def test_a_wild_hand_compares_exactly_like_the_natural_hand_it_makes() -> None:
    wild = {"wild_ranks": "2"}
    assert rank_hand("five_card", "2c Kd Kh Ks Ac", **wild) == rank_hand(
        "five_card", "Kc Kd Kh Ks Ad"
    )
    assert rank_hand("three_card", "2c Kd Kh", **wild) == rank_hand("three_card", "Kc Kd Ks")
    assert rank_hand("three_card", "2c Kh Qh", **wild) == rank_hand("three_card", "Ah Kh Qh")


def test_a_wild_card_may_be_a_card_already_held() -> None:
    # Wild + As Ks Qs 9s: the best is a second ace of spades, an A-A-K-Q-9 flush.
    flush = rank_hand("five_card", "2c As Ks Qs 9s", wild_ranks="2")
    assert flush.category == "flush"
    assert flush > rank_hand("five_card", "As Ks Qs Js 9s")


def test_three_card_wild_trips_are_three_of_a_kind() -> None:
    assert rank_hand("three_card", "2c 2d 2h", wild_ranks="2") == rank_hand(
        "three_card", "Qs Ks As"
    )
    three_aces = rank_hand("three_card", "2c 2d 2h", wild_ranks="2", trips_over_straight_flush=True)
    assert str(three_aces) == "three aces"
    assert rank_hand("three_card", "2c 7d 7h", wild_ranks="2").category == "three_of_a_kind"


def test_several_wild_ranks() -> None:
    value = rank_hand("best_five", "3c 5d 7h Ks Kd 9c 4c", wild_ranks="357")
    assert str(value) == "five kings"


def test_stage_one_of_three_five_seven_threes_wild_no_straights_or_flushes() -> None:
    kind = "three_five_seven_stage_one"
    assert_strictly_better(kind, "3c Ad Ah", "Kc Kd Kh", "3c Ad 9h", "Kc Kd 9h", "Ah Kh Jh")
    assert rank_hand(kind, "Qh Jh Th").category == "high_card"
    assert rank_hand(kind, "3c 3d 3h").category == "three_of_a_kind"


# --- five and seven cards -----------------------------------------------------------------


def test_five_card_standard_order() -> None:
    assert_strictly_better(
        "five_card",
        "As Ks Qs Js Ts",
        "5c 4c 3c 2c Ac",
        "Kc Kd Kh Ks 2c",
        "Ac Ad Ah Kc Kd",
        "2c 2d 2h 3c 3d",
        "Ah 9h 4h 3h 2h",
        "Ac Kd Qh Js Tc",
        "5c 4d 3h 2s Ac",
        "Ac Ad Ah Kc Qd",
        "Ac Ad Kh Kc Qd",
        "Ac Ad Kh Kc Jd",
        "Ac Ad Kh Qc Jd",
        "Ac Kd Qh Jc 9d",
        "7c 5d 4h 3s 2c",
    )


def test_best_five_of_six_and_seven() -> None:
    assert str(rank_hand("best_five", "Ah Kh 2h 7h 9h 9c 9d")) == "flush, ace-high (A-K-9-7-2)"
    assert str(rank_hand("best_five", "9h 9s 9c 4d 4c 2h")) == "full house, nines full of fours"
    assert rank_hand("best_five", "Ac Kd Qh Js Tc 2c") == rank_hand("five_card", "Ac Kd Qh Js Tc")


def test_low_nuts_pairs_are_strong_lower_pair_wins_aces_low() -> None:
    assert_strictly_better("low_nuts", "Ac Ad", "2c 2d", "Kc Kd", "2c Ad", "3c Ad", "Kc Qd")
    assert_strictly_better("low_nuts", "2c 2d 3h", "2c 2d 4h", "3c 3d 2h")


def test_low_napalm_best_is_seven_five_four_three_two_aces_high_pairs_bad() -> None:
    assert_strictly_better(
        "low_napalm",
        "7c 5d 4h 3s 2c",
        "7c 6d 4h 3s 2c",
        "8c 5d 4h 3s 2c",
        "Ac 5d 4h 3s 2c",
        "2c 2d 4h 5s 6c",
        "6c 5d 4h 3s 2c",
        "7h 5h 4h 3h 2h",
    )


def test_chinese_front_ranks_only_trips_pairs_and_high_cards() -> None:
    assert_strictly_better("chinese_front", "2c 2d 2h", "Ac Ad 2h", "Ac Kd 2h", "Kh Qh Jh")


# --- Chinese Poker rows -------------------------------------------------------------------


def test_row_order_equal_by_rank_is_not_a_foul() -> None:
    assert row_at_least("9c 9d Ks 8h 4c", "9s 9h Kd")
    assert row_at_least("Ac Kd Qh Js 9c", "Ah Kc Qd")
    assert not row_at_least("9c 9d Qs 8h 4c", "9s 9h Kd")


def test_row_order_same_straights_ordered_by_the_suit_of_their_top_card() -> None:
    assert row_at_least("5s 4c 3c 2c Ac", "5h 4d 3d 2d Ad")
    assert not row_at_least("5h 4d 3d 2d Ad", "5s 4c 3c 2c Ac")
    assert row_at_least("Ks 9s 7s 4s 2s", "Kh 9h 7h 4h 2h")
    assert not row_at_least("Kc 9c 7c 4c 2c", "Kd 9d 7d 4d 2d")


def test_rows_in_order() -> None:
    assert rows_in_order("2c 3d 5h", "Ac Ad Kc Qd 9h", "Kh Ks 3s 3h 4c")
    assert not rows_in_order("2c 3d 5h", "Kh Ks 3s 3h 4c", "Ac Ad Kc Qd 9h")
    assert not rows_in_order("Qc Qd 5h", "Jc Jd Ac Kd 9h", "Kh Ks 3s 3h 4c")


# --- errors -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "cards", "options", "message"),
    [
        ("four_card", "As Ks Qs Js", {}, "unknown kind 'four_card'; kinds: one_card, two_card"),
        ("three_card", "As Ks", {}, "three_card takes 3 cards, not 2"),
        ("best_five", "As Ks Qs Js", {}, "best_five takes 5, 6 or 7 cards, not 4"),
        ("low_nuts", "As", {}, "low_nuts takes 2, 3, 4 or 5 cards, not 1"),
        ("three_card", "As Ks Qs", {"royal_crumpler": True}, "does not apply to three_card"),
        ("three_card", "As Ks Qs", {"wilds": "2"}, "unknown option 'wilds' for three_card"),
        ("three_card", "As Ks Qs", {"flush_over_straight": 1}, "is true or false, not 1"),
        ("five_card", "As Ks Qs Js Ts", {"wild_ranks": "X"}, "'X' is not a rank"),
        ("five_card", "As Ks Qs Js Ts", {"wild_ranks": 2}, "wild_ranks is a string of ranks"),
        ("low_napalm", "As Ks Qs Js Ts", {"wild_ranks": "2"}, "its options: none"),
    ],
)
def test_bad_kinds_options_and_card_counts_say_what_is_accepted(
    kind: str, cards: str, options: dict[str, object], message: str
) -> None:
    with pytest.raises(EvaluatorError) as caught:
        rank_hand(kind, cards, **options)
    assert message in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_key_function_checks_its_options_once() -> None:
    with pytest.raises(EvaluatorError, match="does not apply to five_card"):
        key_function("five_card", royal_crumpler=True)


def test_repeated_and_foreign_cards_are_refused() -> None:
    ace = parse_cards("As")[0]
    with pytest.raises(EvaluatorError, match="appears twice"):
        rank_hand("five_card", [ace, ace, *parse_cards("Kd Qd Jd")])
    with pytest.raises(EvaluatorError, match="appears twice"):
        rank_hand("five_card", [ace, ace, *parse_cards("Ks Qs Js")])
    with pytest.raises(EvaluatorError, match="appears twice"):
        rank_hand("best_five", [ace, ace, *parse_cards("Kd Qd Jd Td")])
    with pytest.raises(EvaluatorError, match="Card objects"):
        rank_hand("three_card", [1, 2, 3])  # type: ignore[list-item]
    with pytest.raises(EvaluatorError, match="not a card"):
        rank_hand("three_card", "As Ks Zz")


def test_category_names_are_the_contracts() -> None:
    assert CATEGORIES == (
        "high_card",
        "pair",
        "two_pair",
        "three_of_a_kind",
        "straight",
        "flush",
        "full_house",
        "four_of_a_kind",
        "straight_flush",
        "five_of_a_kind",
    )
