"""Hand values: one int key per hand, greater is better, and a readable description.

A key packs, from the most significant bits down (docs/rules/guts-classic.md, "Hand rankings"):

- bits 24 and up: the category's *position* in the ranking in force (options such as
  ``flush_over_straight`` reorder categories; the royal crumpler sits at position 15);
- bits 20-23: the category's index in :data:`CATEGORIES` (so a key alone names its category);
- bits 0-19: up to five tie-break ranks, four bits each, most significant first.

High kinds store ranks 2..14 (ace 14). Low kinds store ``15 - rank`` (``low_nuts`` counts the
ace as 1), so the better low hand still has the greater key.

>>> value = HandValue.from_key("three_card", pack(1, 1, (9, 13)))
>>> value.category, str(value)
('pair', 'pair of nines, king kicker')
>>> pack(4, 4, (12,)) > pack(3, 3, (14, 14, 14))
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "CATEGORIES",
    "CRUMPLER_POSITION",
    "EvaluatorError",
    "HandValue",
    "category_index",
    "pack",
]

#: Every category name, weakest first in standard poker; the index is stored in each key.
CATEGORIES: tuple[str, ...] = (
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
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH, FIVE_KIND = (
    range(10)
)
#: Position of the royal crumpler (3-2 in two-card Guts), above every other two-card hand.
CRUMPLER_POSITION = 15
LOW_KINDS = frozenset({"low_nuts", "low_napalm"})

_NAMES = {
    1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}  # fmt: skip
_SHORT = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
_SUIT_NAMES = {0: "clubs", 1: "diamonds", 2: "hearts", 3: "spades"}


class EvaluatorError(ValueError):
    """An unknown kind or option, an option that does not apply, or the wrong cards."""


def category_index(name: str) -> int:
    """The index of a category name in :data:`CATEGORIES`.

    >>> category_index("flush")
    5
    """
    return CATEGORIES.index(name)


def pack(position: int, category: int, ranks: Sequence[int]) -> int:
    """A key from a position, a category index and up to five tie-break ranks (first counts most).

    >>> hex(pack(5, 5, (14, 13, 9)))
    '0x55ed900'
    """
    key = position << 4 | category
    for index in range(5):
        key = key << 4 | (ranks[index] if index < len(ranks) else 0)
    return key


def _ranks(key: int) -> list[int]:
    return [key >> shift & 15 for shift in (16, 12, 8, 4, 0)]


def _plural(rank: int) -> str:
    name = _NAMES[rank]
    return name + "es" if name == "six" else name + "s"


def _short(rank: int) -> str:
    return _SHORT.get(rank, str(rank))


def _run(ranks: Sequence[int]) -> str:
    return "-".join(_short(rank) for rank in ranks)


def _kickers(ranks: Sequence[int]) -> str:
    if not ranks:
        return ""
    if len(ranks) == 1:
        return f", {_NAMES[ranks[0]]} kicker"
    return f", {_run(ranks)} kickers"


def describe(kind: str, key: int) -> str:
    """The readable name of a key of ``kind`` (``str(HandValue)``).

    >>> describe("five_card", pack(4, 4, (12,)))
    'straight, Q-high'
    >>> describe("two_card", pack(CRUMPLER_POSITION, 0, (3, 2)))
    'royal crumpler (3-2)'
    """
    category = key >> 20 & 15
    if kind == "two_card" and key >> 24 == CRUMPLER_POSITION:
        return "royal crumpler (3-2)"
    raw = [rank for rank in _ranks(key) if rank]
    if kind == "one_card":
        return f"{_NAMES[raw[0]]} of {_SUIT_NAMES[key >> 12 & 15]}"
    ranks = [15 - rank for rank in raw] if kind in LOW_KINDS else raw
    if category == STRAIGHT_FLUSH and ranks[0] == 14 and kind in ("five_card", "best_five"):
        return "royal flush"
    text = _describe_ranks(category, ranks)
    return text + " (low)" if kind in LOW_KINDS else text


def _describe_ranks(category: int, ranks: list[int]) -> str:
    top = ranks[0]
    if category == HIGH_CARD:
        return f"{_NAMES[top]}-high ({_run(ranks)})" if len(ranks) > 1 else f"{_NAMES[top]}-high"
    if category == PAIR:
        return f"pair of {_plural(top)}" + _kickers(ranks[1:])
    if category == TWO_PAIR:
        return f"two pair, {_plural(top)} and {_plural(ranks[1])}" + _kickers(ranks[2:])
    if category == TRIPS:
        return f"three {_plural(top)}" + _kickers(ranks[1:])
    if category in (STRAIGHT, STRAIGHT_FLUSH):
        name = CATEGORIES[category].replace("_", " ")
        return f"{name}, {_short(top)}-high"
    if category == FLUSH:
        return f"flush, {_NAMES[top]}-high ({_run(ranks)})"
    if category == FULL_HOUSE:
        return f"full house, {_plural(top)} full of {_plural(ranks[1])}"
    if category == QUADS:
        return f"four {_plural(top)}" + _kickers(ranks[1:])
    return f"five {_plural(top)}"


@dataclass(frozen=True, slots=True, eq=False)
class HandValue:
    """An ordered hand value: greater is better, equal keys tie (docs/rules/).

    Comparisons and hashing use ``key`` only; values of different kinds or options compare
    without meaning. ``str()`` describes the hand.

    >>> a = HandValue.from_key("five_card", pack(1, 1, (9, 13, 8, 4)))
    >>> b = HandValue.from_key("five_card", pack(1, 1, (9, 12, 8, 4)))
    >>> a > b, a == a, str(a)
    (True, True, 'pair of nines, K-8-4 kickers')
    """

    key: int
    category: str
    kind: str

    @classmethod
    def from_key(cls, kind: str, key: int) -> HandValue:
        """The value of a key of ``kind`` (the category is read from the key itself)."""
        return cls(key, CATEGORIES[key >> 20 & 15], kind)

    def __str__(self) -> str:
        return describe(self.kind, self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, HandValue) and self.key == other.key

    def __hash__(self) -> int:
        return hash(self.key)

    def __lt__(self, other: HandValue) -> bool:
        return self.key < other.key

    def __le__(self, other: HandValue) -> bool:
        return self.key <= other.key

    def __gt__(self, other: HandValue) -> bool:
        return self.key > other.key

    def __ge__(self, other: HandValue) -> bool:
        return self.key >= other.key
