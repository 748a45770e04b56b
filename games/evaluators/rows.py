"""The Chinese Poker row-order check (docs/rules/chinese-poker.md, "Hand rankings").

Rows are ranked on the five-card scale (a three-card front counts only three of a kind, pair
and high card); two rows of one category compare the ranks that decide it, in order, as far as
the shorter row has them, and equal is not a foul. The one exception: two straights, flushes or
straight flushes of the same ranks are ordered by the suit of their highest card (the 5 in
A-2-3-4-5), clubs < diamonds < hearts < spades.

>>> row_at_least("9c 9d Ks 8h 4c", "9s 9h Kd")  # the front's deciding ranks are equal
True
>>> row_at_least("Ts 9s 8s 7s 6s", "Th 9h 8h 7h 6h")  # same ranks: spades over hearts
True
>>> rows_in_order("Ah Kd 2c", "Ts 9c 8d 7h 6s", "Th 9h 8s 7d 6c")  # back's 10 of hearts is weaker
False
"""

from __future__ import annotations

from collections.abc import Iterable

from games.cards import Card

from .cardbits import indices
from .five import five_card_key
from .small import ThreeCardRules, three_card_table
from .values import FLUSH, STRAIGHT, STRAIGHT_FLUSH, EvaluatorError

__all__ = ["row_at_least", "rows_in_order"]

Row = Iterable[Card] | str
_SUITED = (STRAIGHT, FLUSH, STRAIGHT_FLUSH)


def _row(cards: Row) -> tuple[int, list[int], int]:
    """Category, deciding ranks, and the suit of the highest card for straights and flushes."""
    hand = indices(cards)
    if len(set(hand)) != len(hand):
        raise EvaluatorError("a card appears twice in a row")
    if len(hand) == 3:
        a, b, c = hand
        key = three_card_table(ThreeCardRules(straights_flushes=False))[a << 12 | b << 6 | c]
    elif len(hand) == 5:
        key = five_card_key()(hand)
    else:
        raise EvaluatorError(f"a row has 3 cards (front) or 5 (middle, back), not {len(hand)}")
    category = key >> 20 & 15
    ranks = [rank for rank in (key >> shift & 15 for shift in (16, 12, 8, 4, 0)) if rank]
    suit = -1
    if category in _SUITED:
        top = ranks[0]
        suit = max(index & 3 for index in hand if (index >> 2) + 2 == top)
    return category, ranks, suit


def row_at_least(upper: Row, lower: Row) -> bool:
    """Whether row ``upper`` (back or middle) is at least as strong as ``lower`` (middle, front)."""
    upper_category, upper_ranks, upper_suit = _row(upper)
    lower_category, lower_ranks, lower_suit = _row(lower)
    if upper_category != lower_category:
        return upper_category > lower_category
    shared = min(len(upper_ranks), len(lower_ranks))
    if upper_ranks[:shared] != lower_ranks[:shared]:
        return upper_ranks[:shared] > lower_ranks[:shared]
    return upper_suit >= lower_suit


def rows_in_order(front: Row, middle: Row, back: Row) -> bool:
    """Whether a Chinese Poker hand is set in order (False: it fouls).

    >>> rows_in_order("2c 3d 5h", "Kh Ks 3s 3h 4c", "Ac Ad Kc Qd 9h")
    False
    """
    return row_at_least(back, middle) and row_at_least(middle, front)
