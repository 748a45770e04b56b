"""Properties of the games with several deals and stages under random legal play (4-2-2,
4-2-3, 3-5-7, Nuts, Napalm, Toh): the promises of :mod:`test_classic_properties` (chips
conserved, no card twice, every hand finishes, no view or event leaks a hidden hand, and only
the players In see a private comparison), over longer sessions; and bots finish whole games.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.guts.classic_config import CLASSIC_PRESETS
from games.guts.commands import simulate

from .test_classic_properties import play_randomly

_NEW = [preset for preset, values in CLASSIC_PRESETS.items() if "flow" in values]
_TABLES: list[tuple[str, dict[str, Any]]] = [(preset, {}) for preset in _NEW] + [
    ("three_five_seven", {"declare": "sequential", "dealer_challenge": True}),
    ("nuts", {"declare": "sequential", "to_win": 1}),
    ("napalm", {"to_win": 1}),
    ("toh", {"to_win": 3, "decision_seconds": 0}),
    ("four_two_two", {"lone_vs_deck": True, "dropped_pay_ante": True, "max_loss": 150}),
]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(table=st.sampled_from(_TABLES), seats=st.integers(2, 6), data=st.data())
def test_random_play_of_the_games_in_stages_keeps_every_promise(
    table: tuple[str, dict[str, Any]], seats: int, data: st.DataObject
) -> None:
    play_randomly(table, seats, data, most_steps=200)


def test_the_presets_are_the_pages_games() -> None:
    assert _NEW == [
        "four_two_two",
        "four_two_three",
        "three_five_seven",
        "nuts",
        "napalm",
        "toh",
    ]


@pytest.mark.parametrize("preset", _NEW)
@pytest.mark.parametrize("players", [2, 5])
def test_bots_finish_whole_games_of_each(preset: str, players: int) -> None:
    result = simulate(preset=preset, players=players, hands=60, seed=11)
    assert result["conserved"] and result["rounds"] >= 2  # a game ended, another began
