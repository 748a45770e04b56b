"""Five-card poker and the best five of six or seven, wild cards included (docs/rules/).

A hand is summed once (:mod:`games.evaluators.cardbits`); its rank multiset and wild count then
index a table of the best hand those ranks make without a flush, and only a hand with five
cards of one suit (counting the wild cards) looks at that suit's ranks. With seven cards or
fewer and no wild card, a flush rules out quads and a full house, so the flush table alone
answers for it.

Keys are :func:`games.evaluators.values.pack` keys whose position is the category index, so
five-card keys sort as standard poker; 7,462 distinct keys cover every five-card hand.

Wild cards stand for any card, even one already held: wild + A-A-A-A is five aces, and a
wild card in a flush can be a second ace (A-A-K-Q-9 of one suit is a flush, above A-K-Q-J-9).

>>> key = natural_key()
>>> key([48, 44, 40, 36, 32]) == pack(STRAIGHT_FLUSH, STRAIGHT_FLUSH, (14,))  # Ac Kc Qc Jc Tc
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Any, Generic, TypeVar

from .cardbits import (
    CARD_SHIFT,
    FLUSH_MASK,
    RANK_MASK,
    REPEAT_MASK,
    SUIT_SHIFT,
    SUIT_UNIT,
    WILD_MASK,
    WILD_SHIFT,
    small_weights,
    weights,
    weights_by_suit,
)
from .values import (
    FIVE_KIND,
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    QUADS,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TRIPS,
    TWO_PAIR,
    pack,
)

__all__ = [
    "Memo",
    "best_flush",
    "best_of_counts",
    "five_card_key",
    "five_card_table",
    "flush_table",
    "natural_key",
    "rank_table",
    "wild_key",
    "wild_ranker",
]

V = TypeVar("V")

DESCENDING = range(14, 1, -1)
# Straights by their top card; the wheel's ace plays low (5-4-3-2-A).
WINDOWS = tuple(
    (high, tuple(14 if rank == 1 else rank for rank in range(high, high - 5, -1)))
    for high in range(14, 4, -1)
)
_FLUSH_SUIT = {64 << SUIT_SHIFT + 7 * suit: suit for suit in range(4)}
# The rank counts and wild count of a sum: the key of rank_table().
_RANKS_AND_WILDS = RANK_MASK | WILD_MASK
# The suit fields and the wild count, shifted down by SUIT_SHIFT: which suits may make a flush.
_SUITS_AND_WILDS = (1 << WILD_SHIFT + 4 - SUIT_SHIFT) - 1


def _key(category: int, ranks: Sequence[int]) -> int:
    return pack(category, category, ranks)


def best_of_counts(counts: Sequence[int], wilds: int) -> int:
    """The best five-card key, suits aside, of five or more cards.

    ``counts[r]`` is the number of natural cards of rank ``r`` (2..14); ``wilds`` more cards
    are wild.

    >>> counts = [0] * 15
    >>> counts[14] = 4
    >>> best_of_counts(counts, 1) == pack(FIVE_KIND, FIVE_KIND, (14,))
    True
    """
    naturals = [rank for rank in DESCENDING for _ in range(counts[rank])]
    for rank in DESCENDING:
        if counts[rank] + wilds >= 5:
            return _key(FIVE_KIND, (rank,))
    for rank in DESCENDING:
        if counts[rank] + wilds >= 4:
            return _key(QUADS, (rank, next(r for r in naturals if r != rank)))
    for trips in DESCENDING:
        spare = wilds - max(0, 3 - counts[trips])
        if spare < 0:
            continue
        for pair in DESCENDING:
            if pair != trips and counts[pair] + spare >= 2:
                return _key(FULL_HOUSE, (trips, pair))
    for high, window in WINDOWS:
        if sum(1 for rank in window if not counts[rank]) <= wilds:
            return _key(STRAIGHT, (high,))
    for trips in DESCENDING:
        if counts[trips] + wilds >= 3:
            return _key(TRIPS, (trips, *[r for r in naturals if r != trips][:2]))
    pairs = [rank for rank in DESCENDING if counts[rank] >= 2]
    if len(pairs) >= 2:
        high, low = pairs[:2]
        return _key(TWO_PAIR, (high, low, next(r for r in naturals if r not in (high, low))))
    if pairs or wilds:
        pair = pairs[0] if pairs else naturals[0]
        return _key(PAIR, (pair, *[r for r in naturals if r != pair][:3]))
    return _key(HIGH_CARD, naturals[:5])


def best_flush(mask: int, wilds: int) -> int:
    """The best straight flush or flush of one suit's natural ranks (bits 2..14) and wild cards.

    Needs at least five cards between them. Wild cards left over in a flush are aces.

    >>> best_flush(0b1111100000000, 0) == pack(STRAIGHT_FLUSH, STRAIGHT_FLUSH, (12,))
    True
    """
    for high, window in WINDOWS:
        if sum(1 for rank in window if not mask >> rank & 1) <= wilds:
            return _key(STRAIGHT_FLUSH, (high,))
    ranks = [14] * wilds + [rank for rank in DESCENDING if mask >> rank & 1]
    return _key(FLUSH, ranks[:5])


class Memo(dict[int, V], Generic[V]):
    """A dict that computes a missing entry once (the lookup itself stays a C call)."""

    def __init__(self, compute: Callable[[int], V]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, key: int) -> V:
        value = self[key] = self._compute(key)
        return value


def _counts(total: int) -> list[int]:
    return [0, 0] + [total >> 3 * (rank - 2) & 7 for rank in range(2, 15)]


def _ranks_entry(key: int) -> int:
    return best_of_counts(_counts(key & RANK_MASK), key >> WILD_SHIFT & 15)


def _flush_entry(key: int) -> int:
    mask = sum(1 << rank for rank in range(2, 15) if key >> 3 * (rank - 2) & 1)
    return best_flush(mask, key >> WILD_SHIFT & 15)


@cache
def _tables() -> tuple[Memo[int], Memo[int]]:
    ranks, flushes = Memo(_ranks_entry), Memo(_flush_entry)
    # Every five-card hand up front (the five-card table); six and seven fill in on use.
    for hand in combinations_with_replacement(range(13), 5):
        if hand[0] == hand[4]:
            continue
        total = sum(1 << 3 * rank for rank in hand)
        ranks[total] = _ranks_entry(total)
        if len(set(hand)) == 5:
            flushes[total] = _flush_entry(total)
    return ranks, flushes


def rank_table() -> Memo[int]:
    """The best key, suits aside, by a sum's rank counts and wild count (``& _RANKS_AND_WILDS``).

    Filled on use past five cards.
    """
    return _tables()[0]


def flush_table() -> Memo[int]:
    """The best straight flush or flush of one suit, by that suit's natural ranks (a set, in the
    layout of the rank counts) plus the sum's wild count (``& WILD_MASK``). Filled on use."""
    return _tables()[1]


