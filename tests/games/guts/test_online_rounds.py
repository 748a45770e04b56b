"""Online Guts rounds: ante calls, next hands, top-ups, short payers, round ends."""

from __future__ import annotations

from dataclasses import fields

from games.guts.rounds import evolve

from .helpers import Table, of

AA = "As Ad 2c"
KK = "Ks Kd 3c"
QJ9 = "Qs Jd 9c"


def test_round_start_asks_every_player_in_play_whose_stack_covers_the_ante() -> None:
    table = Table(stacks=(10_000, 10_000, 99, 10_000))
    table.act("sit_out", 3)
    events = table.timeout()
    assert of(events, "round_started") == [{"type": "round_started", "round": 1, "seats": [0, 1]}]
    assert table.state.phase == "ante"
    assert table.state.deadline == table.now + 10


def test_a_player_who_declines_the_ante_sits_out_the_round_but_stays_in_play() -> None:
    table = Table()
    table.antes(0, 1)
    assert of(table.events, "ante_declined") == [
        {"type": "ante_declined", "seat": 2, "timed_out": False}
    ]
    assert table.state.phase == "deal"
    assert table.state.confirmed == (0, 1)
    player = table.state.seats[2]
    assert player is not None and not player.sitting_out and not player.in_round


def test_a_player_who_lets_the_ante_call_time_out_is_sat_out() -> None:
    table = Table()
    table.timeout()
    table.act("ante", 0)
    table.act("ante", 1)
    events = table.timeout()
    assert of(events, "sat_out") == [{"type": "sat_out", "seat": 2, "reason": "ante_timeout"}]
    player = table.state.seats[2]
    assert player is not None and player.sitting_out
    assert table.state.phase == "deal"


def test_antes_are_returned_when_fewer_than_two_players_ante() -> None:
    table = Table()
    table.antes(1)
    assert of(table.events, "antes_returned") == [{"type": "antes_returned", "amounts": [[1, 100]]}]
    assert table.stacks() == [10_000, 10_000, 10_000]
    assert table.state.phase == "pause"
    assert not table.state.round_active
    table.timeout()
    assert table.state.phase == "ante" and table.state.starting


def test_a_short_loser_may_top_up_in_the_window_and_pay_in_full() -> None:
    table = Table(stacks=(10_000, 10_000, 350))
    table.hand(P0=AA, P1=KK, P2=QJ9, P0_choice="in", P1_choice="in", P2_choice="in")
    assert table.state.owed == (0, 0, 300)
    events = table.timeout()
    # Everyone was In: nobody antes, and the deal waits for the top-up window alone.
    assert of(events, "ante_called") == [{"type": "ante_called", "seats": [], "owing": [2]}]
    assert table.state.deadline == table.now + 5
    events = table.act("top_up", 2, amount=100)
    assert of(events, "pot_matched") == [
        {"type": "pot_matched", "seat": 2, "amount": 300, "owed": 300}
    ]
    assert table.state.phase == "deal"
    assert table.state.confirmed == (0, 1, 2)
    assert table.stacks() == [10_191, 9_900, 50]


def test_a_short_loser_pays_all_they_have_and_sits_out_the_rest_of_the_round() -> None:
    table = Table(stacks=(10_000, 10_000, 350))
    table.hand(P0=AA, P1=KK, P2=QJ9, P0_choice="in", P1_choice="in", P2_choice="in")
    table.timeout()
    assert table.state.phase == "ante"
    events = table.timeout()
    assert of(events, "pot_matched") == [
        {"type": "pot_matched", "seat": 2, "amount": 250, "owed": 300}
    ]
    assert table.state.phase == "deal"
    assert table.state.confirmed == (0, 1)
    assert table.stacks()[2] == 0
    assert table.state.pot == 250
    player = table.state.seats[2]
    assert player is not None and not player.in_round


def test_a_short_loser_may_decline_to_top_up_and_pay_at_once() -> None:
    table = Table(stacks=(10_000, 10_000, 350), top_up_seconds=30)
    table.hand(P0=AA, P1=KK, P2=QJ9, P0_choice="in", P1_choice="in", P2_choice="in")
    table.timeout()
    table.antes()
    events = table.act("decline", 2)
    assert of(events, "pot_matched")[0]["amount"] == 250
    assert table.state.phase == "deal"


