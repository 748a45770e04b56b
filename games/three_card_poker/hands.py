"""Three-card hand facts for Three Card Poker, read from :mod:`games.evaluators`.

Hands rank by docs/rules/three-card-poker.md, "Hand rankings"; the dealer qualifies with
queen-high or better (docs/rules/three-card-poker.md), that is with a hand at least as good as
:data:`QUALIFYING`, Q-3-2 of mixed suits. Cards are :attr:`games.cards.Card.index` numbers.

>>> from games.cards import parse_cards
>>> def indices(text): return [card.index for card in parse_cards(text)]
>>> hand_category(indices("9h 8h 7h")), hand_category(indices("Kd 9d 4d"))
('straight_flush', 'flush')
>>> qualifies(hand_key(indices("Qs 3d 2c"))), qualifies(hand_key(indices("Js Td 8c")))
(True, False)
>>> describe(indices("4c 4d Ks"))
'pair of fours, king kicker'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache

from games.cards import card_from_index, parse_cards
from games.evaluators import key_function, rank_hand

__all__ = [
    "KIND",
    "QUALIFYING",
    "describe",
    "hand_category",
    "hand_key",
    "qualifies",
    "qualify_key",
]

KIND = "three_card"
#: The weakest qualifying dealer hand: queen-high with the lowest kickers, not a flush.
QUALIFYING = "Qc 3d 2h"

# A key names a hand's strength exactly, so it fixes the category too: one evaluation per key.
_CATEGORIES: dict[int, str] = {}


@cache
def _key() -> Callable[[Sequence[int]], int]:
    return key_function(KIND)


def hand_key(indices: Sequence[int]) -> int:
    """The evaluator's key of three cards: greater is better, equal ties."""
    return _key()(indices)


def hand_category(indices: Sequence[int], key: int | None = None) -> str:
    """The category name of three cards (``high_card`` ... ``straight_flush``)."""
    if key is None:
        key = hand_key(indices)
    category = _CATEGORIES.get(key)
    if category is None:
        category = rank_hand(KIND, [card_from_index(index) for index in indices]).category
        _CATEGORIES[key] = category
    return category


def describe(indices: Sequence[int]) -> str:
    """The readable name of three cards."""
    return str(rank_hand(KIND, [card_from_index(index) for index in indices]))


@cache
def qualify_key() -> int:
    """The key of :data:`QUALIFYING`: the dealer qualifies at this key or above."""
    return hand_key([card.index for card in parse_cards(QUALIFYING)])


def qualifies(key: int) -> bool:
    """Whether a dealer hand with this key qualifies (queen-high or better)."""
    return key >= qualify_key()
