"""Three Card Poker against the house, with exact odds (docs/rules/three-card-poker.md).

- :data:`GAME` (:class:`ThreeCardPoker`): the table's state machine (games/engine.py);
  :func:`new_table` makes an empty table for a :class:`TableConfig`.
- :class:`TableConfig`, :class:`PayTables`, :data:`PRESETS`: settings and pay tables;
  :func:`make_config` builds a table's settings from a preset and options.
- :func:`exact_odds` and :func:`should_play`: the exact house edges and the best strategy.

>>> from games.three_card_poker import GAME, TableConfig, new_table
>>> GAME.view(new_table(TableConfig(seats=1)), None)["phase"]
'idle'
"""

from games.three_card_poker.config import (
    PRESETS,
    PayTables,
    TableConfig,
    config_from_json,
    make_config,
    preset,
)
from games.three_card_poker.game import GAME, ThreeCardPoker, new_table
from games.three_card_poker.odds import Odds, exact_odds, should_play

__all__ = [
    "GAME",
    "PRESETS",
    "Odds",
    "PayTables",
    "TableConfig",
    "ThreeCardPoker",
    "config_from_json",
    "exact_odds",
    "make_config",
    "new_table",
    "preset",
    "should_play",
]
