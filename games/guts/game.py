"""The :class:`~games.engine.Game` object for Guts: one entry point for every Guts table.

>>> from games.engine import Game
>>> game: Game[Any] = GAME
>>> state = new_table(make_config("survivor", {"ante": 100, "seats": 3}))
>>> GAME.wants_deck(state), GAME.deadline(state), GAME.view(state, None)["phase"]
(False, None, 'waiting')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import ConfigError
from games.guts import classic, online, table, views
from games.guts.classic import state as classic_state
from games.guts.classic import views as classic_views
from games.guts.classic.config import CLASSIC_PRESETS, ClassicConfig, classic_config
from games.guts.classic.state import ClassicState
from games.guts.config import ONLINE_PRESETS, OnlineConfig, online_config
from games.guts.table import OnlineState
from games.words import words

__all__ = ["GAME", "PRESETS", "GutsGame", "make_config", "new_table"]

JSON = dict[str, Any]

#: Every Guts preset a table can be created from: the online games, then the classic ones.
PRESETS: tuple[str, ...] = (*ONLINE_PRESETS, *CLASSIC_PRESETS)

Config = OnlineConfig | ClassicConfig
State = OnlineState | ClassicState


def make_config(preset: str, options: Mapping[str, Any] | None = None) -> Config:
    """A validated table config from a preset name and options (money in cents).

    >>> make_config("whist", {})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    games.engine.ConfigError: unknown preset 'whist'; valid presets: monte_carlo, survivor, ...
    """
    if preset in ONLINE_PRESETS:
        return online_config(preset, options)
    if preset in CLASSIC_PRESETS:
        return classic_config(preset, options)
    raise ConfigError(
        words(
            "unknown preset {preset}; valid presets: {presets}",
            preset=repr(preset),
            presets=", ".join(PRESETS),
        )
    )


def new_table(config: Config) -> State:
    """A table's initial state: no players (they join with ``sit``), no round."""
    if isinstance(config, ClassicConfig):
        return classic_state.new_classic_table(config)
    return table.new_table(config)


class GutsGame:
    """Guts as the table runtime sees it (:class:`games.engine.Game`)."""

    name = "guts"

    def apply(self, state: State, action: Mapping[str, Any]) -> tuple[State, tuple[Any, ...]]:
        """The new state and the events of ``action``; :class:`IllegalAction` if not allowed."""
        if isinstance(state, ClassicState):
            return classic.apply(state, action)
        return online.apply(state, action)

    def legal_actions(self, state: State, seat: int) -> list[JSON]:
        """What ``seat`` may do now (``kind`` and limits, such as ``min`` and ``max``)."""
        if isinstance(state, ClassicState):
            return classic_views.classic_legal_actions(state, seat)
        return views.legal_actions(state, seat)

    def deadline(self, state: State) -> float | None:
        """When the next ``timeout`` is due, or ``None`` when nothing waits on the clock."""
        return state.deadline

    def wants_deck(self, state: State) -> bool:
        """Whether the runtime must shuffle and apply ``deal`` next."""
        return state.phase == "deal"

    def view(self, state: State, seat: int | None) -> JSON:
        """What ``seat`` (``None``: a spectator) may see, as JSON."""
        if isinstance(state, ClassicState):
            return classic_views.classic_view(state, seat)
        return views.view(state, seat)

    def dump(self, state: State) -> JSON:
        """The state as JSON."""
        if isinstance(state, ClassicState):
            return classic_state.dump_classic(state)
        return table.dump_state(state)

    def load(self, data: JSON) -> State:
        """A state from :meth:`dump`'s JSON."""
        if data.get("variant") == "classic":
            return classic_state.load_classic(data)
        return table.load_state(data)


#: The module-level game object the runtime uses.
GAME = GutsGame()
