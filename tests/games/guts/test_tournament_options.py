"""Online Guts at a tournament's table: short antes all in, antes posted for everyone, levels.

The options are `short_ante` ("refuse" | "all_in"), `away_antes` and the runtime action
`{"kind": "level", "stake": N}` (docs/table-options.md; games/guts/online.py).
"""

from __future__ import annotations

import json

import pytest

from games.engine import ConfigError, IllegalAction
from games.guts import GAME, make_config
from games.guts.config import raised_config
from games.tournament.busted import busted_seats

from .helpers import Table, of

AA = "As Ad 2c"
KK = "Ks Kd 3c"
QJ9 = "Qs Jd 9c"
T85 = "Th 8d 5c"

TOURNEY = {"short_ante": "all_in", "away_antes": True, "top_up_seconds": 0,
           "rake_basis_points": 0, "rake_cap": 0}  # fmt: skip


def test_the_tournament_options_default_to_todays_rules_and_are_checked() -> None:
    config = make_config("survivor", {"ante": 10})
    assert (config.short_ante, config.away_antes) == ("refuse", False)
    tourney = make_config("survivor", {"ante": 10, **TOURNEY})
    assert (tourney.short_ante, tourney.away_antes, tourney.top_up_seconds) == ("all_in", True, 0)
    assert (tourney.rake_basis_points, tourney.rake_cap) == (0, 0)
    with pytest.raises(ConfigError, match="short_ante must be one of refuse, all_in"):
        make_config("survivor", {"ante": 10, "short_ante": "maybe"})
    with pytest.raises(ConfigError, match="away_antes must be true or false"):
        make_config("survivor", {"ante": 10, "away_antes": "yes"})


def test_with_away_antes_the_table_posts_every_ante_itself_sitting_out_or_not() -> None:
    table = Table(stacks=(1_000, 1_000, 1_000), ante=10, **TOURNEY)
    table.act("sit_out", 2)
    events = table.timeout()
    assert of(events, "ante_posted") == [
        {"type": "ante_posted", "seat": seat, "amount": 10} for seat in (0, 1, 2)
    ]
    assert table.state.phase == "deal" and table.state.pending == ()
    table.deal(P0=AA, P1=KK, P2=QJ9)
    # The seat sitting out is Out at once; the others choose.
    assert table.state.choices == ("", "", "out")
    assert GAME.legal_actions(table.state, 0)[0] == {"kind": "declare", "choices": ["in", "out"]}


def test_a_seat_that_sits_out_during_the_declare_is_out_at_once_with_away_antes() -> None:
    table = Table(stacks=(1_000, 1_000), ante=10, **TOURNEY)
    table.timeout()
    table.deal(P0=AA, P1=KK)
    table.act("declare", 0, choice="in")
    events = table.act("sit_out", 1)
    declared = {event["seat"]: event["choice"] for event in of(events, "declared")}
    assert declared == {0: "in", 1: "out"}
    assert table.state.phase == "pause"


def test_a_short_stack_antes_all_it_has_and_is_in_at_once_when_all_in() -> None:
    table = Table(stacks=(1_000, 1_000, 4), ante=10, **TOURNEY)
    events = table.timeout()
    assert of(events, "ante_posted")[2] == {"type": "ante_posted", "seat": 2, "amount": 4}
    assert table.state.pot == 24
    table.deal(P0=T85, P1=KK, P2=AA)
    assert table.state.choices == ("", "", "in")  # nothing more to risk
    table.declare(P0="out", P1="out")
    # The all-in seat plays for the whole pot, as table stakes let a short stack do.
    assert table.stacks() == [990, 990, 24]
    assert table.total() == 2_004


def test_an_all_in_loser_pays_what_it_has_at_once_and_is_busted_at_rest() -> None:
    table = Table("monte_carlo", stacks=(1_000, 1_000, 4), ante=10, **TOURNEY)
    table.timeout()
    table.deal(P0=AA, P1=KK, P2=QJ9)
    table.declare(P0="in", P1="in")
    assert of(table.events, "pot_matched") == [
        {"type": "pot_matched", "seat": 1, "amount": 24, "owed": 24},
        {"type": "pot_matched", "seat": 2, "amount": 0, "owed": 24},
    ]
    assert table.state.owed == (0, 0, 0)
    assert table.stacks() == [1_014, 966, 0]
    assert busted_seats("guts", GAME.view(table.state, None)) == [2]
    # The round goes on without the busted seat: the next call deals the other two.
    table.timeout()
    assert table.state.phase == "deal" and table.state.confirmed == (0, 1)
    assert table.total() == 2_004


