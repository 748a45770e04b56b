"""Guts as pure state machines: online Monte Carlo and Survivor (docs/rules/guts-online.md) and
classic Guts with its options and presets (docs/rules/guts-classic.md): the one-deal games, the
games with a second deal (Four-Two-Two, Four-Two-Three), the games in stages (Three-Five-Seven,
Nuts, Napalm) and Toh.

:data:`GAME` is the :class:`games.engine.Game` the table runtime uses; :func:`make_config`
builds a validated config from a preset and options; :func:`new_table` gives the empty table
that players join with ``sit``.

>>> config = make_config("monte_carlo", {"ante": 25})
>>> config.match_cap, config.min_buy_in
(500, 2500)
>>> GAME.name, GAME.view(new_table(make_config("kitty", {"ante": 25})), None)["phase"]
('guts', 'waiting')
"""

from games.guts.game import GAME, PRESETS, GutsGame, make_config, new_table

__all__ = ["GAME", "PRESETS", "GutsGame", "make_config", "new_table"]
