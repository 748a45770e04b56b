"""Which rules package plays each kind of table.

The runtime only knows :class:`games.engine.Game`; this module maps a table's ``game`` to its
engine, and builds a validated config from a preset and options.

Contracts: every games package exports ``GAME`` (its Game), ``make_config``, ``new_table`` and
``PRESETS``. The runtime never looks inside a game's state or config: it holds them as
:data:`TableState` and :data:`TableConfig` and hands each back only to the engine that made it,
so one table's state is only ever read by its own game.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from types import ModuleType

from games.engine import Game
from games.guts.config import ONLINE_PRESETS
from games.guts.pot_return import CLASSIC_STOPS, ONLINE_STOPS
from games.words import words

__all__ = ["Engine", "TableConfig", "TableState", "engine_for"]

#: A game's state as the runtime holds it: opaque, made and read by its own game only.
TableState = object
#: A game's validated config (its ``make_config``'s answer), read by its ``new_table``.
TableConfig = object


@dataclass(frozen=True, slots=True)
class Engine:
    """A game's state machine and how to start a table of it."""

    #: The rules, whose states the runtime holds without looking inside them.
    game: Game[TableState]
    make_config: Callable[[str, Mapping[str, object]], TableConfig]
    new_table: Callable[[TableConfig], TableState]
    presets: tuple[str, ...]
    default_preset: str
    rest_phases: frozenset[str]
    stop_phases: frozenset[str]
    carries_pot: bool

    def can_stop(self, state: TableState) -> bool:
        """No cards are out: a closing table stops here, giving back what is staked (a
        carried pot, antes or bets not yet dealt to), and deals no more."""
        phase = self.game.view(state, None).get("phase")
        return phase in self.stop_phases

    def held_pot(self, state: TableState) -> int:
        """The cents in a Guts pot and reserve, which belong to no one player (the other
        games' stakes are each player's own, and go back with them when they stand up)."""
        if not self.carries_pot:
            return 0
        view = self.game.view(state, None)
        return int(view.get("pot") or 0) + int(view.get("reserve") or 0)

    def at_rest(self, state: TableState, *, empty: bool = False) -> bool:
        """Between hands: nothing is committed to a coming hand, and no deck is wanted.

        ``empty`` also asks for an empty pot and reserve: between rounds of Guts, where a
        table can close without leaving a pot that belongs to nobody.
        """
        view = self.game.view(state, None)
        if view.get("phase") not in self.rest_phases or self.game.wants_deck(state):
            return False
        return not empty or not (view.get("pot") or view.get("reserve"))


#: The phases in which no cards are out, so a closing table stops there rather than deal: the
#: rest phases, and those whose stakes can still go back (Guts' ante call and the moment before
#: a deal, Chinese Poker's before a deal, Three Card Poker's betting).
STOP_PHASES = {
    "guts": ONLINE_STOPS,
    "classic_guts": CLASSIC_STOPS,
    "chinese_poker": frozenset({"waiting", "pause", "ready"}),
    "three_card_poker": frozenset({"idle", "betting"}),
}

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


def _presets(game: str, module: ModuleType) -> tuple[str, ...]:
    """One package plays both Guts tables: the online presets, and every classic one."""
    if game in ("guts", "classic_guts"):
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
        # The package's own state type is erased here, and only here (see the module's
        # contracts): the engine hands each state back to this game alone.
        game=module.GAME,
        make_config=module.make_config,
        new_table=module.new_table,
        presets=presets,
        default_preset=DEFAULT_PRESETS.get(game, presets[0]),
        rest_phases=REST_PHASES[game],
        stop_phases=STOP_PHASES[game],
        carries_pot=game in ("guts", "classic_guts"),
    )