@cache
def five_card_table() -> dict[int, int]:
    """The key of every hand of exactly five natural cards, by ``total & (RANK_MASK | FLUSH_MASK)``.

    The rank counts alone, or with the flush bit of the suit of a flush (11,323 entries).
    """
    ranks, flushes = _tables()
    table = {
        total: value
        for total, value in ranks.items()
        if not total & WILD_MASK and sum(_counts(total)) == 5
    }
    for hand in combinations(range(13), 5):
        total = sum(1 << 3 * rank for rank in hand)
        for flush in _FLUSH_SUIT:
            table[total | flush] = flushes[total]
    return table


@cache
def five_card_key() -> Callable[[Sequence[int]], int]:
    """The key of exactly five card indices, no wild cards: five additions and one lookup."""
    table = five_card_table()
    weight = small_weights(frozenset())
    mask = RANK_MASK | FLUSH_MASK

    def key(hand: Sequence[int]) -> int:
        a, b, c, d, e = hand
        return table[weight[a] + weight[b] + weight[c] + weight[d] + weight[e] & mask]

    return key


@cache
def natural_key() -> Callable[[Sequence[int]], int]:
    """The key of five, six or seven card indices, no wild cards (best five of them)."""
    ranks, flushes = _tables()
    # Without the card counts the sum stays a three-digit int, which adds faster; the rare
    # flush (about 3 hands in 100 of seven cards) collects its suit's ranks by a loop. Seven
    # and six cards are added inline: faster than sum(map(...)), which builds two iterators.
    weight = small_weights(frozenset())
    get = weight.__getitem__

    def key(hand: Sequence[int]) -> int:
        count = len(hand)
        if count == 7:
            a, b, c, d, e, f, g = hand
            total = (
                weight[a] + weight[b] + weight[c] + weight[d] + weight[e] + weight[f] + weight[g]
            )
        elif count == 6:
            a, b, c, d, e, f = hand
            total = weight[a] + weight[b] + weight[c] + weight[d] + weight[e] + weight[f]
        else:
            total = sum(map(get, hand))
        if total & FLUSH_MASK:
            suit = _FLUSH_SUIT[total & FLUSH_MASK]
            return flushes[sum(1 << 3 * (index >> 2) for index in hand if index & 3 == suit)]
        return ranks[total & RANK_MASK]

    return key


