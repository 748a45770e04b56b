"""Low rankings: Nuts and the low stage of Napalm (docs/rules/guts-classic.md, "Hand rankings").

Keys still grow with strength: tie-break ranks are stored as ``15 - rank``.

``low_nuts`` (two to five cards): aces are low (below the 2), straights and flushes do not
count, and matched cards are strong (the seed: "pairs are strong"). The rules page settles a
pair against unpaired hands; for the hands of four and five cards it leaves open, the same
principle is carried on as in high poker: four of a kind > full house > three of a kind > two
pair > pair > no pair. Within a category the lower hand wins, group by group: the larger group
first (the pair before the odd cards), higher groups before lower ones (two pair: the higher
pair first), so 3-3-2-2 beats 4-4-A-A.

``low_napalm`` (five cards) is deuce-to-seven: aces are always high, and straights and flushes
do not count as lows but as the made hands they are, as pairs do. That is the reading under
which the page's best low is 7-5-4-3-2 (6-5-4-3-2 is a straight; A-5-4-3-2 is ace-high). Every
hand ranks in the reverse of standard poker: the lowest five-card hand is the best.

>>> nuts = low_nuts_key()
>>> nuts([0, 4]) > nuts([48, 52 - 1])  # 2c 3c (no pair) loses to Ac As (the lowest pair)
False
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from .cardbits import RANK_MASK, small_weights
from .five import Memo, five_card_key
from .values import (
    CATEGORIES,
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

__all__ = ["low_napalm_key", "low_nuts_key", "napalm_from_five"]

_BY_SHAPE = {
    (1,): HIGH_CARD,
    (2,): PAIR,
    (2, 2): TWO_PAIR,
    (3,): TRIPS,
    (3, 2): FULL_HOUSE,
    (4,): QUADS,
}


def _nuts_entry(total: int) -> int:
    # Ace counted as 1: groups ordered by size, then by rank, highest first.
    groups = sorted(
        ((total >> 3 * (rank - 2) & 7, 1 if rank == 14 else rank) for rank in range(2, 15)),
        reverse=True,
    )
    groups = [group for group in groups if group[0]]
    shape = tuple(size for size, _ in groups if size > 1) or (1,)
    category = _BY_SHAPE[shape]
    ranks = [15 - rank for _, rank in groups]
    return pack(category, category, ranks)


@cache
def low_nuts_key() -> Callable[[Sequence[int]], int]:
    """The ``low_nuts`` key of two to five card indices."""
    table = Memo(_nuts_entry)
    get = small_weights(frozenset()).__getitem__

    def key(hand: Sequence[int]) -> int:
        return table[sum(map(get, hand)) & RANK_MASK]

    return key


def napalm_from_five(key: int) -> int:
    """The ``low_napalm`` key of a hand from its five-card key (aces high, no wheel).

    >>> from .values import STRAIGHT
    >>> napalm_from_five(pack(STRAIGHT, STRAIGHT, (5,))) == pack(8, HIGH_CARD, (1, 10, 11, 12, 13))
    True
    """
    category = key >> 20 & 15
    ranks = [key >> shift & 15 for shift in (16, 12, 8, 4, 0)]
    if category in (STRAIGHT, STRAIGHT_FLUSH) and ranks[0] == 5:
        category = HIGH_CARD if category == STRAIGHT else FLUSH
        ranks = [14, 5, 4, 3, 2]
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        ranks = [ranks[0]]
    worst = CATEGORIES.index("straight_flush")
    return pack(worst - category, category, [15 - rank for rank in ranks if rank])


@cache
def low_napalm_key() -> Callable[[Sequence[int]], int]:
    """The ``low_napalm`` key of five card indices."""
    five = five_card_key()
    table = Memo(napalm_from_five)

    def key(hand: Sequence[int]) -> int:
        return table[five(hand)]

    return key
