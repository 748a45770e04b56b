"""Cards and the 52-card deck (docs/architecture.md, "Conventions").

Cards are written rank then suit: ranks ``2 3 4 5 6 7 8 9 T J Q K A`` (``10`` accepted for
``T`` on input), suits ``c d h s``.

>>> parse_cards("As Kd 10c")
(Card(rank=14, suit='s'), Card(rank=13, suit='d'), Card(rank=10, suit='c'))
>>> str(parse_cards("As")[0])
'As'
>>> len(DECK), str(DECK[0]), str(DECK[-1])
(52, '2c', 'As')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.words import words

__all__ = [
    "DECK",
    "RANKS",
    "SUITS",
    "Card",
    "CardError",
    "card_from_index",
    "format_cards",
    "parse_card",
    "parse_cards",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
RANK_NAMES = {
    2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
    9: "nine", 10: "ten", 11: "jack", 12: "queen", 13: "king", 14: "ace",
}  # fmt: skip


class CardError(ValueError):
    """Text that is not a card, or a card repeated in one hand."""


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One card: ``rank`` 2..14 (ace high), ``suit`` one of ``c d h s``.

    Order is by rank, then suit (clubs < diamonds < hearts < spades), which is the Toh order.
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not 2 <= self.rank <= 14 or self.suit not in SUITS:
            raise CardError(
                words(
                    "no such card: rank {rank}, suit {suit}",
                    rank=repr(self.rank),
                    suit=repr(self.suit),
                )
            )

    def __str__(self) -> str:
        return RANKS[self.rank - 2] + self.suit

    @property
    def index(self) -> int:
        """Position 0..51 in :data:`DECK` (rank-major: ``2c`` is 0, ``As`` is 51)."""
        return (self.rank - 2) * 4 + SUITS.index(self.suit)


DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in range(2, 15) for suit in SUITS)
_BY_TEXT = {str(card): card for card in DECK}


def card_from_index(index: int) -> Card:
    """The card at ``index`` of :data:`DECK`."""
    return DECK[index]


def parse_card(token: str) -> Card:
    """One card from text such as ``"As"`` or ``"10h"``.

    >>> parse_card("10h")
    Card(rank=10, suit='h')
    >>> parse_card("1x")
    Traceback (most recent call last):
    ...
    games.cards.CardError: not a card: '1x' (rank 2-9, T, J, Q, K, A or 10, then suit c, d, h, s)
    """
    if not isinstance(token, str):
        # Cards arrive from clients as JSON: a number, a list or null is a refusal, not a crash.
        raise CardError(
            words("not a card: {value} (a card is text such as 'As' or '10h')", value=repr(token))
        )
    text = token.strip()
    if text[:2] == "10":
        text = "T" + text[2:]
    if len(text) == 2:
        card = _BY_TEXT.get(text[0].upper() + text[1].lower())
        if card is not None:
            return card
    raise CardError(
        words(
            "not a card: {value} (rank 2-9, T, J, Q, K, A or 10, then suit c, d, h, s)",
            value=repr(token),
        )
    )


def parse_cards(text: str | Iterable[str], *, allow_repeats: bool = False) -> tuple[Card, ...]:
    """Cards from whitespace- or comma-separated text, or from an iterable of tokens.

    A card repeated in one hand is an error unless ``allow_repeats``.

    >>> parse_cards("As Kd As")
    Traceback (most recent call last):
    ...
    games.cards.CardError: card As appears twice
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    cards = tuple(parse_card(token) for token in tokens)
    if not allow_repeats:
        seen: set[Card] = set()
        for card in cards:
            if card in seen:
                raise CardError(words("card {card} appears twice", card=card))
            seen.add(card)
    return cards


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as text, space-separated: the inverse of :func:`parse_cards`."""
    return " ".join(str(card) for card in cards)
