"""Every hand ranking of the cardroom (docs/rules/), and a fast path for the engines.

- :func:`rank_hand` ``(kind, cards, **options) -> HandValue``: ordered (greater is better,
  equal ties), with ``.category`` and a readable ``str()``.
- :func:`key_function` ``(kind, **options)``: a function from card indices (``Card.index``)
  to the same int keys, for hot loops; :func:`category_of` and :func:`value_of` go back from
  a key; :func:`three_card_table` is the three-card table itself.
- :func:`row_at_least` and :func:`rows_in_order`: the Chinese Poker row-order check.

Kinds: ``one_card``, ``two_card``, ``three_card``, ``five_card``, ``best_five``,
``three_five_seven_stage_one``, ``low_nuts``, ``low_napalm``, ``chinese_front``.

>>> from games.evaluators import rank_hand
>>> str(rank_hand("three_card", "9c 9d Kh"))
'pair of nines, king kicker'
>>> four_twos = rank_hand("five_card", "2s 2h 2d 2c As")
>>> five_aces = rank_hand("five_card", "Ad 2h 2d 2c As", wild_ranks="2")
>>> str(five_aces), five_aces > four_twos
('five aces', True)
"""

from .kinds import KINDS, category_of, key_function, rank_hand, three_card_table, value_of
from .rows import row_at_least, rows_in_order
from .values import CATEGORIES, EvaluatorError, HandValue

__all__ = [
    "CATEGORIES",
    "KINDS",
    "EvaluatorError",
    "HandValue",
    "category_of",
    "key_function",
    "rank_hand",
    "row_at_least",
    "rows_in_order",
    "three_card_table",
    "value_of",
]
