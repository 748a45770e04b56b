"""Properties of the games with several deals and stages under random legal play (4-2-2,
4-2-3, 3-5-7, Nuts, Napalm, Toh): the promises of :mod:`test_classic_properties` (chips
conserved, no card twice, every hand finishes, no view or event leaks a hidden hand, and only
the players In see a private comparison), over longer sessions; and bots finish whole games.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import split_amount
from games.guts.classic.config import CLASSIC_PRESETS
from games.guts.commands import simulate

from .classic_helpers import Classic, play_randomly

_NEW = [preset for preset, values in CLASSIC_PRESETS.items() if "flow" in values]
_TABLES: list[tuple[str, dict[str, Any]]] = [(preset, {}) for preset in _NEW] + [
    ("three_five_seven", {"declare": "sequential", "dealer_challenge": True}),
    ("nuts", {"declare": "sequential", "to_win": 1}),
    ("napalm", {"to_win": 1}),
    ("toh", {"to_win": 3, "decision_seconds": 0}),
    ("four_two_two", {"lone_vs_deck": True, "dropped_pay_ante": True, "max_loss": 150}),
]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(table=st.sampled_from(_TABLES), seats=st.integers(2, 6), data=st.data())
def test_random_play_of_the_games_in_stages_keeps_every_promise(
    table: tuple[str, dict[str, Any]], seats: int, data: st.DataObject
) -> None:
    play_randomly(table, seats, data, most_steps=200)


def test_the_presets_are_the_pages_games() -> None:
    assert _NEW == [
        "four_two_two",
        "four_two_three",
        "three_five_seven",
        "nuts",
        "napalm",
        "toh",
    ]


@pytest.mark.parametrize("preset", _NEW)
@pytest.mark.parametrize("players", [2, 5])
def test_bots_finish_whole_games_of_each(preset: str, players: int) -> None:
    result = simulate(preset=preset, players=players, hands=60, seed=11)
    assert result["conserved"] and result["rounds"] >= 2  # a game ended, another began


#: Up to four hands that tie at each game's first stage, and a hand that loses to them.
_TIES = {
    "three_five_seven": (("Ac Qd 9h", "Ad Qh 9s", "Ah Qs 9c", "As Qc 9d"), "4c 5d 8h"),
    "nuts": (("Ac 2d", "Ad 2h", "Ah 2s", "As 2c"), "Kc Qd"),
    "napalm": (("Ac Kd", "Ad Kh", "Ah Ks", "As Kc"), "4c 2d"),
}


@settings(max_examples=80, deadline=None, derandomize=True)
@given(
    preset=st.sampled_from(sorted(_TIES)),
    winners=st.integers(2, 4),
    data=st.data(),
)
def test_a_losers_payment_to_tied_best_hands_is_split_by_the_odd_cent_rule(
    preset: str, winners: int, data: st.DataObject
) -> None:
    """Each best hand is owed the pot; a loser pays all it owes or all it has, split between
    the best hands in floor shares, the odd cents in seat order from the button."""
    players = winners + 1
    ante = data.draw(st.integers(1, 250), label="ante")
    pot = ante * players
    loser = data.draw(st.integers(0, winners), label="loser's seat")
    button = data.draw(st.integers(0, winners), label="button")
    left = data.draw(st.integers(0, winners * pot + 7), label="loser's stack after the ante")
    stacks = tuple(ante + left if seat == loser else 100 * pot for seat in range(players))
    table = Classic(preset, stacks, button=button, ante=ante, rake_basis_points=0)
    hands, losing = _TIES[preset]
    best = [seat for seat in range(players) if seat != loser]
    given = {f"P{seat}": hands[best.index(seat)] for seat in best} | {f"P{loser}": losing}
    table.deal(**given)
    for seat in table.state.dealt:
        table.act("declare", seat, choice="in")
    paid = [e for e in table.events if e.type == "seat_paid"]
    assert all(e.payer == loser for e in paid)
    expected = split_amount(min(left, winners * pot), best, button)
    assert {e.payee: e.amount for e in paid} == {s: a for s, a in expected.items() if a}
    assert len(paid) == len({e.payee for e in paid})
    assert table.total() == sum(stacks)
