"""Properties of classic Guts under random legal play, for every classic preset.

Chips are conserved (stacks, pot and reserve equal the money moved into them), no card is dealt
twice in a hand, every hand finishes, and no view or readable event shows a hidden hand: at a
private comparison (3-5-7, Napalm) only the players In see the In hands.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.guts.classic.config import CLASSIC_PRESETS
from tests.games.guts.classic.classic_helpers import play_randomly

#: Options no preset sets, played too.
_VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("three_card", {"pass_left": True}),
    ("three_card", {"partial_reveal": True, "declare": "simultaneous"}),
    ("two_card", {"dealer_challenge": True, "payment_multiple": 2}),
    ("simultaneous", {"all_out": "henry"}),
    ("simultaneous", {"all_out": "wimp", "single_in_needs": "pair"}),
    ("two_card", {"winner_takes_pot": False, "pot_limit": None}),
    ("two_plus_one", {"second_declare": True, "declare": "simultaneous"}),
    ("two_plus_one", {"second_declare": True, "dealer_challenge": True}),
    ("four_two_two", {"lone_vs_deck": True, "nobody_plays_penalty": True, "max_loss": 500}),
    ("four_two_three", {"dropped_pay_ante": True, "all_out": "chicken_fee"}),
]


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(
    table=st.sampled_from([(preset, {}) for preset in CLASSIC_PRESETS] + _VARIANTS),
    seats=st.integers(2, 5),
    data=st.data(),
)
def test_random_legal_classic_play_keeps_every_promise(
    table: tuple[str, dict[str, Any]], seats: int, data: st.DataObject
) -> None:
    play_randomly(table, seats, data, most_steps=120)


#: Tables where a rule governs a lone hand: the dealer has no automatic In (an In must be
#: chosen, which the audit checks), and all Out brings the table's all-Out rule.
_GOVERNED: list[tuple[str, dict[str, Any]]] = [
    ("kitty", {}),
    ("ghost_when_alone", {}),
    ("winner_takes_all", {}),
    ("two_card", {"single_in_needs": "pair"}),
    ("two_card", {"dealer_challenge": True}),
    ("kitty", {"cards": 3, "payers": "worst_losers"}),
]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(table=st.sampled_from(_GOVERNED), seats=st.integers(2, 4), data=st.data())
def test_where_a_rule_governs_a_lone_hand_every_in_is_chosen(
    table: tuple[str, dict[str, Any]], seats: int, data: st.DataObject
) -> None:
    play_randomly(table, seats, data, most_steps=120, automatic_in=False)
