"""Cards as numbers for the evaluators' hot paths.

A hand's *sum* is the sum of one weight per card, so ``sum(map(weights.__getitem__, indices))``
(a loop in C) yields everything the five- and seven-card evaluators need:

- bits 0-38: how many natural (non-wild) cards of each rank, three bits per rank
  (rank ``r`` at bit ``3 * (r - 2)``): equal sums mean equal rank multisets;
- bits 40-55: how many natural cards of each suit, four bits per suit, each starting at 3
  (:data:`START`) so that five or more of a suit sets that nibble's top bit (:data:`FLUSH_MASK`);
- bits 56-59: how many wild cards;
- bits 64-127: one bit per card, suit-major (``64 + 16 * suit + rank``): a suit's ranks are a
  16-bit mask, and a repeated card shows as a carry (fewer bits than cards).

>>> total = hand_sum(indices("As Ks Qs Js Ts"), weights(frozenset()))
>>> bool(total & FLUSH_MASK), rank_counts(total)[14]
(True, 1)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from games.cards import DECK, Card, CardError, parse_cards

from .values import EvaluatorError

__all__ = [
    "FLUSH_MASK",
    "RANK_MASK",
    "START",
    "SUIT_SHIFT",
    "WILD_SHIFT",
    "card_bits",
    "hand_sum",
    "indices",
    "rank_counts",
    "suit_mask",
    "weights",
    "weights_by_id",
]

RANK_MASK = (1 << 39) - 1
SUIT_SHIFT = 40
WILD_SHIFT = 56
CARD_SHIFT = 64
START = 0x3333 << SUIT_SHIFT
FLUSH_MASK = 0x8888 << SUIT_SHIFT

# Identity lookup: hashing a Card dataclass costs a Python-level call per card, while id() is a
# C call. DECK's cards live as long as the process, so an id found here is exactly that card;
# any other Card object (equal but not identical) takes the slow path in indices().
_INDEX_BY_ID: dict[int, int] = {id(card): card.index for card in DECK}


def indices(cards: Iterable[Card] | str) -> tuple[int, ...]:
    """Card indices (``Card.index``) of cards given as Card objects or as text.

    >>> indices("2c As")
    (0, 51)
    >>> indices([1, 2])
    Traceback (most recent call last):
    ...
    games.evaluators.values.EvaluatorError: cards are Card objects or text such as "As", not 1
    """
    if isinstance(cards, str):
        try:
            return tuple(card.index for card in parse_cards(cards))
        except CardError as error:
            raise EvaluatorError(str(error)) from error
    try:
        return tuple(map(_INDEX_BY_ID.__getitem__, map(id, cards)))
    except KeyError:
        pass
    found = []
    for card in cards:
        if not isinstance(card, Card):
            raise EvaluatorError(f'cards are Card objects or text such as "As", not {card!r}')
        found.append(card.index)
    return tuple(found)


def card_bits(index: int) -> int:
    """The card's own bit in a hand sum (suit-major)."""
    return 1 << (CARD_SHIFT + 16 * (index & 3) + (index >> 2) + 2)


@cache
def weights(wild: frozenset[int]) -> tuple[int, ...]:
    """Each card's weight, by index, when the ranks in ``wild`` are wild."""
    table = []
    for index in range(52):
        rank, suit = (index >> 2) + 2, index & 3
        if rank in wild:
            weight = 1 << WILD_SHIFT
        else:
            weight = 1 << 3 * (rank - 2) | 1 << (SUIT_SHIFT + 4 * suit)
        table.append(weight + card_bits(index))
    return tuple(table)


@cache
def weights_by_id(wild: frozenset[int]) -> dict[int, int]:
    """Weights keyed by ``id(card)`` of the cards of :data:`games.cards.DECK`."""
    table = weights(wild)
    return {id(card): table[card.index] for card in DECK}


def hand_sum(hand: Sequence[int], table: Sequence[int]) -> int:
    """The sum of a hand's weights plus :data:`START`."""
    return sum(map(table.__getitem__, hand), START)


def rank_counts(total: int) -> list[int]:
    """Natural cards per rank (index 2..14) from a hand sum."""
    return [0, 0] + [total >> 3 * (rank - 2) & 7 for rank in range(2, 15)]


def suit_mask(total: int, suit: int) -> int:
    """The ranks (bits 2..14) of every card of ``suit`` in a hand sum, wild cards included."""
    return total >> (CARD_SHIFT + 16 * suit) & 0xFFFF
