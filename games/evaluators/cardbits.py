"""Cards as numbers for the evaluators' hot paths.

A hand's *sum* is the sum of one weight per card, so ``sum(map(weights.__getitem__, indices))``
(a loop in C) yields everything the five- and seven-card evaluators need:

- bits 0-38: how many natural (non-wild) cards of each rank, three bits per rank
  (rank ``r`` at bit ``3 * (r - 2)``): equal sums mean equal rank multisets;
- bits 40-67: the natural cards of each suit, seven bits per suit, each card counting 13
  (:data:`SUIT_UNIT`): five to seven cards make 65 to 91, four make 52, so bit 6 of a suit's
  field is set exactly when the suit has five cards or more (:data:`FLUSH_MASK`), with no
  starting offset to add;
- bits 68-71: how many wild cards;
- bits 72-227 (only in :func:`weights`): three bits per card, suit-major
  (``72 + 39 * suit + 3 * (rank - 2)``). A suit's field has the layout of the rank counts, so
  ``total >> shift & RANK_MASK`` is the ranks of that suit (:func:`suit_ranks`), and a card
  held twice counts 2 or more, which sets a bit of :data:`REPEAT_MASK`: one ``&`` finds a
  repeated card (seven cards cannot overflow three bits).

>>> total = hand_sum(indices("As Ks Qs Js Ts"), weights(frozenset()))
>>> bool(total & FLUSH_MASK), rank_counts(total)[14], bool(total & REPEAT_MASK)
(True, 1, False)
>>> bool(hand_sum(indices("As Ks Qs Js") + (51,), weights(frozenset())) & REPEAT_MASK)
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from games.cards import DECK, SUITS, Card, CardError, parse_cards

from .values import EvaluatorError

__all__ = [
    "CARD_SHIFT",
    "FLUSH_MASK",
    "FLUSH_SHIFTS",
    "RANK_MASK",
    "REPEAT_MASK",
    "SUIT_SHIFT",
    "SUIT_UNIT",
    "WILD_MASK",
    "WILD_SHIFT",
    "card_bits",
    "hand_sum",
    "indices",
    "rank_counts",
    "small_weights",
    "suit_count",
    "suit_ranks",
    "weights",
    "weights_by_suit",
]

RANK_MASK = (1 << 39) - 1
SUIT_SHIFT = 40
SUIT_UNIT = 13
WILD_SHIFT = 68
WILD_MASK = 15 << WILD_SHIFT
CARD_SHIFT = 72
FLUSH_MASK = sum(64 << SUIT_SHIFT + 7 * suit for suit in range(4))
REPEAT_MASK = sum(0b110 << CARD_SHIFT + 3 * slot for slot in range(52))
#: The shift of a suit's card field by that suit's flush bit (one suit at most, without wilds).
FLUSH_SHIFTS: dict[int, int] = {
    64 << SUIT_SHIFT + 7 * suit: CARD_SHIFT + 39 * suit for suit in range(4)
}

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
    # Read once into a sequence: an iterator would be spent by a first pass that failed.
    hand = cards if isinstance(cards, tuple | list) else tuple(cards)
    try:
        return tuple(map(_INDEX_BY_ID.__getitem__, map(id, hand)))
    except KeyError:
        pass
    found = []
    for card in hand:
        if not isinstance(card, Card):
            raise EvaluatorError(f'cards are Card objects or text such as "As", not {card!r}')
        found.append(card.index)
    return tuple(found)


def card_bits(index: int) -> int:
    """The card's own count in a hand sum (three bits per card, suit-major)."""
    return 1 << CARD_SHIFT + 39 * (index & 3) + 3 * (index >> 2)


@cache
def small_weights(wild: frozenset[int]) -> tuple[int, ...]:
    """Each card's weight, by index, without the card counts (smaller ints add faster).

    For the key functions, which check nothing: no repeat test, no suit ranks.
    """
    table = []
    for index in range(52):
        rank, suit = (index >> 2) + 2, index & 3
        if rank in wild:
            table.append(1 << WILD_SHIFT)
        else:
            table.append(1 << 3 * (rank - 2) | SUIT_UNIT << SUIT_SHIFT + 7 * suit)
    return tuple(table)


@cache
def weights(wild: frozenset[int]) -> tuple[int, ...]:
    """Each card's weight, by index, when the ranks in ``wild`` are wild (card counts too)."""
    small = small_weights(wild)
    return tuple(small[index] + card_bits(index) for index in range(52))


@cache
def weights_by_suit(wild: frozenset[int]) -> dict[str, list[int | None]]:
    """:func:`weights` by ``card.suit`` then ``card.rank``, for Card objects.

    Two slot reads and two C lookups per card, where ``Card.index`` is a Python property. The
    unused slots 0 and 1 hold None, so that a rank out of range fails the addition.
    """
    table = weights(wild)
    return {
        suit: [None, None] + [table[4 * (rank - 2) + number] for rank in range(2, 15)]
        for number, suit in enumerate(SUITS)
    }


def hand_sum(hand: Sequence[int], table: Sequence[int]) -> int:
    """The sum of a hand's weights."""
    return sum(map(table.__getitem__, hand))


def rank_counts(total: int) -> list[int]:
    """Natural cards per rank (index 2..14) from a hand sum."""
    return [0, 0] + [total >> 3 * (rank - 2) & 7 for rank in range(2, 15)]


def suit_count(total: int, suit: int) -> int:
    """The natural cards of ``suit`` (0..3, clubs to spades) in a hand sum."""
    return (total >> SUIT_SHIFT + 7 * suit & 127) // SUIT_UNIT


def suit_ranks(total: int, suit: int) -> int:
    """The cards of ``suit`` in a hand sum of :func:`weights`, wild cards included.

    In the layout of the rank counts (three bits per rank), so one for each card held.
    """
    return total >> CARD_SHIFT + 39 * suit & RANK_MASK
