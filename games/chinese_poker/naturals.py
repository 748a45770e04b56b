"""Clean sweeps, the naturals (docs/rules/chinese-poker.md, "Clean sweeps (naturals)").

A natural is a property of a player's 13 cards. For the two that name rows (three straights,
three flushes) the cards must be splittable into a front of 3 and two rows of 5 that each are
one; :func:`natural_rows` finds such a split, set in row order, to show at the reveal. Where the
rules are silent, these decisions hold:

- A claim is checked against the 13 cards, not the rows the player had set: the cardroom sets
  the natural's rows for the player, as a dealer would spread them.
- Cards that make a higher natural also make some lower ones (13 colors is a dragon too;
  three of a kind and five pairs is six pairs and an odd card). A claim of the lower one holds
  and is paid as claimed; the solver always claims the highest.

>>> from games.cards import parse_cards
>>> find_natural(parse_cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"))
'dragon'
>>> pairs = parse_cards("2c 2d 3c 3d 4c 4d 5c 5d 6c 6d 7c 7d 9h")
>>> find_natural(pairs), makes_natural("six_pairs", pairs), makes_natural("dragon", pairs)
('six_pairs', True, False)
>>> NATURAL_VALUES["twelve_colors"], natural_rank("dragon") < natural_rank("six_pairs")
(8, True)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from games.cards import Card
from games.evaluators import row_at_least

__all__ = [
    "NATURALS",
    "NATURAL_VALUES",
    "find_natural",
    "makes_natural",
    "natural_rank",
    "natural_rows",
]

#: Every natural, highest first, with the units it is paid.
NATURAL_VALUES: dict[str, int] = {
    "thirteen_colors": 13,
    "dragon": 13,
    "twelve_colors": 8,
    "trips_five_pairs": 4,
    "three_straights": 4,
    "three_flushes": 3,
    "six_pairs": 3,
}
NATURALS: tuple[str, ...] = tuple(NATURAL_VALUES)

Rows = tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]

# Rank sets of the straights a row can hold: the ace plays high or low (A-2-3 is the lowest
# 3-card straight, A-2-3-4-5 the lowest 5-card one; K-A-2 wraps and is no straight).
_LADDER = (14, *range(2, 15))
_STRAIGHTS_5 = tuple(frozenset(_LADDER[i : i + 5]) for i in range(len(_LADDER) - 4))
_STRAIGHTS_3 = tuple(frozenset(_LADDER[i : i + 3]) for i in range(len(_LADDER) - 2))


def natural_rank(name: str) -> int:
    """The natural's place in the ranking: 1 is the highest (13 colors), 7 the lowest.

    >>> natural_rank("thirteen_colors"), natural_rank("six_pairs")
    (1, 7)
    """
    check_name(name)
    return NATURALS.index(name) + 1


def check_name(name: object) -> str:
    """``name`` if it names a natural; otherwise a ValueError listing the names."""
    if not isinstance(name, str) or name not in NATURAL_VALUES:
        raise ValueError(f"unknown natural {name!r}; naturals: {', '.join(NATURALS)}")
    return name


def makes_natural(name: str, cards: Sequence[Card]) -> bool:
    """Whether the 13 ``cards`` make the natural called ``name``."""
    check_name(name)
    suits = Counter(card.suit for card in cards)
    ranks = Counter(card.rank for card in cards)
    if name == "thirteen_colors":
        return max(suits.values()) == 13
    if name == "dragon":
        return len(ranks) == 13
    if name == "twelve_colors":
        return max(suits.values()) == 12
    if name == "trips_five_pairs":
        counts = sorted(ranks.values())
        return counts.count(3) == 1 and all(count in (2, 3, 4) for count in counts)
    if name == "six_pairs":
        return sum(count // 2 for count in ranks.values()) == 6
    return natural_rows(name, cards) is not None


def find_natural(cards: Sequence[Card]) -> str | None:
    """The highest natural the 13 ``cards`` make, or ``None``."""
    for name in NATURALS:
        if makes_natural(name, cards):
            return name
    return None


def natural_rows(name: str, cards: Sequence[Card]) -> Rows | None:
    """Rows (front, middle, back, in row order) that show a three-straights or three-flushes
    natural, or ``None`` when the cards make no such split (or the natural names no rows).

    >>> from games.cards import format_cards, parse_cards
    >>> cards = parse_cards("Ac 2d 3h 4c 5d 6h 7s 8c 9c Tc Jd Qh Kh")
    >>> [format_cards(row) for row in natural_rows("three_straights", cards)]
    ['Jd Qh Kh', '2d 3h 4c 5d Ac', '6h 7s 8c 9c Tc']
    """
    if name == "three_straights":
        rows = _straight_rows(cards)
    elif name == "three_flushes":
        rows = _flush_rows(cards)
    else:
        check_name(name)
        return None
    return None if rows is None else _in_order(rows)


def _straight_rows(cards: Sequence[Card]) -> Rows | None:
    ranks = Counter(card.rank for card in cards)
    for i, first in enumerate(_STRAIGHTS_5):
        for second in _STRAIGHTS_5[i:]:
            rest = ranks.copy()
            rest.subtract(first)
            rest.subtract(second)
            if min(rest.values()) < 0:
                continue
            if frozenset(+rest) in _STRAIGHTS_3 and sum(rest.values()) == 3:
                return _take(cards, (+rest, Counter(first), Counter(second)))
    return None


def _take(cards: Sequence[Card], wanted: tuple[Counter[int], ...]) -> Rows:
    pool = sorted(cards)
    rows: list[tuple[Card, ...]] = []
    for counts in wanted:
        row = []
        for card in list(pool):
            if counts[card.rank] > 0:
                counts[card.rank] -= 1
                row.append(card)
                pool.remove(card)
        rows.append(tuple(row))
    return rows[0], rows[1], rows[2]


def _flush_rows(cards: Sequence[Card]) -> Rows | None:
    by_suit: dict[str, list[Card]] = {}
    for card in sorted(cards, reverse=True):
        by_suit.setdefault(card.suit, []).append(card)
    sizes = sorted(len(group) for group in by_suit.values())
    splits = {(3, 5, 5): (3, 5, 5), (5, 8): (5, 8), (3, 10): (3, 10), (13,): (13,)}
    if tuple(sizes) not in splits:
        return None
    groups = sorted(by_suit.values(), key=len)
    # Cut each suit's cards (highest first) into flush rows: a suit of 8 gives a back of 5 and
    # a front of 3, a suit of 10 two rows of 5, a suit of 13 all three rows.
    pieces: list[tuple[Card, ...]] = []
    for group in groups:
        while group:
            size = 5 if len(group) in (5, 8, 10, 13) else 3
            pieces.append(tuple(group[:size]))
            group = group[size:]
    fronts = [piece for piece in pieces if len(piece) == 3]
    fives = [piece for piece in pieces if len(piece) == 5]
    return fronts[0], fives[0], fives[1]


def _in_order(rows: Rows) -> Rows:
    front, middle, back = rows
    if not row_at_least(back, middle):
        middle, back = back, middle
    return front, middle, back
