"""Five-card poker and the best five of six or seven, wild cards included (rules/rankings.md).

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

from collections.abc import Callable, Sequence
from functools import cache
from itertools import combinations, combinations_with_replacement

from games.cards import DECK

from .cardbits import FLUSH_MASK, RANK_MASK, START, SUIT_SHIFT, WILD_SHIFT, suit_mask, weights
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
    "SMALL_WEIGHTS",
    "best_flush",
    "best_of_counts",
    "five_card_tables",
    "natural_key",
    "wild_key",
]

DESCENDING = range(14, 1, -1)
# Straights by their top card; the wheel's ace plays low (5-4-3-2-A).
WINDOWS = tuple(
    (high, tuple(14 if rank == 1 else rank for rank in range(high, high - 5, -1)))
    for high in range(14, 4, -1)
)
_FLUSH_SUIT = {0x8 << SUIT_SHIFT: 0, 0x80 << SUIT_SHIFT: 1, 0x800 << SUIT_SHIFT: 2}


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


class _Memo(dict[int, int]):
    """A dict that computes a missing entry once (the lookup itself stays a C call)."""

    def __init__(self, compute: Callable[[int], int]) -> None:
        super().__init__()
        self._compute = compute

    def __missing__(self, key: int) -> int:
        value = self[key] = self._compute(key)
        return value


def _counts(total: int) -> list[int]:
    return [0, 0] + [total >> 3 * (rank - 2) & 7 for rank in range(2, 15)]


def _ranks_entry(key: int) -> int:
    return best_of_counts(_counts(key & RANK_MASK), key >> WILD_SHIFT & 15)


def _flush_entry(key: int) -> int:
    return best_flush(key & 0xFFFF, key >> 16)


@cache
def _tables() -> tuple[_Memo, _Memo]:
    ranks, flushes = _Memo(_ranks_entry), _Memo(_flush_entry)
    # Every five-card hand up front (the five-card table); six and seven fill in on use.
    for hand in combinations_with_replacement(range(2, 15), 5):
        if hand[0] == hand[4]:
            continue
        total = sum(1 << 3 * (rank - 2) for rank in hand)
        ranks[total] = best_of_counts(_counts(total), 0)
        if len(set(hand)) == 5:
            mask = sum(1 << rank for rank in hand)
            flushes[mask] = best_flush(mask, 0)
    return ranks, flushes


#: Natural weights without the card bits (see :mod:`games.evaluators.cardbits`).
SMALL_WEIGHTS: tuple[int, ...] = tuple(
    1 << 3 * (index >> 2) | 1 << (SUIT_SHIFT + 4 * (index & 3)) for index in range(52)
)


@cache
def five_card_tables() -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """Tables for exactly five cards given as :data:`games.cards.DECK` objects.

    Returns the :data:`SMALL_WEIGHTS` by ``id(card)``, then the keys of flushes and of the
    other hands, both by the rank part of the hand's sum (``total & RANK_MASK``).
    """
    ranks, _ = _tables()
    by_id = {id(card): SMALL_WEIGHTS[card.index] for card in DECK}
    others = {
        total: value
        for total, value in ranks.items()
        if sum(total >> 3 * digit & 7 for digit in range(13)) == 5
    }
    flushes = {
        sum(1 << 3 * rank for rank in hand): best_flush(sum(1 << rank + 2 for rank in hand), 0)
        for hand in combinations(range(13), 5)
    }
    return by_id, flushes, others


@cache
def natural_key() -> Callable[[Sequence[int]], int]:
    """The key of five, six or seven card indices, no wild cards (best five of them)."""
    ranks, flushes = _tables()
    # Without the card bits the sum stays a two-digit int, which adds faster; the rare
    # flush (about 3 hands in 100 of seven cards) collects its suit's ranks by a loop.
    get = SMALL_WEIGHTS.__getitem__

    def key(hand: Sequence[int]) -> int:
        total = sum(map(get, hand), START)
        if total & FLUSH_MASK:
            suit = _FLUSH_SUIT.get(total & FLUSH_MASK, 3)
            return flushes[sum(1 << (index >> 2) + 2 for index in hand if index & 3 == suit)]
        return ranks[total & RANK_MASK]

    return key


@cache
def wild_key(wild: frozenset[int]) -> Callable[[Sequence[int]], int]:
    """The key of five to seven card indices when the ranks in ``wild`` are wild."""
    if not wild:
        return natural_key()
    ranks, flushes = _tables()
    table = weights(wild)
    get = table.__getitem__
    natural_ranks = 0xFFFF & ~sum(1 << rank for rank in wild)
    flush_suits: dict[int, tuple[int, ...]] = {}

    def suited(total: int) -> tuple[int, ...]:
        # Suits with enough natural cards that the wild cards can complete a flush.
        wilds = total >> WILD_SHIFT & 15
        found = tuple(
            suit for suit in range(4) if (total >> (SUIT_SHIFT + 4 * suit) & 15) - 3 + wilds >= 5
        )
        flush_suits[total >> SUIT_SHIFT & 0xFFFFF] = found
        return found

    def key(hand: Sequence[int]) -> int:
        total = sum(map(get, hand), START)
        wilds = total >> WILD_SHIFT & 15
        best = ranks[total & RANK_MASK | wilds << WILD_SHIFT]
        found = flush_suits.get(total >> SUIT_SHIFT & 0xFFFFF)
        if found is None:
            found = suited(total)
        for suit in found:
            value = flushes[suit_mask(total, suit) & natural_ranks | wilds << 16]
            if value > best:
                best = value
        return best

    return key
