"""The command line's Three Card Poker commands (games/cli.py, three_card_poker/commands.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.cli import main
from games.three_card_poker import commands

SCRIPT: dict[str, Any] = {
    "game": "three-card-poker",
    "options": {"preset": "standard", "max_pair_plus": 500},
    "players": {"A": 10_000, "B": 5_000},
    "hands": [
        {
            "bets": {"A": {"ante": 100, "pair_plus": 50}, "B": {"ante": 200}},
            "cards": {"A": "As Ad 2c", "B": "Kh Qh Jh"},
            "dealer": "Ks Qd 3c",
            "decisions": {"A": "play", "B": "fold"},
        },
        {
            "bets": {"B": {"ante": 100}},
            "cards": {"B": "9c Td Js"},
            "dealer": "Jc Th 8s",
            "decisions": {},
        },
    ],
}


def test_script_plays_each_hand_and_reports_stacks_and_results() -> None:
    result = commands.script(SCRIPT)
    first = result["hands"][0]
    assert first["dealer"] == "Ks Qd 3c"
    assert first["qualifies"] is True
    assert first["results"]["A"] == {
        "bets": [
            {"bet": "ante", "outcome": "won", "stake": 100, "paid": 200},
            {"bet": "play", "outcome": "won", "stake": 100, "paid": 200},
            {"bet": "pair_plus", "outcome": "won", "stake": 50, "paid": 100},
        ],
        "cards": "As Ad 2c",
        "hand": "pair of aces, two kicker",
        "decision": "play",
        "net": 250,
    }
    assert first["results"]["B"]["net"] == -200
    assert first["results"]["B"]["decision"] == "fold"
    second = result["hands"][1]
    assert list(second["results"]) == ["B"]  # A did not bet: A sat the round out
    assert second["results"]["B"]["decision"] == "fold"  # no decision in time
    assert result["players"] == {"A": 10_250, "B": 4_700}
    assert result["house"] == -250 + 200 + 100
    assert result["conserved"] is True


def one_hand(cards: str, dealer: str) -> dict[str, Any]:
    return {"hands": [{"bets": {"A": {"ante": 100}}, "cards": {"A": cards}, "dealer": dealer}]}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": {}}, "seats 1 to 6 players"),
        ({"options": {"ante": 1}}, "unknown setting 'ante'"),
        ({"game": "guts"}, "for 'guts'"),
        ({"hands": [{"bets": {"Z": {"ante": 100}}}]}, "hand 1: unknown player 'Z'"),
        ({"hands": [{"bets": {"A": {"pair_plus": 100}}}]}, "hand 1: an Ante is needed"),
        (
            one_hand("As Ad", "2c 3c 4c"),
            "hand 1: each player dealt in and the dealer need exactly three cards",
        ),
        (
            one_hand("As Ad 2c", "2c 3c 4c"),
            "hand 1: a card appears twice",
        ),
        (
            one_hand("As Ad 2x", "2c 3c 4c"),
            "hand 1: not a card: '2x'",
        ),
    ],
)
def test_bad_scripts_raise_value_error(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        commands.script({**SCRIPT, **change})


def test_simulate_conserves_chips_and_reports_the_house_result() -> None:
    result = commands.simulate(preset="low", players=3, hands=50, seed=7)
    assert result["hands"] == 50
    assert result["rounds"] == 150
    assert result["conserved"] is True
    assert isinstance(result["house_result"], int)
    assert result == commands.simulate(preset="low", players=3, hands=50, seed=7)


def test_simulate_refuses_more_players_than_seats() -> None:
    with pytest.raises(ValueError, match="seats 1 to 1 players, not 2"):
        commands.simulate(preset="solo", players=2, hands=1, seed=0)


def test_cli_odds_prints_exact_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "three-card-poker", "--json", "--pair-plus", "1,3,6,30,40"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["pair_plus_house_edge"] == {"fraction": "402/5525", "decimal": "0.0727601810"}
    assert data["play_threshold"]["text"] == "Q 6 4"


def test_cli_odds_with_a_bad_table_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["odds", "three-card-poker", "--ante-bonus", "1,4"]) == 2
    assert "ante_bonus needs 3 whole payouts" in capsys.readouterr().err


def test_cli_script_reads_a_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(SCRIPT), encoding="utf-8")
    assert main(["script", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["players"] == {"A": 10_250, "B": 4_700}


def test_bench_quick_gives_positive_figures() -> None:
    figures = commands.bench(quick=True)
    assert set(figures) == {
        "three_card_poker_rounds_per_second",
        "three_card_poker_odds_seconds",
    }
    assert all(value > 0 for value in figures.values())
