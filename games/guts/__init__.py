"""Guts: online Monte Carlo and Survivor (rules/guts-online.md) as a pure state machine.

>>> config = make_config("monte_carlo", {"ante": 25})
>>> config.match_cap, config.min_buy_in
(500, 2500)
>>> GUTS.name
'guts'
"""

from games.guts.game import GUTS, PRESETS, GutsGame, make_config, new_table

__all__ = ["GUTS", "PRESETS", "GutsGame", "make_config", "new_table"]