def _natural_field(wild: frozenset[int]) -> int:
    """The rank-count positions of the natural ranks (one bit each)."""
    return sum(1 << 3 * (rank - 2) for rank in range(2, 15) if rank not in wild)


def _flush_suits(key: int) -> tuple[int, ...]:
    # Shifts of the card fields of the suits whose natural cards and the wild cards make five.
    wilds = key >> WILD_SHIFT - SUIT_SHIFT & 15
    return tuple(
        CARD_SHIFT + 39 * suit
        for suit in range(4)
        if (key >> 7 * suit & 127) // SUIT_UNIT + wilds >= 5
    )


@cache
def _flush_suit_table() -> Memo[tuple[int, ...]]:
    return Memo(_flush_suits)


@cache
def wild_key(wild: frozenset[int]) -> Callable[[Sequence[int]], int]:
    """The key of five to seven card indices when the ranks in ``wild`` are wild."""
    if not wild:
        return natural_key()
    ranks, flushes = _tables()
    suits = _flush_suit_table()
    get = weights(wild).__getitem__
    natural = _natural_field(wild)

    def key(hand: Sequence[int]) -> int:
        total = sum(map(get, hand))
        wilds = total & WILD_MASK
        best = ranks[total & _RANKS_AND_WILDS]
        for shift in suits[total >> SUIT_SHIFT & _SUITS_AND_WILDS]:
            value = flushes[total >> shift & natural | wilds]
            if value > best:
                best = value
        return best

    return key


def wild_ranker(
    wild: frozenset[int], sizes: tuple[int, ...], values: Mapping[int, V]
) -> Callable[[Any], V | None]:
    """``values[key]`` of a sequence of ``sizes`` Card objects, wild ranks ``wild`` (rank_hand).

    Reads each card's ``suit`` and ``rank`` slots (:func:`weights_by_suit`). Returns None (a card
    held twice, a wrong count) or raises (TypeError, ValueError, AttributeError, KeyError...)
    for what is not such a hand: the caller then takes its full path, which names the fault.
    """
    ranks, flushes = _tables()
    suits = _flush_suit_table()
    weight = weights_by_suit(wild)
    natural = _natural_field(wild)
    five_only = sizes == (5,)

    def rank(cards: Any) -> V | None:
        count = len(cards)
        w = weight
        if count == 5:
            a, b, c, d, e = cards
            total = (
                w[a.suit][a.rank] + w[b.suit][b.rank] + w[c.suit][c.rank] + w[d.suit][d.rank]
                + w[e.suit][e.rank]
            )  # fmt: skip
        elif five_only:
            return None
        elif count == 7:
            a, b, c, d, e, f, g = cards
            total = (
                w[a.suit][a.rank] + w[b.suit][b.rank] + w[c.suit][c.rank] + w[d.suit][d.rank]
                + w[e.suit][e.rank] + w[f.suit][f.rank] + w[g.suit][g.rank]
            )  # fmt: skip
        else:
            a, b, c, d, e, f = cards
            total = (
                w[a.suit][a.rank] + w[b.suit][b.rank] + w[c.suit][c.rank] + w[d.suit][d.rank]
                + w[e.suit][e.rank] + w[f.suit][f.rank]
            )  # fmt: skip
        if total & REPEAT_MASK:
            return None
        wilds = total & WILD_MASK
        best = ranks[total & _RANKS_AND_WILDS]
        for shift in suits[total >> SUIT_SHIFT & _SUITS_AND_WILDS]:
            value = flushes[total >> shift & natural | wilds]
            if value > best:
                best = value
        return values[best]

    return rank
