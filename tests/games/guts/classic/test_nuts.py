"""Nuts (docs/rules/guts-classic.md, "Games in stages with legs" and "Low (Nuts)")."""

from __future__ import annotations

from dataclasses import replace

from games.guts import GAME
from games.guts.commands import script, simulate
from tests.games.guts.helpers import of

from .classic_helpers import Classic


def _table(**options: object) -> Classic:
    return Classic("nuts", rake_basis_points=0, **options)


def test_two_cards_for_low_then_high_low_high_each_with_a_declare() -> None:
    table = _table()
    table.deal(P1="Ac 2d", P2="Kc 4d", P0="9c 9d")
    view = GAME.view(table.state, 0)
    assert view["stage"] == {
        "number": 1,
        "of": 4,
        "deal": 1,
        "words": "deal 1, stage 1 of 4: two cards, low",
        "direction": "low",
        "mark": "nut",
        "to_win": 3,
    }
    events = table.declare(P1="in", P2="in", P0="out")
    # public comparison: the lowest hand wins, the loser pays the winner the pot
    assert [(e["seat"], e["description"]) for e in of(events, "hand_shown")] == [
        (1, "two-high (2-A) (low)"),
        (2, "king-high (K-4) (low)"),
    ]
    assert of(events, "seat_paid") == [{"type": "seat_paid", "payer": 2, "payee": 1, "amount": 300}]
    assert "cards" in GAME.view(table.state, 0)["seats"][1]
    directions = []
    sizes = []
    while table.state.phase == "stage_over":
        events = table.timeout()
        started = of(events, "stage_started")[0]
        directions.append(started["direction"])
        sizes.append(started["hand_size"])
        table.declare(P1="out", P2="out", P0="out")
    assert directions == ["high", "low", "high"] and sizes == [3, 4, 5]


def test_pairs_are_strong_in_a_low_deal() -> None:
    table = _table()
    table.deal(P1="Ac 2d", P0="9c 9d")
    events = table.declare(P1="in", P2="out", P0="in")
    assert of(events, "seat_paid") == [{"type": "seat_paid", "payer": 1, "payee": 0, "amount": 300}]


def test_a_lone_player_in_takes_a_nut_and_three_nuts_take_the_pot() -> None:
    table = _table()
    table.deal()
    events = table.declare(P1="out", P2="in", P0="out")
    assert of(events, "nut_won") == [{"type": "nut_won", "seat": 2, "total": 1}]
    assert GAME.view(table.state, None)["seats"][2]["nuts"] == 1
    table.timeout()
    table.state = replace(table.state, marks=(0, 0, 2))
    events = table.declare(P1="out", P2="in", P0="out")
    assert of(events, "pot_won") == [{"type": "pot_won", "seat": 2, "amount": 300}]
    assert of(events, "round_ended")[0]["reason"] == "nuts_won"


def test_nobody_at_three_after_the_fifth_card_everyone_antes_again_and_nuts_are_kept() -> None:
    table = _table()
    table.deal()
    table.declare(P1="in", P2="out", P0="out")  # P1 takes a nut
    while table.state.phase == "stage_over":
        table.timeout()
        table.declare(P1="out", P2="out", P0="out")
    assert table.state.phase == "pause" and table.state.pot == 300
    table.deal()
    assert table.state.pot == 600  # the pot doubles
    assert table.state.marks == (0, 1, 0) and len(table.state.cards[1]) == 2


def test_a_nuts_script_and_simulation() -> None:
    result = script(
        {
            "game": "guts",
            "preset": "nuts",
            "options": {"ante": 100, "rake_basis_points": 0},
            "button": "C",
            "players": {"A": 10_000, "B": 10_000, "C": 10_000},
            "hands": [
                {
                    "stages": [
                        {"cards": {"A": "Ac 2d", "B": "Kc 4d"}, "declare": {"A": "in", "B": "in"}},
                        {"cards": {"A": "Ah"}, "declare": {"A": "in"}},
                    ]
                }
            ],
        }
    )
    stages = result["hands"][0]["stages"]
    assert stages[0]["payments"] == {"B": 300} and stages[1]["marks"] == {"A": 1}
    assert len(stages) == 4 and result["stacks"]["A"] == 10_200
    assert simulate(preset="nuts", players=10, hands=40, seed=5)["conserved"]
