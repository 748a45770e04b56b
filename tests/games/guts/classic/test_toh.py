"""Toh (docs/rules/guts-classic.md, "Toh" and "One card")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine import ConfigError
from games.guts import GAME, make_config
from games.guts.commands import script, simulate
from tests.games.guts.helpers import of

from .classic_helpers import Classic


def _table(**options: object) -> Classic:
    return Classic("toh", rake_basis_points=0, **options)


def test_the_dealer_seeds_the_pot_with_one_unit_and_each_player_gets_one_card() -> None:
    table = _table()
    events = table.deal(P1="Ks", P2="Kh", P0="2c")
    assert of(table.events, "ante_posted") == [{"type": "ante_posted", "seat": 0, "amount": 100}]
    assert [len(e["cards"]) for e in of(events, "cards_dealt")] == [1, 1, 1]
    assert table.state.pot == 100 and table.state.target == 5 and table.state.turn == 1


def test_high_card_wins_suits_break_ties_losers_match_and_the_winner_keeps_a_point() -> None:
    table = _table()
    table.deal(P1="Ks", P2="Kh", P0="2c")
    events = table.declare(P1="in", P2="in", P0="out")
    assert [e["description"] for e in of(events, "hand_shown")] == [
        "king of spades",
        "king of hearts",
    ]
    assert of(events, "pot_matched") == [
        {"type": "pot_matched", "seat": 2, "amount": 100, "owed": 100}
    ]
    assert of(events, "point_won") == [{"type": "point_won", "seat": 1, "card": "Ks", "total": 1}]
    assert table.state.pot == 200 and table.state.phase == "stage_over"
    entry = GAME.view(table.state, 0)["seats"][1]
    assert (entry["points"], entry["point_cards"]) == (1, ["Ks"])


def test_the_deal_rotates_and_the_next_deal_comes_from_the_same_deck() -> None:
    table = _table()
    table.deal(P1="Ks", P2="Kh", P0="2c", stock="3c 4c 5c")
    table.declare(P1="out", P2="out", P0="out")
    events = table.timeout()
    assert of(events, "button_moved") == [{"type": "button_moved", "seat": 1}]
    assert of(events, "hand_started") == [] and not GAME.wants_deck(table.state)
    assert [(e["seat"], e["cards"]) for e in of(events, "cards_dealt")] == [
        (2, ["3c"]),
        (0, ["4c"]),
        (1, ["5c"]),
    ]
    view = GAME.view(table.state, 2)
    assert view["stage"]["words"] == "deck 1, deal 2 from this deck: one card, high"
    assert view["turn"] == 2


def test_when_only_the_dealer_stays_in_the_others_get_a_second_chance() -> None:
    table = _table()
    table.deal(P1="Ks", P2="Kh", P0="Ac")
    table.declare(P1="out", P2="out", P0="in")
    assert table.state.challenge and table.state.turn == 1
    events = table.declare(P1="in", P2="out")
    assert of(events, "point_won")[0]["seat"] == 0
    assert of(events, "pot_matched")[0]["seat"] == 1


def test_a_new_deck_comes_when_the_stock_cannot_serve_another_deal() -> None:
    table = _table()
    table.deal()
    table.state = replace(table.state, stock=table.state.stock[:2])
    events = table.declare(P1="out", P2="out", P0="out")
    assert of(events, "hand_ended")[0]["round_over"] is False
    table.timeout()
    assert GAME.wants_deck(table.state) and table.state.pot == 100  # nobody antes again


def test_the_first_to_the_points_takes_the_pot() -> None:
    table = _table(to_win=3)
    table.deal(P1="Ks", P2="Kh")
    table.state = replace(table.state, marks=(0, 2, 0))
    events = table.declare(P1="in", P2="in", P0="out")
    assert of(events, "pot_won") == [{"type": "pot_won", "seat": 1, "amount": 200}]
    assert of(events, "round_ended")[0]["reason"] == "points_won"


@pytest.mark.parametrize(
    ("players", "points"),
    [(2, 5), (3, 5), (4, 5), (5, 4), (6, 4), (7, 4), (8, 3), (9, 3), (10, 3)],
)
def test_more_players_play_for_fewer_points(players: int, points: int) -> None:
    """The source: four players play to 5 points, eight or more to 3 (4 in between)."""
    table = Classic("toh", (10_000,) * players)
    table.deal()
    assert table.state.target == points
    assert GAME.view(table.state, 0)["stage"]["to_win"] == points
    assert make_config("toh", {"ante": 100}).target(players) == points


def test_toh_options_script_and_simulation() -> None:
    with pytest.raises(ConfigError, match="to_win \\(points\\) must be 0"):
        make_config("toh", {"ante": 100, "to_win": 7})
    result = script(
        {
            "game": "guts",
            "preset": "toh",
            "options": {"ante": 100, "rake_basis_points": 0, "to_win": 3},
            "button": "C",
            "players": {"A": 10_000, "B": 10_000, "C": 10_000},
            "hands": [
                {
                    "stages": [
                        {"cards": {"A": "As", "B": "Kd"}, "declare": {"A": "in", "B": "in"}},
                        {"cards": {"A": "Ah", "C": "Kc"}, "declare": {"C": "in", "A": "in"}},
                        {"cards": {"A": "Ad"}, "declare": {"A": "in"}},
                    ]
                }
            ],
        }
    )
    stages = result["hands"][0]["stages"]
    assert [stage["marks"] for stage in stages] == [{"A": 1}, {"A": 2}, {"A": 3}]
    assert result["hands"][0]["game_over"] and result["stacks"]["A"] == 10_400
    assert simulate(preset="toh", players=10, hands=10, seed=4)["conserved"]


def test_toh_point_cards_survive_dump_and_load() -> None:
    table = _table()
    table.deal(P1="Ks", P2="Kh", P0="2c")
    table.declare(P1="in", P2="in", P0="out")
    assert GAME.load(GAME.dump(table.state)) == table.state
    assert GAME.dump(table.state)["kept"] == ["", "Ks", ""]
