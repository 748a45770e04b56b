"""Napalm, or Whipsaw (docs/rules/guts-classic.md, "Games in stages with legs")."""

from __future__ import annotations

import pytest

from games.engine import ConfigError
from games.guts import GAME, make_config
from games.guts.commands import simulate
from tests.games.guts.helpers import of

from .classic_helpers import Classic


def _table(**options: object) -> Classic:
    return Classic("napalm", rake_basis_points=0, **options)


def test_declarations_are_in_turn_and_the_dealer_is_never_in_automatically() -> None:
    table = _table()
    table.deal(P1="Kc Kd", P2="5c 4d", P0="Ac Ad")
    table.declare(P1="out", P2="out")
    assert table.state.turn == 0
    assert {"kind": "declare", "choices": ["in", "out"]} in GAME.legal_actions(table.state, 0)


def test_the_dealers_late_in_lets_the_others_switch_to_in() -> None:
    table = _table()
    table.deal(P1="Kc Kd", P2="5c 4d", P0="Ac Ad")
    events = table.declare(P1="out", P2="out", P0="in")
    assert table.state.challenge and table.state.turn == 1 and of(events, "seat_paid") == []
    events = table.declare(P1="in", P2="out")
    assert [(e["seat"], e["choice"]) for e in of(events, "declared")] == [(1, "in"), (2, "out")]
    shown = [e for e in events if e.type == "hand_shown_privately"]
    assert [(e.seat, e.seats) for e in shown] == [(1, (1, 0)), (0, (1, 0))]
    assert of(events, "seat_paid") == [{"type": "seat_paid", "payer": 1, "payee": 0, "amount": 300}]


def test_everyone_out_then_the_dealer_out_is_nothing() -> None:
    table = _table()
    table.deal()
    events = table.declare(P1="out", P2="out", P0="out")
    assert of(events, "token_won") == [] and table.state.phase == "stage_over"


def test_the_low_stage_plays_five_cards_deuce_to_seven_and_seven_cards_play_high() -> None:
    table = _table()
    table.deal(P1="7c 5d", P2="Kc Qd", P0="Ac 5h", stock="4h Jc 4d 3s Jd 3h 2c Js 2s")
    table.declare(P1="out", P2="in", P0="out")  # P2's token
    events = table.timeout()
    assert of(events, "stage_started")[0]["direction"] == "low"
    events = table.declare(P1="in", P2="out", P0="in")
    descriptions = {e.seat: e.description for e in events if e.type == "hand_shown_privately"}
    assert descriptions == {1: "seven-high (7-5-4-3-2) (low)", 0: "ace-high (A-5-4-3-2) (low)"}
    assert of(events, "seat_paid") == [{"type": "seat_paid", "payer": 0, "payee": 1, "amount": 300}]
    events = table.timeout()
    assert of(events, "stage_started")[0]["direction"] == "high"
    assert len(table.state.cards[0]) == 7 and table.state.wild == ""
    events = table.declare(P1="in", P2="in", P0="out")
    assert len(of(events, "hand_shown")) == 2  # the last stage is public


def test_a_lone_in_takes_a_token_and_the_tokens_to_win_take_the_pot() -> None:
    table = _table(to_win=2)
    table.deal()
    events = table.declare(P1="in", P2="out", P0="out")
    assert of(events, "token_won") == [{"type": "token_won", "seat": 1, "total": 1}]
    table.timeout()
    events = table.declare(P1="in", P2="out", P0="out")
    assert of(events, "pot_won") == [{"type": "pot_won", "seat": 1, "amount": 300}]
    assert of(events, "round_ended")[0]["reason"] == "tokens_won"
    assert GAME.view(table.state, 1)["seats"][1]["tokens"] == 2


def test_napalm_defaults_and_options() -> None:
    config = make_config("napalm", {"ante": 100})
    assert (config.to_win, config.declare, config.dealer_challenge) == (5, "sequential", True)
    with pytest.raises(ConfigError, match="napalm plays with declare=sequential"):
        make_config("napalm", {"ante": 100, "declare": "simultaneous"})
    assert simulate(preset="napalm", players=7, hands=40, seed=2)["conserved"]
