"""Scoring between players and settlement with the table-stakes caps
(docs/rules/chinese-poker.md)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import DECK
from games.chinese_poker.naturals import NATURAL_VALUES, NATURALS, natural_rank
from games.chinese_poker.scoring import (
    PairScore,
    Payment,
    PlayerHand,
    resolve,
    row_bonus,
    score_hand,
    settle,
    settlement_order,
)
from games.chinese_poker.solver import best_arrangement
from tests.games.chinese_poker.helpers import SEED_TALLY, build_pair, hand, rows_of

REGULAR = hand("2c 3d 5h", "Kc Kd 9s 8s 7d", "Ac Ad 4c 4d 6h")  # no bonus rows
FOULED = hand("Qs Qh 2s", "Jc Jd 9c 8c 7c", "Th Td 3h 3c 6d")  # front pair over middle pair
FOULED_OTHER = hand("Ks Kh 2d", "Qc Qd 9d 8d 5d", "Ts Tc 4h 4s 6c")


def units(*hands: PlayerHand, button: int = 0) -> tuple[int, ...]:
    return score_hand(hands, [100_000] * len(hands), unit=100, button=button).units


def test_seed_four_player_tally() -> None:
    hands = [hand(*rows) for rows in SEED_TALLY.values()]
    result = score_hand(hands, [10_000] * 4, unit=100, button=0)
    assert result.units == (3, -7, 5, -1)
    assert [(p.first, p.second, p.rows, p.total) for p in result.pairs] == [
        (0, 1, (1, 1, 1), 3),
        (0, 2, (-1, -1, 1), -1),
        (0, 3, (1, 1, -1), 1),
        (1, 2, (-1, -1, -1), -3),
        (1, 3, (-1, 1, -1), -1),
        (2, 3, (1, 1, -1), 1),
    ]
    assert result.stacks == (10_300, 9_300, 10_500, 9_900)


@pytest.mark.parametrize(
    ("winner", "loser", "rows"),
    [
        pytest.param(
            ("7c 7d 7h", "9c Tc Jd Qd Kh", "2s 4s 6s 8s Ts"),
            ("5c 5d 3c", "9d Td Jc Qc Ks", "2h 4h 6h 8h Th"),
            (3, 0, 0),
            id="front-trips-3",
        ),
        pytest.param(
            ("2c 3d 5h", "Jc Jd Jh 5c 5d", "As Ks Qs Js Ts"),
            ("2d 3c 4h", "9c 9d 9h 4c 4d", "8c 8d 8h 8s Ac"),
            (1, 2, 7),
            id="middle-full-house-2-back-royal-7",
        ),
        pytest.param(
            ("2c 3d 5h", "Jc Jd Jh Js 4c", "9s 8s 7s 6s 5s"),
            ("2d 3c 4h", "Tc Td Th 3s 3h", "Ac Ad Ah 6c 6d"),
            (1, 8, 5),
            id="middle-quads-8-back-straight-flush-5",
        ),
        pytest.param(
            ("2c 3d 6c", "9h 8h 7h 6h 5h", "Ad Kd Qd Jd Td"),
            ("2d 3c 4h", "Kc Ks Kh 2s 2h", "Ac As Ah 7c 7d"),
            (1, 10, 7),
            id="middle-straight-flush-10",
        ),
        pytest.param(
            ("2c 3d 5h", "Ac Kc Qc Jc Tc", "As Ks Qs Js Ts"),
            ("2d 3c 4h", "9h 9d 9s 4d 4s", "8c 8d 8h 8s 2s"),
            (1, 14, 7),
            id="middle-royal-14",
        ),
        pytest.param(
            ("2c 3d 5h", "Ah Kh Qh 9h 8h", "7c 7d 7h 7s 4c"),
            ("2d 3c 4h", "Ac Kc Qc 9c 8c", "6c 6d 6h 6s 2s"),
            (1, 0, 4),
            id="back-quads-4-and-equal-flushes-tie",
        ),
    ],
)
def test_bonus_rows_pay_their_bonus_in_place_of_one_unit(
    winner: tuple[str, str, str], loser: tuple[str, str, str], rows: tuple[int, int, int]
) -> None:
    result = score_hand([hand(*winner), hand(*loser)], [100_000] * 2, unit=100, button=0)
    assert result.pairs[0].rows == rows
    assert result.units == (sum(rows), -sum(rows))
    reverse = score_hand([hand(*loser), hand(*winner)], [100_000] * 2, unit=100, button=0)
    assert reverse.pairs[0].rows == tuple(-units for units in rows)


def test_bonus_table_by_row() -> None:
    from games.cards import parse_cards as cards

    assert row_bonus("front", cards("7c 7d 7h")) == 3
    assert row_bonus("back", cards("Jc Jd Jh 5c 5d")) == 0
    assert row_bonus("middle", cards("Jc Jd Jh 5c 5d")) == 2
    assert row_bonus("back", cards("5c 4c 3c 2c Ac")) == 5  # the wheel flush is no royal
    assert row_bonus("middle", cards("Ac Kc Qc Jc Tc")) == 14


@pytest.mark.parametrize("name", NATURALS)
def test_a_natural_is_paid_its_value_by_a_regular_hand(name: str) -> None:
    natural, _ = build_pair(name, name)
    rest = [card for card in DECK if card not in natural]
    regular = best_arrangement(rest[:13])
    plain = PlayerHand(regular.front, regular.middle, regular.back)
    result = score_hand([rows_of(natural, name), plain], [100_000] * 2, unit=100, button=1)
    assert result.units == (NATURAL_VALUES[name], -NATURAL_VALUES[name])
    assert result.pairs[0].reason == "natural"


@pytest.mark.parametrize("first", NATURALS)
@pytest.mark.parametrize("second", NATURALS)
def test_two_naturals_the_higher_is_paid_its_own_value(first: str, second: str) -> None:
    one, two = build_pair(first, second)
    result = score_hand(
        [rows_of(one, first), rows_of(two, second)], [100_000] * 2, unit=100, button=0
    )
    higher = natural_rank(first) < natural_rank(second)
    lower = natural_rank(first) > natural_rank(second)
    expected = NATURAL_VALUES[first] if higher else -NATURAL_VALUES[second] if lower else 0
    assert result.units == (expected, -expected)
    assert result.pairs[0].reason == ("natural_tie" if expected == 0 else "natural")


def test_a_false_natural_claim_is_a_foul() -> None:
    claim = hand("2c 3d 5h", "Kc Kd 9s 8s 7d", "Ac Ad 4c 4d 6h", natural="dragon")
    other = hand("Qs Qh 2s", "9c 9h 3c 3h Jd", "7c 7h 7s Tc Td")  # back full house: no bonus
    assert resolve(claim).why == "false claim of dragon"
    assert units(claim, other) == (-3, 3)


def test_a_fouled_hand_pays_three_plus_every_bonus_the_opponent_holds() -> None:
    bonuses = hand("4c 4d 4h", "Kc Kd Kh 5c 5d", "Ac Ad Ah As 5h")  # 3 + 2 + 4
    assert units(FOULED, bonuses) == (-12, 12)


def test_a_false_claim_is_dropped_when_an_opponent_had_already_surrendered() -> None:
    claim = hand(
        "2c 3d 5h", "Kc Kd 9s 8s 7d", "Ac Ad 4c 4d 6h", "dragon", claimed_after_surrender=True
    )
    quitter = PlayerHand(surrender=True)
    other = hand("Qs Qh 2s", "9c 9h 3c 3h Jd", "7c 7h 7s Tc Td")
    result = score_hand([claim, quitter, other], [100_000] * 3, unit=100, button=0)
    assert result.statuses[0].kind == "regular"
    assert [(p.rows, p.total, p.reason) for p in result.pairs] == [
        (None, 3, "surrender"),
        ((-1, -1, -1), -3, "rows"),
        (None, -3, "surrender"),
    ]


def test_a_false_claim_made_before_the_surrender_still_fouls() -> None:
    claim = hand("2c 3d 5h", "Kc Kd 9s 8s 7d", "Ac Ad 4c 4d 6h", "dragon")
    result = score_hand(
        [claim, PlayerHand(surrender=True), FOULED_OTHER], [100_000] * 3, unit=100, button=0
    )
    assert result.statuses[0].kind == "foul"
    assert result.pairs[1].reason == "both_fouled"


def test_a_dropped_claim_still_fouls_by_row_order() -> None:
    claim = hand(
        "Qs Qh 2s", "Jc Jd 9c 8c 7c", "Th Td 3h 3c 6d", "dragon", claimed_after_surrender=True
    )
    result = score_hand([claim, PlayerHand(surrender=True)], [100_000] * 2, unit=100, button=0)
    assert result.statuses[0] == resolve(claim, opponent_surrendered=True)
    assert result.statuses[0].why == "rows out of order"


def test_surrender_against_surrender_pays_nothing() -> None:
    assert units(PlayerHand(surrender=True), PlayerHand(surrender=True)) == (0, 0)


def test_surrender_pays_three_even_to_a_natural_or_a_foul() -> None:
    dragon, _ = build_pair("dragon", "dragon")
    assert units(PlayerHand(surrender=True), rows_of(dragon, "dragon")) == (-3, 3)
    assert units(PlayerHand(surrender=True), FOULED) == (-3, 3)


def test_foul_against_foul_pays_nothing() -> None:
    assert units(FOULED, FOULED_OTHER) == (0, 0)


def test_foul_against_a_natural_pays_the_natural_value() -> None:
    six, _ = build_pair("six_pairs", "six_pairs")
    fouled = _disjoint_foul(six)
    assert resolve(fouled).kind == "foul"
    assert units(rows_of(six, "six_pairs"), fouled) == (3, -3)


def _disjoint_foul(taken: list[object]) -> PlayerHand:
    rest = [card for card in DECK if card not in taken][:13]
    rest.sort(reverse=True)
    # The strongest cards in the front and the weakest in the back always foul.
    return PlayerHand(tuple(rest[:3]), tuple(rest[3:8]), tuple(rest[8:]))


def test_suit_tie_break_in_the_row_order_check() -> None:
    weaker_back = hand("2c 3d 4h", "9s 8c 7d 6h 5c", "9h 8s 7c 6d 5d")
    stronger_back = hand("2c 3d 4h", "9h 8s 7c 6d 5d", "9s 8c 7d 6h 5c")
    assert resolve(weaker_back).kind == "foul"
    assert resolve(stronger_back).kind == "regular"


def test_rows_equal_by_rank_are_no_foul() -> None:
    assert resolve(hand("Ks Kd 5c", "Kh Kc 5d 3s 2s", "Ac Ad 4c 4d 6h")).kind == "regular"
    assert resolve(hand("Ks Kd 5c", "Kh Kc 4d 3s 2s", "Ac Ad 4c 4h 6h")).kind == "foul"


def test_settlement_order_starts_with_the_button() -> None:
    assert settlement_order(3, button=1) == [(1, 2), (1, 0), (2, 0)]


# Short stacks: A and C each win 5 units from B, who has only 6 units.
SHORT = [PairScore(0, 1, None, 5, "natural"), PairScore(2, 1, None, 5, "natural")]


@pytest.mark.parametrize(
    ("button", "stacks"),
    [
        pytest.param(0, (1_100, 0, 700), id="button-A-A-first"),
        pytest.param(1, (700, 0, 1_100), id="button-B-C-first"),
        pytest.param(2, (700, 0, 1_100), id="button-C-C-first"),
    ],
)
def test_short_stack_pays_in_the_button_order(button: int, stacks: tuple[int, ...]) -> None:
    order = settlement_order(3, button)
    by_pair = {frozenset((p.first, p.second)): p for p in SHORT}
    pairs = [by_pair.get(frozenset(pair), PairScore(*pair, None, 0, "rows")) for pair in order]
    _, final = settle(pairs, [600, 600, 600], unit=100)
    assert final == stacks
    assert sum(final) == 1_800


def test_winner_can_win_at_most_their_starting_stack_net() -> None:
    pairs = [PairScore(0, 1, None, -1, "rows"), PairScore(0, 2, None, 9, "natural")]
    payments, final = settle(pairs, [200, 5_000, 5_000], unit=100)
    # A loses 100 first, so may then win 300 (ending at 400: a net gain of 200).
    assert payments == (Payment(0, 1, 100), Payment(2, 0, 300))
    assert final == (400, 5_100, 4_700)


def test_score_hand_short_stacks_in_several_button_positions() -> None:
    hands = [hand(*rows) for rows in SEED_TALLY.values()]
    stacks = [1_000, 300, 10_000, 10_000]
    by_button = {b: score_hand(hands, stacks, unit=100, button=b).stacks for b in range(4)}
    assert by_button == {
        0: (1_300, 0, 10_200, 9_800),
        1: (1_000, 0, 10_500, 9_800),
        2: (1_000, 0, 10_500, 9_800),
        3: (1_200, 0, 10_200, 9_900),
    }


def test_bad_input_is_a_clear_error() -> None:
    short = PlayerHand(REGULAR.front[:2], REGULAR.middle, REGULAR.back)
    with pytest.raises(ValueError, match="the front row needs 3 cards, not 2"):
        score_hand([short, FOULED], [100, 100], unit=100, button=0)
    with pytest.raises(ValueError, match="card 2c appears twice"):
        score_hand([REGULAR, REGULAR], [100, 100], unit=100, button=0)
    with pytest.raises(ValueError, match="unknown natural 'flush'"):
        score_hand(
            [PlayerHand(REGULAR.front, REGULAR.middle, REGULAR.back, "flush"), FOULED],
            [100, 100],
            unit=100,
            button=0,
        )


@st.composite
def tables(draw: st.DrawFn) -> tuple[list[PlayerHand], list[int], int]:
    count = draw(st.integers(2, 4))
    deck = draw(st.permutations(DECK))
    hands = []
    for seat in range(count):
        cards = deck[13 * seat : 13 * seat + 13]
        if draw(st.booleans()) and draw(st.booleans()):
            hands.append(PlayerHand(surrender=True))
            continue
        natural = draw(st.none() | st.sampled_from(NATURALS))
        after = draw(st.booleans())
        hands.append(
            PlayerHand(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]), natural, False, after)
        )
    stacks = draw(st.lists(st.integers(0, 5_000), min_size=count, max_size=count))
    return hands, stacks, draw(st.integers(0, count - 1))


@settings(max_examples=150, deadline=None)
@given(tables())
def test_units_sum_to_zero_and_settlement_never_goes_below_zero(
    table: tuple[list[PlayerHand], list[int], int],
) -> None:
    hands, stacks, button = table
    result = score_hand(hands, stacks, unit=100, button=button)
    assert sum(result.units) == 0
    assert sum(result.stacks) == sum(stacks)
    assert all(final >= 0 for final in result.stacks)
    assert all(final <= 2 * start for final, start in zip(result.stacks, stacks, strict=True))
    for pair in result.pairs:
        if pair.rows is not None:
            assert pair.total == sum(pair.rows)
