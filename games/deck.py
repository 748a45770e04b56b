"""A fair shuffle and a commitment to the deck order (docs/architecture.md, "Fairness").

The shuffle is Fisher–Yates driven by ``secrets.randbelow`` (or an injected source, for tests):
every order of the deck is equally likely.

Before a deal the table publishes the commitment's ``root`` and ``leaves``; after the hand it
hands out openings (card and salt) of the positions each person may see. The exact format, so
anyone can check an opening with a few lines of their own:

- each position ``i`` (0 is the first card dealt) has a fresh random 16-byte salt, written as
  32 lowercase hex digits ``salt_hex``;
- ``leaf[i] = SHA-256(f"{i}:{card}:{salt_hex}")`` over those UTF-8 bytes, where ``card`` is
  written rank then suit as in docs/architecture.md (``"Th"``, ``"As"``), published as 64 lowercase
  hex digits;
- ``root = SHA-256(leaf[0] || leaf[1] || ... || leaf[n-1])`` over the leaves' raw 32-byte
  digests, concatenated in position order, published as hex.

An opening checks out when its leaf recomputes to ``leaves[position]`` and the leaves hash to
the root. Mucked cards stay hidden: a leaf reveals nothing without its salt.

>>> from games.cards import DECK
>>> counter = iter(range(100))
>>> deck = shuffled_deck(lambda n: next(counter) % n)
>>> len(deck), len(set(deck))
(52, 52)
>>> commitment = commit_deck(deck, salt_source=lambda size: bytes(size))
>>> opening = commitment.opening(0)
>>> verify_opening(commitment.root, commitment.leaves, opening)
True
>>> from dataclasses import replace
>>> verify_opening(commitment.root, commitment.leaves, replace(opening, card="As"))
False
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from games.cards import DECK, Card, CardError, parse_card
from games.words import sentence_of, words

__all__ = [
    "SALT_BYTES",
    "CommitmentError",
    "DeckCommitment",
    "Opening",
    "commit_deck",
    "leaf_hash",
    "root_hash",
    "shuffled_deck",
    "verify_opening",
]

SALT_BYTES = 16


class CommitmentError(ValueError):
    """A commitment or opening that is malformed (not one that merely fails to verify)."""


def shuffled_deck(
    randbelow: Callable[[int], int] = secrets.randbelow, cards: Sequence[Card] = DECK
) -> tuple[Card, ...]:
    """The cards in a uniformly random order (Fisher–Yates, ``randbelow(n)`` in ``0..n-1``).

    >>> shuffled_deck(lambda n: 0, DECK[:3])  # always swap with the first: a rotation
    (Card(rank=2, suit='d'), Card(rank=2, suit='h'), Card(rank=2, suit='c'))
    """
    order = list(cards)
    for last in range(len(order) - 1, 0, -1):
        pick = randbelow(last + 1)
        if not 0 <= pick <= last:
            raise ValueError(f"randbelow({last + 1}) returned {pick}, outside 0..{last}")
        order[last], order[pick] = order[pick], order[last]
    return tuple(order)


def leaf_hash(position: int, card: Card | str, salt_hex: str) -> str:
    """The hex leaf of one deck position.

    >>> leaf_hash(0, "As", "00" * 16) == hashlib.sha256(b"0:As:" + b"0" * 32).hexdigest()
    True
    """
    return hashlib.sha256(f"{position}:{card}:{salt_hex}".encode()).hexdigest()


def root_hash(leaves: Sequence[str]) -> str:
    """The hex root over hex leaves (their raw digests concatenated in order)."""
    try:
        return hashlib.sha256(b"".join(bytes.fromhex(leaf) for leaf in leaves)).hexdigest()
    except (ValueError, TypeError) as error:
        raise CommitmentError(
            words("leaves are 64 hex digits each: {error}", error=sentence_of(error))
        ) from error


@dataclass(frozen=True, slots=True)
class Opening:
    """The card at one position of a committed deck, and that position's salt."""

    position: int
    card: str
    salt_hex: str

    def to_json(self) -> dict[str, Any]:
        """``{"position": 0, "card": "As", "salt": "..."}``."""
        return {"position": self.position, "card": self.card, "salt": self.salt_hex}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Opening:
        """The inverse of :meth:`to_json`."""
        try:
            return cls(int(data["position"]), str(data["card"]), str(data["salt"]))
        except (KeyError, TypeError, ValueError) as error:
            raise CommitmentError(
                words("an opening has position, card and salt: {error}", error=sentence_of(error))
            ) from error


