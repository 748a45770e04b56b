"""Every event of every game reads as a sentence on the hand page (never a field dump)."""

from __future__ import annotations

import dataclasses
import importlib
import inspect

import pytest

from cardroom.presentation.event_words import _SENTENCES, _bet_result, _Reader, event_words

MODULES = (
    "games.guts.events",
    "games.chinese_poker.events",
    "games.three_card_poker.events",
    "games.time_bank",
)
#: Base classes whose ``type`` no event is recorded with.
ABSTRACT = {"bet_result_event"}


def event_types() -> list[str]:
    found = set()
    for name in MODULES:
        for obj in vars(importlib.import_module(name)).values():
            kind = getattr(obj, "type", None)
            if inspect.isclass(obj) and dataclasses.is_dataclass(obj) and isinstance(kind, str):
                found.add(kind)
    return sorted(found - ABSTRACT)


@pytest.mark.parametrize("kind", event_types())
def test_each_event_type_has_its_sentence(kind):
    assert kind in _SENTENCES or _bet_result(kind, _Reader({}, {})) is not None


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"type": "ante_posted", "seat": 0, "amount": 100}, "ann anted $1.00"),
        (
            {"type": "time_bank", "seat": 1, "seconds": 30.0},
            "ben's time ran out: the time bank of 30 seconds runs",
        ),
        # Every game writes a seat's cents as ``stack``; Guts rows stored before, as ``amount``.
        ({"type": "player_sat", "seat": 0, "stack": 500}, "ann sat down with $5.00"),
        ({"type": "player_sat", "seat": 0, "amount": 500}, "ann sat down with $5.00"),
        ({"type": "player_left", "seat": 1, "stack": 250}, "ben left the table with $2.50"),
        ({"type": "player_left", "seat": 1, "amount": 250}, "ben left the table with $2.50"),
        ({"type": "seat_paid", "payer": 1, "payee": 0, "amount": 400}, "ben paid ann $4.00"),
        (
            {"type": "dealer_revealed", "cards": ["Ks", "9d", "4c"], "hand": "king high",
             "qualifies": True},
            "The dealer shows K♠ 9♦ 4♣: king high, qualifies",
        ),
        (
            {"type": "pair_plus_won", "seat": 1, "stake": 500, "paid": 2500},
            "ben's Pair Plus of $5.00 won, paying $20.00",
        ),
        (
            {"type": "hand_ended", "hand": 3, "units": {"0": 2, "1": -2}},
            "The hand ended: ann +2 units, ben -2 units",
        ),
        (
            {"type": "hand_ended", "hand": 2, "pot": 300, "rake": 9, "winners": [[0, 291]],
             "owed": [], "round_over": False},
            "The hand ended: pot $3.00, rake $0.09",
        ),
        ({"type": "declared", "seat": 1, "choice": "in", "timed_out": False}, "ben declared In"),
        ({"type": "ante_called", "seats": [0], "owing": []}, "Antes called from ann"),
        (
            {"type": "ante_called", "seats": [], "owing": [1]},
            "ben may top up to pay what they owe",
        ),
        (
            {"type": "ante_called", "seats": [0], "owing": [1]},
            "Antes called from ann; ben may top up to pay what they owe",
        ),
        (
            {"type": "pot_returned", "reserve": 0,
             "returns": [["stack:0", "ann", 200], ["bankroll:7", "cy", 100]]},
            "The table stopped: the pot of $3.00 went back to those who paid in: ann $2.00, "
            "cy $1.00",
        ),
    ],
)  # fmt: skip
def test_sentences_name_seats_and_say_dollars(data, words):
    assert event_words(data, {0: "ann", 1: "ben"}) == words


def test_the_chinese_reveal_names_rows_and_never_says_none():
    data = {
        "type": "hand_revealed",
        "hands": [
            {"seat": 0, "front": ["As", "Ad", "2c"], "middle": ["Kc", "Kd", "3h", "4h", "5h"],
             "back": ["Qs", "Qd", "Qc", "9h", "9s"], "natural": None, "status": "regular",
             "why": ""},
            {"seat": 1, "front": [], "middle": [], "back": [], "natural": None,
             "status": "surrender", "why": ""},
        ],
    }  # fmt: skip
    words = event_words(data, {0: "ann", 1: "ben"})
    assert words == (
        "Hands revealed: ann: front A♠ A♦ 2♣, middle K♣ K♦ 3♥ 4♥ 5♥, back Q♠ Q♦ Q♣ 9♥ 9♠;"
        " ben surrendered"
    )
    assert "None" not in words


def test_no_sentence_shows_a_raw_deadline_or_none():
    data = {"type": "betting_opened", "deadline": 1796066681.53}
    assert event_words(data, {}) == "Bets are open"
