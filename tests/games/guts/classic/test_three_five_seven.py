"""Three-Five-Seven (docs/rules/guts-classic.md, "Games in stages with legs")."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from games.engine import ConfigError
from games.guts import GAME, make_config
from games.guts.commands import script, simulate
from tests.games.guts.helpers import of

from .classic_helpers import Classic


def _table(**options: object) -> Classic:
    return Classic("three_five_seven", rake_basis_points=0, **options)


def _stage_one(table: Classic) -> None:
    """P1 three nines (threes wild) and P2 a pair of kings go In; P0 stays Out."""
    table.deal(P1="3c 9d 9h", P2="Kc Kd 4h", P0="5c 6d 8h", stock="Ac Ad Kh Ks Qc Qd")
    table.declare(P1="in", P2="in", P0="out")


def test_stage_one_deals_three_cards_with_threes_wild_and_compares_privately() -> None:
    table = _table()
    table.deal(P1="3c 9d 9h", P2="Kc Kd 4h", P0="5c 6d 8h")
    assert of(table.events, "stage_started") == [
        {
            "type": "stage_started",
            "stage": 1,
            "hand_size": 3,
            "direction": "high",
            "wild": "3",
            "dealer": 0,
        }
    ]
    events = table.declare(P1="in", P2="in", P0="out")
    shown = [e for e in events if e.type == "hand_shown_privately"]
    assert [(e.seat, e.description, e.seats) for e in shown] == [
        (1, "three nines", (1, 2)),
        (2, "pair of kings, four kicker", (1, 2)),
    ]
    assert all(e.visible_to(1) and e.visible_to(2) for e in shown)
    assert not any(e.visible_to(0) or e.visible_to(None) for e in shown)
    assert of(events, "hand_shown") == []
    # the loser pays the winner the pot straight; the pot itself does not change
    assert of(events, "seat_paid") == [{"type": "seat_paid", "payer": 2, "payee": 1, "amount": 300}]
    assert table.state.pot == 300 and table.state.phase == "stage_over"
    assert table.stacks() == [9_900, 10_200, 9_600]


def test_players_out_and_spectators_see_nothing_of_a_private_comparison() -> None:
    table = _table()
    _stage_one(table)
    for viewer in (0, None):
        seats = GAME.view(table.state, viewer)["seats"]
        assert "cards" not in seats[1] and "cards" not in seats[2]
    seats = GAME.view(table.state, 1)["seats"]
    assert seats[2]["cards"] == ["Kc", "Kd", "4h"]


def test_stage_two_gives_everyone_two_more_cards_fives_wild_and_stage_three_is_public() -> None:
    table = _table()
    _stage_one(table)
    events = table.timeout()
    assert of(events, "stage_started")[0] | {"type": ""} == {
        "type": "",
        "stage": 2,
        "hand_size": 5,
        "direction": "high",
        "wild": "5",
        "dealer": 0,
    }
    assert [(e["seat"], e["cards"]) for e in of(events, "cards_dealt")] == [
        (1, ["Ac", "Ks"]),
        (2, ["Ad", "Qc"]),
        (0, ["Kh", "Qd"]),
    ]
    view = GAME.view(table.state, 0)
    assert view["stage"]["words"] == "deal 1, stage 2 of 3: five cards, fives wild, high"
    assert "cards" not in view["seats"][1]  # the private comparison stays private
    events = table.declare(P1="in", P2="out", P0="out")
    assert of(events, "leg_won") == [{"type": "leg_won", "seat": 1, "total": 1}]
    assert GAME.view(table.state, 2)["seats"][1]["legs"] == 1
    table.timeout()
    assert table.state.wild == "7" and len(table.state.cards[0]) == 7
    events = table.declare(P1="in", P2="in", P0="in")
    assert {e["seat"] for e in of(events, "hand_shown")} == {0, 1, 2}
    assert of(events, "hand_ended")[0]["round_over"] is False
    assert table.state.phase == "pause" and table.state.marks == (0, 1, 0)


def test_after_stage_three_everyone_antes_again_and_the_next_dealer_deals_from_stage_one() -> None:
    table = _table()
    table.deal()
    for _ in range(3):
        table.declare(P1="out", P2="out", P0="out")
        if table.state.phase == "stage_over":
            table.timeout()
    assert of(table.events, "seat_paid") == [] and table.state.pot == 300
    antes = len(of(table.events, "ante_posted"))
    events = table.deal(P1="Ac Ad Ah")
    assert [e["amount"] for e in of(table.events, "ante_posted")[antes:]] == [100, 100, 100]
    assert table.state.pot == 600 and table.state.stage == 1
    assert of(events, "hand_started")[0]["button"] == 1


def test_the_first_player_with_three_legs_takes_the_pot_at_once_and_the_game_ends() -> None:
    table = _table()
    table.deal()
    table.state = replace(table.state, marks=(0, 2, 0))
    events = table.declare(P1="in", P2="out", P0="out")
    assert of(events, "leg_won") == [{"type": "leg_won", "seat": 1, "total": 3}]
    assert of(events, "pot_won") == [{"type": "pot_won", "seat": 1, "amount": 300}]
    assert of(events, "round_ended") == [{"type": "round_ended", "round": 1, "reason": "legs_won"}]
    assert table.state.phase == "pause" and not table.state.game_active
    table.deal()
    assert table.state.marks == (0, 0, 0) and table.state.target == 3


def test_a_missing_declare_is_out_when_the_clock_runs_out() -> None:
    table = _table()
    table.deal()
    table.declare(P1="in")
    events = table.timeout()
    assert [(e["seat"], e["choice"], e["timed_out"]) for e in of(events, "declared")] == [
        (1, "in", False),
        (2, "out", True),
        (0, "out", True),
    ]
    assert of(events, "leg_won")[0]["seat"] == 1


def test_a_short_losers_payment_is_split_between_the_tied_best_hands() -> None:
    """A and B hold K-K-9, C holds 4-5-8 with $1.50 left after the ante and owes each $3."""
    table = Classic("three_five_seven", (10_000, 10_000, 250), button=2, rake_basis_points=0)
    table.deal(P0="Kc Kd 9h", P1="Kh Ks 9d", P2="4c 5d 8h")
    events = table.declare(P0="in", P1="in", P2="in")
    assert of(events, "seat_paid") == [
        {"type": "seat_paid", "payer": 2, "payee": 0, "amount": 75},
        {"type": "seat_paid", "payer": 2, "payee": 1, "amount": 75},
    ]
    assert table.stacks() == [9_975, 9_975, 0] and table.state.pot == 300
    assert table.total() == 20_250


def test_the_odd_cent_of_a_short_payment_goes_in_seat_order_from_the_button() -> None:
    table = Classic("three_five_seven", (10_000, 251, 10_000), button=1, rake_basis_points=0)
    table.deal(P0="Kc Kd 9h", P2="Kh Ks 9d", P1="4c 5d 8h")
    events = table.declare(P0="in", P1="in", P2="in")
    assert of(events, "seat_paid") == [
        {"type": "seat_paid", "payer": 1, "payee": 2, "amount": 76},
        {"type": "seat_paid", "payer": 1, "payee": 0, "amount": 75},
    ]
    assert table.stacks() == [9_975, 0, 9_976]


def test_a_script_of_a_short_loser_at_a_tie() -> None:
    """C, also In, owes A and B the $3 pot each but has $4.01: A $2.01, B $2.00."""
    result = script(
        {
            "game": "guts",
            "preset": "three_five_seven",
            "options": {"ante": 100, "rake_basis_points": 0},
            "button": "C",
            "players": {"A": 10_000, "B": 10_000, "C": 501},
            "hands": [
                {
                    "stages": [
                        {
                            "cards": {"A": "Kc Kd 9h", "B": "Kh Ks 9d", "C": "4c 5d 8h"},
                            "declare": {"A": "in", "B": "in", "C": "in"},
                        }
                    ]
                }
            ],
        }
    )
    assert result["hands"][0]["stages"][0]["payments"] == {"C": 401}
    assert result["stacks"] == {"A": 10_101, "B": 10_100, "C": 0}


def test_a_script_plays_the_stages_and_reports_each() -> None:
    result = script(
        {
            "game": "guts",
            "preset": "three_five_seven",
            "options": {"ante": 100, "rake_basis_points": 0},
            "button": "C",
            "players": {"A": 10_000, "B": 10_000, "C": 10_000},
            "hands": [
                {
                    "stages": [
                        {
                            "cards": {"A": "3c 9d 9h", "B": "Kc Kd 4h"},
                            "declare": {"A": "in", "B": "in"},
                        },
                        {"cards": {"A": "Ac Ad"}, "declare": {"A": "in"}},
                        {"declare": {"A": "in", "B": "in", "C": "in"}},
                    ]
                }
            ],
        }
    )
    stages = result["hands"][0]["stages"]
    assert stages[0]["shown_privately"] == {"A": "3c 9d 9h", "B": "Kc Kd 4h"}
    assert stages[0]["payments"] == {"B": 300}
    assert stages[1]["marks"] == {"A": 1}
    assert set(stages[2]["shown"]) == {"A", "B", "C"}
    assert result["marks"]["A"] == 1


def test_simulate_plays_whole_games_and_conserves_chips() -> None:
    result = simulate(preset="three_five_seven", players=7, hands=60, seed=3)
    assert result["conserved"] and result["rounds"] >= 2


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"seats": 8}, "seats must be from 2 to 7 for three_five_seven"),
        ({"pot_limit": 1_000}, "has no pot_limit or max_loss"),
        ({"ante_when": "pot_empty"}, "plays with ante_when=every_deal"),
        ({"hi_lo": True}, "hi_lo is not an option of three_five_seven"),
        ({"to_win": 0}, "to_win must be from 1 to 10"),
    ],
)
def test_bad_three_five_seven_options_name_what_is_valid(
    options: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        make_config("three_five_seven", {"ante": 100, **options})


def test_a_state_between_stages_survives_dump_and_load_as_json() -> None:
    table = _table()
    _stage_one(table)
    table.timeout()
    table.declare(P1="in", P2="out", P0="out")
    data = json.loads(json.dumps(GAME.dump(table.state)))
    assert GAME.load(data) == table.state
    del data["marks"], data["kept"], data["target"], data["private_show"]
    assert GAME.load(data).marks == (0, 0, 0)  # a state saved before these fields loads