def test_an_all_in_player_who_owes_nothing_stays_in_the_round_and_is_not_busted() -> None:
    # Survivor: only the lowest hand In pays; an all-in seat with a middle hand owes nothing
    # and is dealt the next hand without an ante.
    table = Table("survivor", stacks=(1_000, 1_000, 10), ante=10, **TOURNEY)
    table.timeout()
    assert table.stacks()[2] == 0
    table.deal(P0=AA, P1=QJ9, P2=KK)
    table.declare(P0="in", P1="in")
    assert table.stacks() == [1_020, 960, 0]
    view = GAME.view(table.state, None)
    assert view["seats"][2]["status"] == "in_round"
    assert busted_seats("guts", view) == []
    table.timeout()  # P0, P1 and P2 were In: no ante, and P2 has no chips behind
    assert table.state.phase == "deal" and table.state.confirmed == (0, 1, 2)


def test_without_away_antes_a_short_all_in_ante_is_given_back_exactly() -> None:
    table = Table(stacks=(1_000, 1_000, 4), ante=10, short_ante="all_in")
    table.timeout()
    assert GAME.legal_actions(table.state, 2)[0] == {"kind": "ante", "amount": 4}
    table.act("ante", 2)
    table.act("decline", 0)
    table.act("decline", 1)
    assert of(table.events, "antes_returned") == [{"type": "antes_returned", "amounts": [[2, 4]]}]
    assert table.stacks() == [1_000, 1_000, 4]


def test_a_seat_with_no_chips_is_never_asked_to_ante_nor_dealt_in() -> None:
    table = Table(stacks=(1_000, 1_000, 0), ante=10, **TOURNEY)
    events = table.timeout()
    assert of(events, "round_started") == [{"type": "round_started", "round": 1, "seats": [0, 1]}]
    table.deal()
    assert table.state.dealt == (1, 0)


def test_a_level_takes_effect_from_the_next_ante_call_with_its_match_cap() -> None:
    table = Table(stacks=(1_000, 1_000), ante=10, **TOURNEY)
    table.timeout()
    table.deal(P0=AA, P1=KK)
    events = table.act("level", stake=25)
    assert [event.to_json() for event in events] == [
        {"type": "level_raised", "stake": 25, "match_cap": 500}
    ]
    assert GAME.view(table.state, None)["ante"] == 10
    assert GAME.view(table.state, None)["next_ante"] == 25
    table.declare(P0="out", P1="out")  # nobody In: the pot carries, everybody antes again
    events = table.timeout()
    assert of(events, "ante_posted") == [
        {"type": "ante_posted", "seat": 0, "amount": 25},
        {"type": "ante_posted", "seat": 1, "amount": 25},
    ]
    view = GAME.view(table.state, None)
    assert (view["ante"], view["match_cap"], view["next_ante"]) == (25, 500, None)
    data = GAME.dump(table.state)
    assert GAME.load(json.loads(json.dumps(data))) == table.state


def test_a_level_at_a_waiting_table_takes_effect_at_once() -> None:
    table = Table(stacks=(1_000,), ante=10, **TOURNEY)
    table.timeout()
    assert table.state.phase == "waiting"
    table.act("level", stake=20)
    assert table.state.config.ante == 20 and table.state.next_stake is None


@pytest.mark.parametrize("stake", [0, -5, 2.5, True, "10", None])
def test_a_level_needs_a_whole_stake_of_at_least_one(stake: object) -> None:
    table = Table(stacks=(1_000, 1_000), ante=10, **TOURNEY)
    with pytest.raises(IllegalAction, match="'stake' must be a whole number of chips"):
        table.act("level", stake=stake)


def test_a_seed_004_table_refuses_a_stake_its_ladder_lists_no_cap_for() -> None:
    table = Table(stacks=(5_000, 5_000), ante=25, match_cap_family="seed_004", **TOURNEY)
    before = table.state
    with pytest.raises(IllegalAction, match="family seed_004 has no cap for an ante of 30"):
        table.act("level", stake=30)
    assert table.state == before
    table.act("level", stake=50)
    assert table.state.next_stake == 50


def test_the_match_cap_follows_the_family_or_keeps_an_operators_ratio() -> None:
    seed = make_config("monte_carlo", {"ante": 10})
    assert raised_config(seed, 40).match_cap == 800
    assert raised_config(seed, 40).min_buy_in == 4_000
    custom = make_config("custom", {"ante": 10, "match_cap": 150, "min_buy_in": 10})
    assert (raised_config(custom, 30).match_cap, raised_config(custom, 30).min_buy_in) == (450, 30)
