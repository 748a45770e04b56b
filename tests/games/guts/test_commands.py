"""Guts on the command line: presets, simulate, script, bench (games/cli.py calls these)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from games.cli import main
from games.guts import commands

BRIEF_SCRIPT: dict[str, Any] = {
    "game": "guts",
    "preset": "survivor",
    "options": {"ante": 100, "match_cap": 2000},
    "button": "A",
    "players": {"A": 10000, "B": 10000, "C": 10000},
    "hands": [
        {
            "antes": ["A", "B", "C"],
            "cards": {"A": "As Ad 2c", "B": "Ks Kd 3c", "C": "Qs Jd 9c"},
            "declare": {"A": "in", "B": "in"},
            "top_up": {"B": 500},
        }
    ],
}


def test_presets_lists_the_online_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["presets", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["guts"][:2] == ["monte_carlo", "survivor"]


@pytest.mark.parametrize("preset", commands.PRESETS)
def test_simulate_plays_the_hands_asked_and_conserves_chips(preset: str) -> None:
    result = commands.simulate(preset=preset, players=5, hands=150, seed=3)
    assert result["hands"] == 150
    assert result["conserved"] is True
    assert result["rounds"] >= 1
    assert result["rake"] > 0
    assert result["biggest_pot"] >= 500


def test_simulate_is_repeatable_with_a_seed() -> None:
    first = commands.simulate(preset="survivor", players=4, hands=60, seed=9)
    assert commands.simulate(preset="survivor", players=4, hands=60, seed=9) == first
    assert commands.simulate(preset="survivor", players=4, hands=60, seed=10) != first


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"preset": "nope", "players": 3, "hands": 1}, "unknown guts preset 'nope'"),
        ({"preset": None, "players": 1, "hands": 1}, "2 to 10 players"),
        ({"preset": None, "players": 11, "hands": 1}, "2 to 10 players"),
    ],
)
def test_simulate_refuses_bad_arguments(arguments: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        commands.simulate(seed=0, **arguments)


def test_the_brief_script_settles_its_hand() -> None:
    result = commands.script(BRIEF_SCRIPT)
    assert result["stacks"] == {"A": 10_191, "B": 9_600 + 500, "C": 9_900}
    assert result["rake"] == 9
    assert result["round_over"] is False
    assert result["pot"] == 300
    (hand,) = result["hands"]
    assert hand["pot"] == 300
    assert hand["winners"] == {"A": 291}
    assert hand["payments"] == {"B": 300}
    assert hand["in"] == ["B", "A"]
    assert hand["shown"] == {"B": "Ks Kd 3c", "A": "As Ad 2c"}


def test_a_script_plays_through_a_short_payer_and_a_second_hand() -> None:
    data = {
        "game": "guts",
        "preset": "monte_carlo",
        "options": {"ante": 100},
        "button": "C",
        "players": {"A": 10000, "B": 350, "C": 10000},
        "hands": [
            {"antes": ["A", "B", "C"], "cards": {"A": "As Ad 2c", "B": "Ks Kd 3c"},
             "declare": {"A": "in", "B": "in", "C": "out"}},
            {"antes": ["C"], "cards": {"A": "2s 3d 7c", "C": "Qs Qd 9c"},
             "declare": {"A": "in", "C": "in"}},
        ],
    }  # fmt: skip
    result = commands.script(data)
    first, second = result["hands"]
    assert first["owed"] == {"B": 300}
    assert first["payments"] == {}
    assert second["players"] == ["C", "A"]
    assert second["antes"] == ["C"]  # A won the first hand: excused from the ante
    assert second["pot"] == 250 + 100
    assert second["winners"] == {"C": 340}
    assert result["stacks"] == {"A": 10_191 - 350, "B": 0, "C": 9_800 + 340}
    assert sum(result["stacks"].values()) + result["pot"] + result["rake"] == 20_350


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"players": {"A": 100}}, "2 to 10 players"),
        ({"button": "Z"}, "button 'Z' is not a player"),
        ({"preset": "chess"}, "unknown preset 'chess'"),
        ({"hands": [{"antes": ["Q"]}]}, "no player 'Q'"),
        ({"hands": [{"antes": ["A", "B"], "cards": {"A": "As As 2c"}}]}, "As appears twice"),
        ({"hands": [{"antes": ["A", "B"], "cards": {"A": "As", "B": "As Kd 2c"}}]}, "got 1: As"),
        ({"hands": [{"antes": ["A", "B"], "cards": {"C": "As Kd 2c"}}]}, "C is not in this hand"),
        ({"hands": [{"antes": ["A"]}]}, "fewer than two players anted"),
        ({"hands": [{"antes": ["A", "B"], "declare": {"A": "maybe"}}]}, "choose 'in'"),
    ],
)
def test_a_bad_script_says_what_is_wrong(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        commands.script({**BRIEF_SCRIPT, **change})


def test_the_script_command_prints_json_and_exits_2_on_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(BRIEF_SCRIPT))
    assert main(["script", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["stacks"]["A"] == 10_191
    path.write_text(json.dumps({**BRIEF_SCRIPT, "button": "Z"}))
    assert main(["script", str(path), "--json"]) == 2
    assert "button 'Z'" in capsys.readouterr().err


def test_bench_reports_survivor_hands_per_second() -> None:
    figures = commands.bench(quick=True)
    assert list(figures) == ["survivor_hands_per_s"]
    assert figures["survivor_hands_per_s"] > 0


def test_a_classic_script_plays_the_seed_reserve_example() -> None:
    data = {
        "game": "guts",
        "preset": "two_card",
        "options": {"ante": 20, "pot_limit": 100, "rake_basis_points": 0},
        "button": "D",
        "players": {"A": 10000, "B": 10000, "C": 10000, "D": 10000},
        "hands": [
            {"cards": {"A": "As Ad", "B": "Ks Kd", "C": "Qs Qd", "D": "Js Jd"},
             "declare": {"A": "in", "B": "in", "C": "in", "D": "in"}},
            {"declare": {"B": "in", "C": "out", "D": "out", "A": "out"}},
            {"declare": {"C": "in", "D": "out", "A": "out", "B": "out"}},
        ],
    }  # fmt: skip
    result = commands.script(data)
    assert [hand["pot"] for hand in result["hands"]] == [80, 100, 100]
    assert result["hands"][0]["payments"] == {"B": 80, "C": 80, "D": 80}
    assert result["hands"][1]["winners"] == {"B": 100}
    assert (result["pot"], result["reserve"]) == (40, 0)
    assert result["round_over"] is False
    assert sum(result["stacks"].values()) + result["pot"] == 40_000


def test_a_classic_script_with_a_ghost_a_pass_and_a_second_declare() -> None:
    kitty = {
        "game": "guts",
        "preset": "kitty",
        "options": {"ante": 100, "declare": "simultaneous"},
        "players": {"A": 10000, "B": 10000},
        "hands": [{"cards": {"A": "As Kd"}, "ghost": "Ad Ks", "declare": {"A": "in"}}],
    }
    (hand,) = commands.script(kitty)["hands"]
    assert hand["payments"] == {"A": 200}
    passing = {
        "game": "guts",
        "preset": "three_card",
        "options": {"ante": 100, "pass_left": True},
        "button": "B",
        "players": {"A": 10000, "B": 10000},
        "hands": [
            {"cards": {"A": "As Ad 2c", "B": "Ks Kd 3c"}, "pass": {"A": "2c", "B": "Kd"},
             "declare": {"A": "in", "B": "in"}},
        ],
    }  # fmt: skip
    (hand,) = commands.script(passing)["hands"]
    assert hand["shown"] == {"A": "As Ad Kd", "B": "Ks 3c 2c"}
    two_plus_one = {
        "game": "guts",
        "preset": "two_plus_one",
        "options": {"ante": 100, "second_declare": True, "rake_basis_points": 0},
        "button": "B",
        "players": {"A": 10000, "B": 10000},
        "hands": [
            {"cards": {"A": "As Ad", "B": "Ks Kd"}, "declare": {"A": "in", "B": "in"},
             "second_declare": {"A": "in", "B": "out"}},
        ],
    }  # fmt: skip
    result = commands.script(two_plus_one)
    assert result["hands"][0]["winners"] == {"A": 400}
    assert result["stacks"] == {"A": 10_200, "B": 9_800}


def test_a_kitty_script_plays_the_dealers_own_declare_and_the_chicken_fee() -> None:
    data = {
        "game": "guts",
        "preset": "kitty",
        "options": {"ante": 100, "rake_basis_points": 0},
        "button": "C",
        "players": {"A": 10000, "B": 10000, "C": 10000},
        "hands": [
            {"cards": {"C": "As Ad"}, "ghost": "Ks Kd",
             "declare": {"A": "out", "B": "out", "C": "out"}},
            {"cards": {"A": "Qs Qd"}, "ghost": "Js Jd",
             "declare": {"B": "out", "C": "out", "A": "in"}},
        ],
    }  # fmt: skip
    result = commands.script(data)
    first, second = result["hands"]
    assert (first["pot"], first["winners"], first["payments"]) == (300, {}, {})
    assert second["pot"] == 600 and second["winners"] == {"A": 600}
    assert second["shown"] == {"A": "Qs Qd"}
    assert result["stacks"] == {"A": 10_400, "B": 9_800, "C": 9_800}


def test_a_kitty_script_with_a_ghost_a_chicken_fee_and_a_winner() -> None:
    """A loses to the ghost and pays; next deal all are Out, the dealer too (no automatic In
    at a ghost table), so the chicken fee; then B beats A and the ghost."""
    data = {
        "game": "guts",
        "preset": "kitty",
        "options": {"ante": 100},
        "button": "C",
        "players": {"A": 10000, "B": 10000, "C": 10000},
        "hands": [
            {"cards": {"A": "8s 8d"}, "ghost": "Ts Td", "declare": {"A": "in", "B": "out"}},
            {"declare": {"B": "out", "C": "out", "A": "out"}},
            {"cards": {"A": "Js Jd", "B": "Ks Kd"}, "ghost": "6s 3d",
             "declare": {"C": "out", "A": "in", "B": "in"}},
        ],
    }  # fmt: skip
    result = commands.script(data)
    first, second, third = result["hands"]
    assert first["payments"] == {"A": 300} and second["pot"] == 600
    assert (second["winners"], second["payments"]) == ({}, {})
    assert third["pot"] == 900 and third["winners"] == {"B": 873}
    assert third["payments"] == {"A": 900}
    # two antes each (the first deal's and the chicken fee), A's payments, B's $8.73
    assert result["stacks"] == {"A": 8_600, "B": 10_673, "C": 9_800}
    assert result["pot"] == 900


@pytest.mark.parametrize(
    ("preset", "hand", "message"),
    [
        ("two_card", {"ghost": "As Ad"}, "hand 1: this table has no ghost hand"),
        ("three_five_seven", {"ghost": "As Ad 2c"}, "hand 1: this table has no ghost hand"),
        ("four_two_two", {"ghost": "As Ad 2c 2d"}, "hand 1: this table has no ghost hand"),
        ("two_card", {"community": "As"}, "hand 1: this table has no community card"),
        ("nuts", {"community": "As"}, "hand 1: this table has no community card"),
        ("two_card", {"up": {"A": "As Ad"}}, "hand 1: this table has no face-up cards"),
        ("three_card", {"versus": "As Ad 2c 2d"}, "hand 1: this table has no deck's hand"),
    ],
)
def test_a_classic_script_naming_what_the_table_lacks_says_so(
    preset: str,
    hand: dict[str, Any],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = {
        "game": "guts",
        "preset": preset,
        "options": {"ante": 100},
        "players": {"A": 10000, "B": 10000},
        "hands": [hand],
    }
    with pytest.raises(ValueError, match=message):
        commands.script(data)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    assert main(["script", str(path)]) == 2
    assert message in capsys.readouterr().err
