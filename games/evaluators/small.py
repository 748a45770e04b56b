"""One-, two- and three-card rankings as precomputed tables (docs/rules/guts-classic.md).

Three-card keys come from a flat table indexed ``a << 12 | b << 6 | c`` by the three card
indices in any order, built once per ranking on first use (about 0.1 s). Two-card keys come
from a table indexed ``a << 6 | b``.

Wild cards (``wild``: a set of ranks) stand for any card, even one the hand already holds
(docs/rules/guts-classic.md, "Wild cards"). A hand's category is the best one its cards satisfy, so
the wild cards take the ranks that make the best hand, and the suit of the other cards when
those are all of one suit (being suited never makes a hand worse). Three wild cards in three
cards make three aces or, where straight flushes rank above trips, A-K-Q suited.

>>> table = three_card_table(ThreeCardRules())
>>> A_K_Q = 48 << 12 | 44 << 6 | 40  # Ac Kc Qc: a straight flush
>>> table[A_K_Q] > table[51 << 12 | 50 << 6 | 49]  # As Ah Ad: three aces
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations, product

from .values import (
    CRUMPLER_POSITION,
    FLUSH,
    HIGH_CARD,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    pack,
)

__all__ = [
    "ThreeCardRules",
    "TwoCardRules",
    "one_card_key",
    "three_card_table",
    "two_card_table",
]

RANK_CHOICES = range(2, 15)


@dataclass(frozen=True, slots=True)
class ThreeCardRules:
    """A three-card ranking: the table options of docs/rules/guts-classic.md, "Three cards"."""

    straights_flushes: bool = True
    trips_over_straight_flush: bool = False
    flush_over_straight: bool = False
    wild: frozenset[int] = frozenset()

    def order(self) -> tuple[int, ...]:
        """Category indices, weakest first."""
        if not self.straights_flushes:
            return (HIGH_CARD, PAIR, TRIPS)
        middle = (STRAIGHT, FLUSH) if self.flush_over_straight else (FLUSH, STRAIGHT)
        top = (STRAIGHT_FLUSH, TRIPS) if self.trips_over_straight_flush else (TRIPS, STRAIGHT_FLUSH)
        return (HIGH_CARD, PAIR, *middle, *top)


@dataclass(frozen=True, slots=True)
class TwoCardRules:
    """A two-card ranking: docs/rules/guts-classic.md, "Two cards"."""

    straights_flushes: bool = False
    royal_crumpler: bool = False
    wild: frozenset[int] = frozenset()


def one_card_key(index: int) -> int:
    """Toh: rank, then suit (clubs < diamonds < hearts < spades).

    >>> one_card_key(51) > one_card_key(50) > one_card_key(47)
    True
    """
    return pack(0, HIGH_CARD, ((index >> 2) + 2, index & 3))


def _three_key(ranks: Sequence[int], suited: bool, rules: ThreeCardRules) -> int:
    """The key of three ranks (highest first; repeats allowed for wild cards)."""
    order = rules.order()
    high, middle, low = ranks
    candidates: list[tuple[int, tuple[int, ...]]]
    if high == low:
        candidates = [(TRIPS, (high,))]
    elif high == middle or middle == low:
        candidates = [(PAIR, (middle, low if high == middle else high))]
    else:
        top = 3 if (high, middle, low) == (14, 3, 2) else high
        straight = rules.straights_flushes and (high - low == 2 or top == 3)
        candidates = [(STRAIGHT, (top,))] if straight else [(HIGH_CARD, (high, middle, low))]
        if straight and suited:
            candidates = [(STRAIGHT_FLUSH, (top,))]
    if suited and rules.straights_flushes and candidates[0][0] != STRAIGHT_FLUSH:
        candidates.append((FLUSH, (high, middle, low)))
    return max(pack(order.index(category), category, tie) for category, tie in candidates)


def _best_with_wilds(
    naturals: Sequence[int], wilds: int, key: Callable[[Sequence[int], bool], int]
) -> int:
    """Best key over every rank the wild cards can take (suited when the naturals are)."""
    suited = len({index & 3 for index in naturals}) <= 1
    ranks = [(index >> 2) + 2 for index in naturals]
    return max(
        key(sorted(ranks + list(extra), reverse=True), suited)
        for extra in product(RANK_CHOICES, repeat=wilds)
    )


@cache
def three_card_table(rules: ThreeCardRules) -> list[int]:
    """Keys of every three-card hand, at ``a << 12 | b << 6 | c`` for card indices a, b, c."""
    table = [-1] * (52 << 12)
    memo: dict[tuple[tuple[int, ...], bool, int], int] = {}

    def key(ranks: Sequence[int], suited: bool) -> int:
        return _three_key(ranks, suited, rules)

    for hand in combinations(range(51, -1, -1), 3):
        naturals = [index for index in hand if (index >> 2) + 2 not in rules.wild]
        wilds = 3 - len(naturals)
        if wilds:
            memo_key = (
                tuple(index >> 2 for index in naturals),
                len({index & 3 for index in naturals}) <= 1,
                wilds,
            )
            if memo_key not in memo:
                memo[memo_key] = _best_with_wilds(naturals, wilds, key)
            value = memo[memo_key]
        else:
            value = key([(index >> 2) + 2 for index in hand], len({i & 3 for i in hand}) == 1)
        for a, b, c in permutations(hand):
            table[a << 12 | b << 6 | c] = value
    return table


def _two_key(ranks: Sequence[int], suited: bool, rules: TwoCardRules) -> int:
    high, low = ranks
    if rules.royal_crumpler and (high, low) == (3, 2):
        return pack(CRUMPLER_POSITION, HIGH_CARD, (3, 2))
    if high == low:
        return pack(4, PAIR, (high,))
    if rules.straights_flushes:
        top = 2 if (high, low) == (14, 2) else high
        straight = high - low == 1 or top == 2
        if straight and suited:
            return pack(3, STRAIGHT_FLUSH, (top,))
        if straight:
            return pack(2, STRAIGHT, (top,))
        if suited:
            return pack(1, FLUSH, (high, low))
    return pack(0, HIGH_CARD, (high, low))


@cache
def two_card_table(rules: TwoCardRules) -> list[int]:
    """Keys of every two-card hand, at ``a << 6 | b`` for card indices a, b."""
    table = [-1] * (52 << 6)

    def key(ranks: Sequence[int], suited: bool) -> int:
        return _two_key(ranks, suited, rules)

    for hand in combinations(range(51, -1, -1), 2):
        naturals = [index for index in hand if (index >> 2) + 2 not in rules.wild]
        if len(naturals) < 2:
            value = _best_with_wilds(naturals, 2 - len(naturals), key)
        else:
            value = key([(index >> 2) + 2 for index in hand], hand[0] & 3 == hand[1] & 3)
        a, b = hand
        table[a << 6 | b] = table[b << 6 | a] = value
    return table
