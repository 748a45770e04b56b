"""games.cards: text in and out, errors that name the bad token, the deck
(docs/architecture.md, "Conventions")."""

from __future__ import annotations

import pytest

from games.cards import (
    DECK,
    Card,
    CardError,
    card_from_index,
    format_cards,
    parse_card,
    parse_cards,
)


def test_a_card_prints_rank_then_suit() -> None:
    assert str(Card(14, "s")) == "As"
    assert str(Card(10, "h")) == "Th"
    assert str(Card(2, "c")) == "2c"


def test_parse_accepts_ten_as_t_or_10_and_any_case() -> None:
    assert parse_card("10h") == parse_card("Th") == parse_card("th") == Card(10, "h")
    assert parse_cards("As, kd 10c") == (Card(14, "s"), Card(13, "d"), Card(10, "c"))
    assert parse_cards(["Qs", "Jh"]) == (Card(12, "s"), Card(11, "h"))


def test_a_bad_token_is_named_in_the_error() -> None:
    with pytest.raises(CardError, match=r"not a card: 'Xs'"):
        parse_cards("As Xs")
    with pytest.raises(CardError, match=r"not a card: '1h'"):
        parse_card("1h")
    with pytest.raises(CardError, match=r"not a card: 'Asd'"):
        parse_card("Asd")


def test_a_repeated_card_is_an_error_unless_allowed() -> None:
    with pytest.raises(CardError, match="card As appears twice"):
        parse_cards("As Kd as")
    assert parse_cards("As As", allow_repeats=True) == (Card(14, "s"), Card(14, "s"))


def test_no_such_card() -> None:
    with pytest.raises(CardError):
        Card(15, "s")
    with pytest.raises(CardError):
        Card(10, "x")


def test_deck_has_52_cards_rank_major_from_two_of_clubs_to_ace_of_spades() -> None:
    assert len(DECK) == 52 == len(set(DECK))
    assert [str(card) for card in DECK[:5]] == ["2c", "2d", "2h", "2s", "3c"]
    assert str(DECK[-1]) == "As"
    assert [card.index for card in DECK] == list(range(52))
    assert all(card_from_index(card.index) is card for card in DECK)
    assert list(DECK) == sorted(DECK)


def test_format_is_the_inverse_of_parse() -> None:
    text = "As Td 2c"
    assert format_cards(parse_cards(text)) == text
