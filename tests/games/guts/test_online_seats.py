"""Online Guts seats: sitting down, leaving, sitting out, disconnection, the button, bad actions."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import IllegalAction
from games.guts import GAME, make_config, new_table

from .helpers import Table, of

AA = "As Ad 2c"
KK = "Ks Kd 3c"


def test_sitting_down_buys_in_within_the_limits_and_a_second_player_starts_a_round() -> None:
    state = new_table(make_config("monte_carlo", {"ante": 100, "max_buy_in": 20_000}))
    for stack, reason in ((9_999, "least"), (20_001, "most")):
        with pytest.raises(IllegalAction, match=reason):
            GAME.apply(state, {"kind": "sit", "seat": 0, "stack": stack, "now": 0})
    state, events = GAME.apply(
        state, {"kind": "sit", "seat": 3, "stack": 10_000, "player": "ann", "now": 1}
    )
    assert [event.to_json() for event in events] == [
        {"type": "player_sat", "seat": 3, "player": "ann", "stack": 10_000}
    ]
    assert [(m.source, m.target, m.amount) for m in events[0].moves()] == [
        ("bankroll:3", "stack:3", 10_000)
    ]
    assert state.phase == "waiting" and GAME.deadline(state) is None
    with pytest.raises(IllegalAction, match="taken"):
        GAME.apply(state, {"kind": "sit", "seat": 3, "stack": 10_000, "now": 2})
    state, _ = GAME.apply(state, {"kind": "sit", "seat": 5, "stack": 10_000, "now": 2})
    assert state.phase == "pause" and GAME.deadline(state) == 5.0
    state, events = GAME.apply(state, {"kind": "timeout", "now": 5})
    assert state.pending == (3, 5)


def test_a_player_who_sits_down_during_a_round_waits_for_the_next_round() -> None:
    table = Table(stacks=(10_000, 10_000), seats=3)
    table.hand(P0=AA, P1=KK, P0_choice="in", P1_choice="in")
    table.act("sit", 2, stack=10_000)
    table.timeout()  # both were In: the next hand is dealt without an ante call
    assert table.state.phase == "deal" and table.state.confirmed == (0, 1)
    table.deal()
    table.declare(P0="in", P1="out")
    assert table.state.seats[2] is not None and not table.state.seats[2].in_round
    table.timeout()
    assert table.state.pending == (0, 1, 2)


def test_leaving_between_rounds_returns_the_stack_to_the_bankroll() -> None:
    table = Table()
    events = table.act("leave", 1)
    assert of(events, "player_left") == [{"type": "player_left", "seat": 1, "stack": 10_000}]
    assert [(m.source, m.target) for m in events[0].moves()] == [("stack:1", "bankroll:1")]
    assert table.state.seats[1] is None


def test_leaving_during_a_hand_is_out_at_once_and_stands_up_when_the_hand_ends() -> None:
    table = Table()
    table.antes()
    table.deal(P0=AA, P1=KK)
    events = table.act("leave", 2)
    assert of(events, "decided") == [{"type": "decided", "seat": 2}]
    assert table.state.seats[2] is not None and table.state.seats[2].leaving
    events = table.declare(P0="in", P1="in")
    assert of(events, "mucked") == [{"type": "mucked", "seat": 2}]
    assert of(events, "player_left") == [{"type": "player_left", "seat": 2, "stack": 9_900}]
    assert table.state.seats[2] is None
    assert table.total() == 30_000 - 9_900  # the leaver took only the stack; the ante stays


def test_a_player_who_chose_in_and_leaves_still_pays_what_they_owe() -> None:
    table = Table()
    table.antes()
    table.deal(P0=AA, P1=KK)
    table.declare(P1="in")
    table.act("leave", 1)
    events = table.declare(P0="in", P2="out")
    assert of(events, "pot_matched") == [
        {"type": "pot_matched", "seat": 1, "amount": 300, "owed": 300}
    ]
    assert of(events, "player_left") == [{"type": "player_left", "seat": 1, "stack": 9_600}]
    assert table.state.pot == 300


def test_a_disconnected_player_stays_in_the_hand_and_may_still_choose() -> None:
    table = Table()
    table.antes()
    table.deal(P0=AA, P1=KK)
    events = table.act("disconnect", 1)
    assert of(events, "connection_changed") == [
        {"type": "connection_changed", "seat": 1, "connected": False}
    ]
    assert table.act("disconnect", 1) == ()
    table.act("connect", 1)
    table.declare(P0="in", P1="in", P2="out")
    assert table.state.owed == (0, 0, 0)
    assert table.state.pot == 300


def test_sit_out_keeps_the_current_hand_and_is_not_asked_to_ante_next_time() -> None:
    table = Table()
    table.antes()
    table.deal()
    table.act("sit_out", 2)
    table.declare(P0="out", P1="out", P2="out")
    table.timeout()
    assert table.state.pending == (0, 1)
    table.act("sit_in", 2)
    assert table.state.pending == (0, 1)


def test_the_button_moves_to_the_next_seat_in_play_skipping_empty_and_sat_out_seats() -> None:
    table = Table(stacks=(10_000,) * 5)
    table.act("sit_out", 1)
    table.act("leave", 2)
    events = table.hand(P0_choice="out", P3_choice="out", P4_choice="out")
    assert of(events, "button_moved") == [{"type": "button_moved", "seat": 3}]
    assert table.state.button == 3


def test_the_first_button_goes_to_the_lowest_seat_of_the_first_hand() -> None:
    table = Table(stacks=(10_000, 10_000, 10_000), button=None)
    table.antes(1, 2)
    events = table.deal()
    assert of(events, "hand_started")[0]["button"] == 1


def test_top_up_is_refused_during_a_hand_and_above_the_maximum_buy_in() -> None:
    table = Table(max_buy_in=15_000)
    with pytest.raises(IllegalAction, match=r"exceed \$150\.00"):
        table.act("top_up", 0, amount=5_001)
    table.act("top_up", 0, amount=5_000)
    table.antes()
    table.deal()
    with pytest.raises(IllegalAction, match="in a hand"):
        table.act("top_up", 1, amount=100)


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ({"kind": "fold", "seat": 0}, "unknown action 'fold'"),
        ({"kind": "declare", "seat": 0, "choice": "in", "now": "soon"}, "time 'now'"),
        ({"kind": "declare", "seat": 9, "choice": "in"}, "no seat 9"),
        ({"kind": "declare", "seat": 0, "choice": "maybe"}, "choose 'in' or 'out'"),
        ({"kind": "ante", "seat": 0}, "not asked to ante"),
        ({"kind": "deal", "deck": []}, "no deal is due"),
        ({"kind": "decline", "seat": 0}, "nothing to decline"),
        ({"kind": "sit_in", "seat": 0}, "not sitting out"),
        ({"kind": "top_up", "seat": 3, "amount": 5}, "nobody sits in seat 3"),
    ],
)
def test_an_illegal_action_says_why_and_changes_nothing(
    action: dict[str, Any], reason: str
) -> None:
    table = Table(stacks=(10_000,) * 3, seats=4)
    table.antes()
    table.deal()
    before = table.state
    with pytest.raises(IllegalAction, match=reason):
        GAME.apply(before, {"now": 1.0, **action})
    assert table.state is before


def test_a_deck_with_a_repeated_card_is_refused() -> None:
    table = Table()
    table.antes()
    deck = ["As"] * 52
    with pytest.raises(IllegalAction, match="appears twice"):
        table.act("deal", deck=deck)
    assert GAME.wants_deck(table.state)


def test_leaving_while_the_deck_is_awaited_is_out_of_the_hand_about_to_be_dealt() -> None:
    table = Table(stacks=(10_000, 10_000))
    table.antes()
    table.act("leave", 0)
    table.act("leave", 1)
    events = table.deal()
    assert [e["seat"] for e in of(events, "player_left")] == [0, 1]
    assert of(events, "pot_carried") == [{"type": "pot_carried", "pot": 200}]
    assert table.state.seats == (None, None)
