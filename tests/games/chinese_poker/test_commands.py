"""The command line's Chinese Poker commands: score, solve, script, simulate, bench."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest

from games import cli
from games.chinese_poker import commands
from tests.games.chinese_poker.helpers import SEED_TALLY


def seed_players(stack: int = 10_000) -> list[dict[str, Any]]:
    return [
        {"name": name, "stack": stack, "front": f, "middle": m, "back": b}
        for name, (f, m, b) in SEED_TALLY.items()
    ]


def test_score_the_seed_tally() -> None:
    result = commands.score({"unit": 100, "button": 0, "players": seed_players()})
    assert result["units"] == {"A": 3, "B": -7, "C": 5, "D": -1}
    assert result["pairs"][0] == {
        "players": ["A", "B"],
        "rows": [1, 1, 1],
        "total": 3,
        "reason": "rows",
    }
    assert result["payments"][:2] == [
        {"from": "B", "to": "A", "amount": 300},
        {"from": "A", "to": "C", "amount": 100},
    ]
    assert result["stacks"] == {"A": 10_300, "B": 9_300, "C": 10_500, "D": 9_900}


def test_score_with_a_surrender_and_no_rows() -> None:
    players = [*seed_players()[:2], {"name": "E", "stack": 200, "surrender": True}]
    players[1]["natural"] = "dragon"
    result = commands.score({"unit": 100, "button": 2, "players": players})
    assert result["hands"]["B"] == {
        "status": "foul",
        "natural": None,
        "why": "false claim of dragon",
    }
    # B's false claim fouls: B pays A 3; E's surrender pays A and B 3 each.
    assert result["units"] == {"A": 6, "B": 0, "E": -6}
    assert result["stacks"]["E"] == 0


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"front": "Ah Kd"}, "A's front row needs 3 cards, not 2"),
        ({"front": "4s 4d Kd"}, "card Kd appears twice"),
        ({"natural": "royal"}, "unknown natural 'royal'"),
        ({"middle": "Ks Kc 9d 7h 1d"}, "A's middle: not a card: '1d'"),
    ],
)
def test_score_bad_input_says_what_is_wrong(change: dict[str, str], message: str) -> None:
    players = seed_players()
    players[0].update(change)
    with pytest.raises(ValueError, match=message):
        commands.score({"unit": 100, "button": 0, "players": players})


def test_solve_gives_rows_natural_and_hand_names() -> None:
    result = commands.solve("As Kd Qc Jh 9s 8s 7s 6s 2s 2d 3c 4h 5d")
    assert {key: result[key] for key in ("front", "middle", "back", "natural")} == {
        "front": "Kd Qc Jh",
        "middle": "6s 5d 4h 3c 2d",
        "back": "As 9s 8s 7s 2s",
        "natural": None,
    }
    assert result["hands"] == {
        "front": "king-high (K-Q-J)",
        "middle": "straight, 6-high",
        "back": "flush, ace-high (A-9-8-7-2)",
    }


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("As Kd Qc", "13 cards, not 3"),
        ("As As Qc Jh 9s 8s 7s 6s 2s 2d 3c 4h 5d", "card As appears twice"),
    ],
)
def test_solve_bad_input(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        commands.solve(text)


def test_cli_score_reads_standard_input_and_exits_2_on_bad_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = {"unit": 100, "button": 0, "players": seed_players()}
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(data)))
    assert cli.main(["score", "chinese-poker", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["units"]["B"] == -7
    data["players"][0]["natural"] = "flush"
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(data)))
    assert cli.main(["score", "chinese-poker", "--json"]) == 2
    assert "unknown natural 'flush'" in capsys.readouterr().err


def test_script_plays_the_seed_hand_through_the_engine() -> None:
    cards = {seat: " ".join(rows) for seat, rows in enumerate(SEED_TALLY.values())}
    play = {
        str(seat): dict(zip(("front", "middle", "back"), rows, strict=True))
        for seat, rows in enumerate(SEED_TALLY.values())
    }
    data = {
        "game": "chinese_poker",
        "preset": "unit-1",
        "players": [{"seat": s, "name": n, "stack": 10_000} for s, n in enumerate("ABCD")],
        "hands": [{"cards": {str(s): text for s, text in cards.items()}, "play": play}],
    }
    result = commands.script(data)
    hand = result["hands"][0]
    assert hand["button"] == "A"
    assert hand["units"] == {"A": 3, "B": -7, "C": 5, "D": -1}
    assert result["stacks"] == {"A": 10_280, "B": 9_280, "C": 10_480, "D": 9_880}
    assert result["rake"] == 80
    assert result["conserved"] is True


def test_script_leaves_missing_plays_to_the_timeout() -> None:
    data = {
        "game": "chinese_poker",
        "config": {"unit": 50, "timeout": "surrender"},
        "players": [{"seat": 0, "stack": 1_000}, {"seat": 1, "stack": 1_000}],
        "hands": [{"play": {"0": "solver"}}],
    }
    result = commands.script(data)
    assert result["hands"][0]["units"] == {"seat 0": 3, "seat 1": -3}
    assert result["conserved"] is True


def test_script_refuses_an_illegal_action() -> None:
    data = {
        "game": "chinese_poker",
        "players": [{"seat": 0, "stack": 100}, {"seat": 1, "stack": 5_000}],
        "hands": [],
    }
    with pytest.raises(ValueError, match=r"illegal action: the minimum buy-in is \$20.00"):
        commands.script(data)


def test_simulate_conserves_chips_and_takes_the_fee() -> None:
    result = commands.simulate(preset="unit-25c", players=3, hands=4, seed=3)
    assert result["conserved"] is True
    assert result["rake"] == 4 * 3 * 5
    assert sum(result["net"].values()) == -result["rake"]


def test_simulate_refuses_too_many_players() -> None:
    with pytest.raises(ValueError, match="players must be from 2 to 4"):
        commands.simulate(preset=None, players=5, hands=1, seed=0)


def test_presets_and_bench() -> None:
    assert commands.PRESETS == ("unit-25c", "unit-50c", "unit-1", "unit-2", "unit-5", "unit-10")
    figures = commands.bench(quick=True)
    assert list(figures) == ["chinese_solver_median_ms"]
    assert figures["chinese_solver_median_ms"] > 0