def verify_opening(root: str, leaves: Sequence[str], opening: Opening) -> bool:
    """Whether ``opening`` matches the published ``root`` and ``leaves``.

    Checks that the leaves hash to the root and that the opening's card and salt hash to the
    leaf at its position. A wrong card, salt, position or leaf gives False.
    """
    if not 0 <= opening.position < len(leaves):
        return False
    try:
        if root_hash(leaves) != root.lower():
            return False
    except CommitmentError:
        return False
    expected = leaf_hash(opening.position, opening.card, opening.salt_hex.lower())
    return secrets.compare_digest(expected, leaves[opening.position].lower())


@dataclass(frozen=True, slots=True)
class DeckCommitment:
    """A deck order, its salts, and the hashes to publish (``root`` and ``leaves``)."""

    root: str
    leaves: tuple[str, ...]
    salts: tuple[str, ...]
    deck: tuple[Card, ...]

    def opening(self, position: int) -> Opening:
        """The opening of one position (0 is the first card dealt)."""
        if not 0 <= position < len(self.deck):
            raise CommitmentError(
                words(
                    "no position {position}; positions are 0..{last}",
                    position=position,
                    last=len(self.deck) - 1,
                )
            )
        return Opening(position, str(self.deck[position]), self.salts[position])

    def public(self) -> dict[str, Any]:
        """What a table publishes before the deal: the root and the leaves."""
        return {"root": self.root, "leaves": list(self.leaves)}

    def to_json(self) -> dict[str, Any]:
        """Everything, for the runtime's store (never for players: it holds the deck)."""
        return {
            "root": self.root,
            "leaves": list(self.leaves),
            "salts": list(self.salts),
            "deck": [str(card) for card in self.deck],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DeckCommitment:
        """The inverse of :meth:`to_json`; every hash is recomputed and must match."""
        try:
            deck = tuple(parse_card(text) for text in data["deck"])
            salts = tuple(str(salt) for salt in data["salts"])
            leaves = tuple(str(leaf) for leaf in data["leaves"])
            root = str(data["root"])
        except (KeyError, TypeError, CardError) as error:
            raise CommitmentError(
                words("not a deck commitment: {error}", error=sentence_of(error))
            ) from error
        rebuilt = _build(deck, salts)
        if rebuilt.leaves != leaves or rebuilt.root != root:
            raise CommitmentError(words("the stored hashes do not match the stored deck and salts"))
        return rebuilt


def _build(deck: tuple[Card, ...], salts: tuple[str, ...]) -> DeckCommitment:
    if len(salts) != len(deck):
        raise CommitmentError(
            words(
                "{cards} cards need {cards} salts, not {salts}", cards=len(deck), salts=len(salts)
            )
        )
    if len(set(deck)) != len(deck):
        raise CommitmentError(words("a card appears twice in the deck"))
    pairs = enumerate(zip(deck, salts, strict=True))
    leaves = tuple(leaf_hash(i, card, salt) for i, (card, salt) in pairs)
    return DeckCommitment(root_hash(leaves), leaves, salts, deck)


def commit_deck(
    deck: Sequence[Card], salt_source: Callable[[int], bytes] = secrets.token_bytes
) -> DeckCommitment:
    """Commit to ``deck`` in order, with a fresh salt per position from ``salt_source(16)``."""
    salts = []
    for _ in deck:
        salt = salt_source(SALT_BYTES)
        if len(salt) != SALT_BYTES:
            raise CommitmentError(
                words(
                    "a salt is {size} bytes, not {count}",
                    size=SALT_BYTES,
                    count=len(salt),
                )
            )
        salts.append(salt.hex())
    return _build(tuple(deck), tuple(salts))
