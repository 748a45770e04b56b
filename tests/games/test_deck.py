"""games.deck: an unbiased shuffle, and a commitment anyone can check (docs/architecture.md)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Sequence
from dataclasses import replace

import pytest

from games.cards import DECK, Card, parse_cards
from games.deck import (
    CommitmentError,
    DeckCommitment,
    Opening,
    commit_deck,
    leaf_hash,
    shuffled_deck,
    verify_opening,
)


def fixed_salts() -> Callable[[int], bytes]:
    counter = iter(range(10_000))
    return lambda size: next(counter).to_bytes(size, "big")


def test_shuffle_keeps_every_card_once() -> None:
    deck = shuffled_deck(random.Random(1).randrange)
    assert sorted(deck) == list(DECK)


def test_shuffle_is_driven_by_the_injected_source() -> None:
    assert shuffled_deck(random.Random(7).randrange) == shuffled_deck(random.Random(7).randrange)
    assert shuffled_deck(lambda n: n - 1) == DECK  # always "keep in place"


def test_shuffle_refuses_a_source_out_of_range() -> None:
    with pytest.raises(ValueError, match="outside"):
        shuffled_deck(lambda n: n)


def test_default_shuffle_uses_the_system_source() -> None:
    assert sorted(shuffled_deck()) == list(DECK)


CRITICAL = 2_944


Shuffle = Callable[[Callable[[int], int]], Sequence[Card]]


def chi_square(shuffle: Shuffle, shuffles: int = 20_800) -> float:
    """Chi-square of the (card, position) counts over seeded shuffles (400 expected per cell)."""
    rng = random.Random(20_240_601)
    counts = [[0] * 52 for _ in range(52)]
    for _ in range(shuffles):
        for position, card in enumerate(shuffle(rng.randrange)):
            counts[card.index][position] += 1
    expected = shuffles / 52
    return sum((n - expected) ** 2 / expected for row in counts for n in row)


def test_each_card_is_equally_likely_in_each_position() -> None:
    """Chi-square over 52 x 52 (card, position) cells from 20,800 seeded shuffles.

    Each cell expects 400. The statistic has 51 x 51 = 2,601 degrees of freedom (each row and
    column sums to a constant); 2,601 + 4.75 x sqrt(2 x 2,601) ~ 2,944 is its critical value at
    a false-alarm rate of about 1 in 1,000,000 (normal approximation). The seed is fixed, so
    the test is repeatable.
    """
    assert chi_square(shuffled_deck) < CRITICAL


def test_the_chi_square_check_catches_the_naive_shuffle() -> None:
    """Swapping each card with any position (not just the unshuffled part) is biased."""

    def naive(randbelow: Callable[[int], int]) -> list[Card]:
        deck = list(DECK)
        for i in range(52):
            j = randbelow(52)
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    assert chi_square(naive) > 3 * CRITICAL


def test_commitment_round_trip_through_json() -> None:
    commitment = commit_deck(shuffled_deck(random.Random(3).randrange), fixed_salts())
    again = DeckCommitment.from_json(commitment.to_json())
    assert again == commitment
    assert commitment.public() == {"root": commitment.root, "leaves": list(commitment.leaves)}
    assert len(commitment.leaves) == 52 and len(set(commitment.leaves)) == 52


def test_every_opening_verifies_against_the_published_root_and_leaves() -> None:
    commitment = commit_deck(DECK, fixed_salts())
    public = commitment.public()
    for position in range(52):
        opening = Opening.from_json(commitment.opening(position).to_json())
        assert verify_opening(public["root"], public["leaves"], opening)


def test_the_format_is_the_documented_one() -> None:
    commitment = commit_deck(parse_cards("As Td"), fixed_salts())
    salt = (0).to_bytes(16, "big").hex()
    leaf = hashlib.sha256(f"0:As:{salt}".encode()).hexdigest()
    assert commitment.leaves[0] == leaf == leaf_hash(0, "As", salt)
    digests = b"".join(bytes.fromhex(leaf) for leaf in commitment.leaves)
    assert commitment.root == hashlib.sha256(digests).hexdigest()


def test_a_tampered_card_salt_position_or_leaf_fails() -> None:
    commitment = commit_deck(DECK, fixed_salts())
    opening = commitment.opening(5)
    root, leaves = commitment.root, commitment.leaves
    assert verify_opening(root, leaves, opening)
    assert not verify_opening(root, leaves, replace(opening, card="As"))
    assert not verify_opening(root, leaves, replace(opening, salt_hex="00" * 16))
    assert not verify_opening(root, leaves, replace(opening, position=6))
    assert not verify_opening(root, leaves, replace(opening, position=52))
    forged = list(leaves)
    forged[5] = leaf_hash(5, "As", opening.salt_hex)
    assert not verify_opening(root, forged, replace(opening, card="As"))


def test_a_stored_commitment_that_does_not_match_is_refused() -> None:
    data = commit_deck(DECK, fixed_salts()).to_json()
    data["deck"][0], data["deck"][1] = data["deck"][1], data["deck"][0]
    with pytest.raises(CommitmentError, match="do not match"):
        DeckCommitment.from_json(data)
    with pytest.raises(CommitmentError, match="appears twice"):
        commit_deck([DECK[0], DECK[0]])
    with pytest.raises(CommitmentError, match="no position 52"):
        commit_deck(DECK).opening(52)
