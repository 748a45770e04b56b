"""Which rules package plays each kind of table.

The runtime only knows :class:`games.engine.Game`; this module maps a table's ``game`` to its
engine, and builds a validated config from a preset and options.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.words import words

__all__ = ["Engine", "engine_for"]


@dataclass(frozen=True, slots=True)
class Engine:
    """A game's state machine and how to start a table of it."""

    game: Any
    make_config: Callable[[str, Mapping[str, Any]], Any]
    new_table: Callable[[Any], Any]
    presets: tuple[str, ...]
    default_preset: str
    rest_phases: frozenset[str]

    def at_rest(self, state: Any, *, empty: bool = False) -> bool:
        """Between hands: nothing is committed to a coming hand, and no deck is wanted.

        ``empty`` also asks for an empty pot and reserve: between rounds of Guts, where a
        table can close without leaving a pot that belongs to nobody.
        """
        view = self.game.view(state, None)
        if view.get("phase") not in self.rest_phases or self.game.wants_deck(state):
            return False
        return not empty or not (view.get("pot") or view.get("reserve"))


#: Table game → the games package that plays it.
PACKAGES = {
    "guts": "games.guts",
    "classic_guts": "games.guts",
    "chinese_poker": "games.chinese_poker",
    "three_card_poker": "games.three_card_poker",
}

#: The preset a table starts from when none is named (else the package's first).
DEFAULT_PRESETS = {
    "chinese_poker": "unit-1",
    "three_card_poker": "standard",
}


def _presets(game: str, module: Any) -> tuple[str, ...]:
    """One package plays both Guts tables: the online presets, and every classic one."""
    if game in ("guts", "classic_guts"):
        from games.guts.config import ONLINE_PRESETS

        online = tuple(ONLINE_PRESETS)
        if game == "guts":
            return online
        return tuple(name for name in module.PRESETS if name not in online)
    return tuple(module.PRESETS)


#: The phases in which a table is between hands (a pause holds its clock there).
REST_PHASES = {
    "guts": frozenset({"waiting", "pause"}),
    "classic_guts": frozenset({"waiting", "pause"}),
    "chinese_poker": frozenset({"waiting", "pause"}),
    "three_card_poker": frozenset({"idle"}),
}


@cache
def engine_for(game: str) -> Engine:
    """The engine of a table's ``game``; ValueError naming the games there are."""
    if game not in PACKAGES:
        raise ValueError(
            words("unknown game {game}; games: {games}", game=repr(game), games=", ".join(PACKAGES))
        )
    module = importlib.import_module(PACKAGES[game])
    presets = _presets(game, module)
    return Engine(
        game=getattr(module, "GAME", None) or module.GUTS,
        make_config=module.make_config,
        new_table=module.new_table,
        presets=presets,
        default_preset=DEFAULT_PRESETS.get(game, presets[0]),
        rest_phases=REST_PHASES[game],
    )