def test_when_one_player_remains_they_take_the_pot_less_rake_and_the_round_ends() -> None:
    table = Table(stacks=(10_000, 10_000, 10_000))
    table.hand(P0=AA, P1=KK, P0_choice="in", P1_choice="in", P2_choice="out")
    assert table.state.pot == 300
    table.act("leave", 1)  # P1 paid the 300 and goes; P0 won, so is excused from the ante
    table.timeout()
    events = table.act("decline", 2)
    assert of(events, "pot_won") == [{"type": "pot_won", "seat": 0, "amount": 291}]
    assert of(events, "round_ended") == [
        {"type": "round_ended", "round": 1, "reason": "last_player"}
    ]
    assert table.stacks() == [10_000 - 100 + 291 + 291, 0, 9_900]
    assert table.total() == 30_000 - 9_600


def test_all_in_players_tying_ends_the_round_under_no_losers() -> None:
    table = Table()
    events = table.hand(P0="As Kd 9c", P1="Ad Ks 9h", P0_choice="in", P1_choice="in")
    assert of(events, "hand_ended")[0]["round_over"] is True
    assert not table.state.round_active


def test_single_in_goes_on_after_a_tie_and_the_player_out_antes() -> None:
    table = Table(round_end="single_in")
    events = table.hand(P0="As Kd 9c", P1="Ad Ks 9h", P0_choice="in", P1_choice="in")
    assert of(events, "hand_ended")[0]["round_over"] is False
    assert table.state.pot == 0
    table.timeout()
    assert table.state.pending == (2,)
    assert table.state.confirmed == (0, 1)


def test_single_in_ends_the_round_when_exactly_one_player_was_in() -> None:
    table = Table("monte_carlo", round_end="single_in")
    events = table.hand(P2=KK, P2_choice="in")
    assert of(events, "round_ended") == [{"type": "round_ended", "round": 1, "reason": "single_in"}]


def test_a_new_round_starts_after_the_pause_and_the_pot_is_empty_between_rounds() -> None:
    table = Table()
    table.hand(P0=KK, P0_choice="in")
    assert table.state.phase == "pause"
    assert table.state.deadline == table.now + 3
    assert table.state.pot == 0
    events = table.timeout()
    assert of(events, "round_started")[0]["round"] == 2


def test_the_showdown_pause_is_configurable() -> None:
    table = Table(showdown_seconds=7)
    table.hand(P0=KK, P0_choice="in")
    assert table.state.deadline == table.now + 7


def test_a_pot_left_with_nobody_in_the_round_is_played_for_in_the_next_round() -> None:
    table = Table(stacks=(10_000, 10_000, 350))
    table.hand(P0=AA, P1=KK, P2=QJ9, P0_choice="out", P1_choice="in", P2_choice="in")
    assert table.state.owed == (0, 0, 300)
    table.act("sit_out", 1)  # the winner, excused from the ante, leaves the round instead
    table.timeout()
    table.act("decline", 0)
    table.timeout()
    assert table.state.phase == "pause"
    assert of(table.events, "round_ended")[-1]["reason"] == "no_players"
    assert table.state.pot == 250
    table.act("sit_in", 1)
    table.antes()
    events = table.deal()
    assert of(events, "hand_started")[0]["seats"] == [0, 1]
    assert of(events, "hand_started")[0]["pot"] == 250 + 2 * 100


def test_the_state_keeps_money_in_balance_over_a_round() -> None:
    table = Table("monte_carlo", (10_000, 10_000, 350))
    table.hand(P0=AA, P1=KK, P2=QJ9, P0_choice="in", P1_choice="in", P2_choice="in")
    table.timeout()
    table.antes()
    table.timeout()
    table.hand(P0=KK, P1=AA, P0_choice="in", P1_choice="in")
    assert table.total() == 20_350
    assert evolve(table.state) == table.state


def test_evolve_carries_every_field_of_the_state() -> None:
    state = Table().state
    for field in fields(state):
        marker = object()
        assert getattr(evolve(state, **{field.name: marker}), field.name) is marker
