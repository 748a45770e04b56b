"""Chinese Poker (docs/rules/chinese-poker.md): the table's state machine, naturals, scoring with
the table-stakes caps, and the best-arrangement solver.

>>> from games.cards import parse_cards
>>> best = best_arrangement(parse_cards("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd Qh Ks Ac"))
>>> best.natural, len(best.front), len(best.middle), len(best.back)
('dragon', 3, 5, 5)
"""

from games.chinese_poker.config import (
    PRESETS,
    ChinesePokerConfig,
    config_from_json,
    make_config,
    preset,
)
from games.chinese_poker.engine import GAME, ChinesePokerGame, new_table
from games.chinese_poker.naturals import NATURAL_VALUES, NATURALS, find_natural, makes_natural
from games.chinese_poker.scoring import HandScore, PlayerHand, score_hand
from games.chinese_poker.solver import Arrangement, best_arrangement, expected_units
from games.chinese_poker.state import ChinesePokerState

__all__ = [
    "GAME",
    "NATURALS",
    "NATURAL_VALUES",
    "PRESETS",
    "Arrangement",
    "ChinesePokerConfig",
    "ChinesePokerGame",
    "ChinesePokerState",
    "HandScore",
    "PlayerHand",
    "best_arrangement",
    "config_from_json",
    "expected_units",
    "find_natural",
    "make_config",
    "makes_natural",
    "new_table",
    "preset",
    "score_hand",
]
