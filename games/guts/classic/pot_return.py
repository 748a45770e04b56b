"""A carried pot and reserve given back when a classic Guts table stops between hands.

The shares, and how a departed player is named, are the online game's (games/guts/pot_return.py);
a classic table also gives back its reserve, and ends the game under way.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.guts import events as ev
from games.guts.classic.state import ClassicState
from games.guts.pot_return import CLASSIC_STOPS, between_hands, credited, read_returns, woken

__all__ = ["return_classic_pot"]

Events = list[Any]


def return_classic_pot(
    state: ClassicState, action: Mapping[str, Any], now: float, events: Events
) -> ClassicState:
    """``return_pot`` at a classic table: the game under way ends, pot and reserve go back."""
    between_hands(state.phase, CLASSIC_STOPS)
    shares = read_returns(action, state.seats, state.pot + state.reserve)
    events.append(ev.PotReturned(shares, state.reserve))
    if state.game_active:
        events.append(ev.RoundEnded(state.game, "pot_returned"))
    count = len(state.seats)
    seats = credited(state.seats, shares)
    config = state.config
    return replace(
        state, seats=tuple(seats), **woken(seats, config.ante, now, config.showdown_seconds),
        pot=0, reserve=0, game_active=False, excused=(), dealt=(), turn=None, challenge=False,
        stage=1, marks=(0,) * count, target=0, kept=((),) * count, stage_result=(),
    )  # fmt: skip
