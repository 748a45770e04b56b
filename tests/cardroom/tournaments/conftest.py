"""Fixtures for the sit-and-go tests: a small Guts tournament, and a seeded shuffle."""

from __future__ import annotations

import random

import pytest

from cardroom.tournaments.templates import create_tournament
from games.deck import shuffled_deck

#: A short ladder: the antes double every minute of the table's clock.
LEVELS = [
    {"ante": 10, "minutes": 1},
    {"ante": 40, "minutes": 1},
    {"ante": 100, "minutes": 1},
    {"ante": 250, "minutes": 1},
]


@pytest.fixture
def seeded(monkeypatch):
    """Every deck of the test from one seeded shuffle (the tests pass fixed decks)."""
    rng = random.Random(35)
    monkeypatch.setattr(
        "cardroom.tables.runtime.shuffled_deck", lambda: shuffled_deck(rng.randrange)
    )


@pytest.fixture
def make_tournament(db):
    """A Monte Carlo sit-and-go: $10 buy-in, $1 fee, 1,000 chips, the short ladder, 65/35."""

    def make(**overrides):
        settings = {
            "name": "Monte Carlo SnG",
            "game": "guts",
            "preset": "monte_carlo",
            "seats": 3,
            "buy_in": 1000,
            "fee": 100,
            "chips": 1000,
            "levels": LEVELS,
            "payouts": [6500, 3500],
            **overrides,
        }
        return create_tournament(**settings)

    return make
