"""A hand's openings checked against its published commitment (docs/fairness.md).

After a hand the cardroom publishes the opening (card and salt) of every card the hand showed to
anyone: everyone gets those shown to the table, each player those of their own cards
(cardroom/history/history.py). Here every one of them is taken from the stored deck and checked
against what was published before the deal: each opening must hash to its position's leaf, and
the leaves to the root. Unlike ``DeckCommitment.from_json`` this never stops at the first
problem: it says what is wrong with each opening, so an auditor reads every mismatch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardroom.models import Hand
from games.deck import CommitmentError, Opening, leaf_hash, root_hash
from games.events import event_cards
from games.words import Sentence, sentence_of, words

__all__ = ["OpeningCheck", "Verification", "hand_openings", "published_cards"]


@dataclass(frozen=True, slots=True)
class OpeningCheck:
    """One published card: its opening from the stored deck and whether it matches."""

    card: str
    position: int | None
    salt: str
    leaf: str
    published_leaf: str
    #: What is wrong, in words (a sentence of the rules, games.words), or "".
    problem: str = ""

    @property
    def ok(self) -> bool:
        return not self.problem

    def to_json(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "card": self.card,
            "salt": self.salt,
            "verified": self.ok,
        }

    def opening(self) -> Opening | None:
        return None if self.position is None else Opening(self.position, self.card, self.salt)


@dataclass(frozen=True, slots=True)
class Verification:
    """Every published opening of a hand, checked, and the root's own check."""

    root: str
    checks: list[OpeningCheck]
    problems: list[str]

    @property
    def ok(self) -> bool:
        return not self.problems


def published_cards(hand: Hand) -> set[str]:
    """The cards whose openings the hand page gives to someone once the hand has ended: every
    card any of its events names (shown to the table, or private to a player), and no other."""
    cards: set[str] = set()
    for data in hand.events.values_list("data", flat=True):
        cards |= event_cards(data)
    return cards


def hand_openings(hand: Hand, cards: set[str] | None = None) -> Verification:
    """Check the opening of each of ``cards`` (by default :func:`published_cards`): taken from
    the stored deck and salts, against the published leaves and root."""
    if cards is None:
        cards = published_cards(hand)
    root = str(hand.commitment_root)
    leaves = [str(leaf).lower() for leaf in (hand.commitment or {}).get("leaves", [])]
    deck = [str(card) for card in (hand.deck or {}).get("deck", [])]
    salts = [str(salt).lower() for salt in (hand.deck or {}).get("salts", [])]
    problems: list[str] = []
    try:
        recomputed = root_hash(leaves)
    except CommitmentError as error:
        recomputed = ""
        problems.append(
            words("the published leaves are not SHA-256 digests: {error}", error=sentence_of(error))
        )
    if recomputed and recomputed != root.lower():
        problems.append(
            words(
                # Translators: {digest} and {root} are SHA-256 digests in hexadecimal
                "the {count} published leaves hash to {digest}, not to the published root {root}",
                count=len(leaves),
                digest=recomputed,
                root=root,
            )
        )
    positions = {card: index for index, card in enumerate(deck)}
    checks = []
    for card in sorted(cards, key=lambda text: positions.get(text, len(deck))):
        check = _check(card, positions.get(card), salts, leaves)
        checks.append(check)
        if check.problem:
            problems.append(check.problem)
    return Verification(root=root, checks=checks, problems=problems)


def _check(card: str, position: int | None, salts: list[str], leaves: list[str]) -> OpeningCheck:
    if position is None:
        missing = words("{card}: no opening (not in the stored deck)", card=card)
        return OpeningCheck(card, None, "", "", "", missing)
    salt = salts[position] if position < len(salts) else ""
    published = leaves[position] if position < len(leaves) else ""
    problem: Sentence | str
    if not salt:
        problem = words(
            "position {position}: {card} has no salt, so no opening", position=position, card=card
        )
        return OpeningCheck(card, position, salt, "", published, problem)
    leaf = leaf_hash(position, card, salt)
    if not published:
        problem = words("position {position}: no leaf was published for it", position=position)
    elif leaf != published:
        problem = words(
            # Translators: {salt}, {leaf} and {published} are hexadecimal digests
            "position {position}: {card} with salt {salt} hashes to {leaf}, but the published"
            " leaf is {published}",
            position=position,
            card=card,
            salt=salt,
            leaf=leaf,
            published=published,
        )
    else:
        problem = ""
    return OpeningCheck(card, position, salt, leaf, published, problem)
