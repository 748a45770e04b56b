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

__all__ = ["Engine", "engine_for"]


@dataclass(frozen=True, slots=True)
class Engine:
    """A game's state machine and how to start a table of it."""

    game: Any
    make_config: Callable[[str, Mapping[str, Any]], Any]
    new_table: Callable[[Any], Any]
    presets: tuple[str, ...]


#: Table game → the games package that plays it.
PACKAGES = {
    "guts": "games.guts",
}


@cache
def engine_for(game: str) -> Engine:
    """The engine of a table's ``game``; ValueError naming the games there are."""
    if game not in PACKAGES:
        raise ValueError(f"unknown game {game!r}; games: {', '.join(PACKAGES)}")
    module = importlib.import_module(PACKAGES[game])
    return Engine(
        game=getattr(module, "GAME", None) or module.GUTS,
        make_config=module.make_config,
        new_table=module.new_table,
        presets=tuple(module.PRESETS),
    )
