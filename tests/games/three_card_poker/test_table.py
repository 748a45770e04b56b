"""Bets, decisions, timeouts, seats, views and the state's JSON (docs/rules/three-card-poker.md;
games/engine.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.engine import IllegalAction
from games.three_card_poker.config import TableConfig
from games.three_card_poker.game import GAME

from .helpers import Table, deck_for, types


def refused(table: Table, match: str, **action: Any) -> None:
    """The action raises IllegalAction with ``match`` in its reason and changes nothing."""
    before = GAME.dump(table.state)
    action.setdefault("now", table.now)
    with pytest.raises(IllegalAction, match=match):
        GAME.apply(table.state, action)
    assert GAME.dump(table.state) == before


def test_pair_plus_alone_is_refused() -> None:
    table = Table(10_000)
    refused(table, "Pair Plus alone is not allowed", kind="bet", seat=0, pair_plus=100)


@pytest.mark.parametrize(
    ("ante", "pair_plus", "reason"),
    [
        (99, 0, r"the Ante at this table is from \$1\.00 to \$100\.00, not \$0\.99"),
        (10_001, 0, r"the Ante at this table is from \$1\.00 to \$100\.00, not \$100\.01"),
        (100, 10_001, r"the Pair Plus bet at this table is at most \$100\.00, not \$100\.01"),
        (100, -5, "pair_plus must be a whole number of cents"),
        (2_600, 0, r"stack of \$50.00 cannot cover .* \(\$52.00 in all\)"),
        (2_000, 1_001, r"stack of \$50.00 cannot cover .* \(\$50.01 in all\)"),
    ],
)
def test_bets_outside_the_limits_or_the_stack_are_refused(
    ante: int, pair_plus: int, reason: str
) -> None:
    table = Table(5_000)
    refused(table, reason, kind="bet", seat=0, ante=ante, pair_plus=pair_plus)


def test_a_table_without_pair_plus_refuses_it() -> None:
    table = Table(5_000, config=TableConfig(max_pair_plus=0))
    refused(table, "no Pair Plus", kind="bet", seat=0, ante=100, pair_plus=1)


def test_a_second_bet_in_a_round_is_refused() -> None:
    table = Table(5_000, 5_000)
    table.act(kind="bet", seat=0, ante=100)
    refused(table, "already bet", kind="bet", seat=0, ante=100)


def test_the_largest_bet_the_stack_allows_leaves_room_for_the_play() -> None:
    table = Table(5_000)
    table.act(kind="bet", seat=0, ante=2_000, pair_plus=1_000)
    table.act(kind="deal", deck=deck_for(["Ac Kd 2h"], "3c 5d 7h"))
    assert table.stack(0) == 2_000
    table.act(kind="play", seat=0)
    assert table.stack(0) == 4_000 + 2_000  # Ante won, Play returned; Pair Plus lost


def test_play_different_from_the_ante_is_refused() -> None:
    table = Table(10_000)
    table.act(kind="bet", seat=0, ante=100)
    table.act(kind="deal", deck=deck_for(["Ac Kd 2h"], "3c 5d 7h"))
    refused(table, r"exactly the Ante, \$1\.00", kind="play", seat=0, amount=200)
    refused(table, "exactly the Ante", kind="play", seat=0, amount=50)
    table.act(kind="play", seat=0, amount=100)
    assert table.state.phase == "betting"


def test_bets_are_closed_once_cards_are_out_and_decisions_only_come_from_the_hand() -> None:
    table = Table(10_000, 10_000)
    table.act(kind="bet", seat=0, ante=100)
    table.act(kind="timeout", now=table.state.deadline)
    table.act(kind="deal", deck=deck_for(["Ac Kd 2h"], "3c 5d 7h"))
    refused(table, "bets are closed", kind="bet", seat=1, ante=100)
    refused(table, "seat 1 has no hand to play", kind="play", seat=1)
    table.act(kind="fold", seat=0)
    refused(table, "seat 0 has no hand to fold", kind="fold", seat=0)


def test_a_decision_made_twice_is_refused() -> None:
    table = Table(10_000, 10_000)
    table.act(kind="bet", seat=0, ante=100)
    table.act(kind="bet", seat=1, ante=100)
    table.act(kind="deal", deck=deck_for(["Ac Kd 2h", "4c 4d 9s"], "3c 5d 7h"))
    table.act(kind="play", seat=0)
    refused(table, "already decided: play", kind="fold", seat=0)


def test_betting_closes_early_once_every_seat_in_play_has_bet() -> None:
    table = Table(10_000, 10_000)
    table.act(kind="bet", seat=0, ante=100)
    assert table.state.phase == "betting"
    assert not GAME.wants_deck(table.state)
    events = table.act(kind="bet", seat=1, ante=100)
    assert types(events) == ["bet_placed", "betting_closed"]
    assert GAME.wants_deck(table.state)
    assert GAME.deadline(table.state) is None


def test_a_seat_that_has_not_bet_at_the_deadline_sits_the_round_out() -> None:
    table = Table(10_000, 10_000)
    table.act(kind="bet", seat=1, ante=100)
    refused(table, "deadline is", kind="timeout")
    events = table.act(kind="timeout", now=table.state.deadline)
    assert [event.to_json() for event in events] == [
        {"type": "bet_missed", "seat": 0},
        {"type": "betting_closed", "seats": [1]},
    ]
    events = table.act(kind="deal", deck=deck_for(["Ac Kd 2h"], "3c 5d 7h"))
    assert [event.to_json().get("seat") for event in events[1:]] == [1, None]


def test_a_bet_deadline_with_no_bet_idles_the_table_until_someone_bets() -> None:
    table = Table(10_000)
    deadline = table.state.deadline
    assert deadline == table.now + 15
    table.act(kind="timeout", now=deadline)
    assert (table.state.phase, table.state.deadline) == ("idle", None)
    refused(table, "no deadline", kind="timeout", now=deadline + 100)
    events = table.act(kind="bet", seat=0, ante=100, now=deadline + 100)
    assert types(events) == ["betting_opened", "bet_placed", "betting_closed"]


def test_late_bets_and_decisions_are_refused_until_the_timeout_arrives() -> None:
    table = Table(10_000, 10_000)
    assert table.state.deadline is not None
    refused(table, "run out", kind="bet", seat=0, ante=100, now=table.state.deadline + 1)
    table.act(kind="bet", seat=0, ante=100)
    table.act(kind="bet", seat=1, ante=100)
    table.act(kind="deal", deck=deck_for(["Ac Kd 2h", "4c 4d 9s"], "3c 5d 7h"))
    assert table.state.deadline == table.now + 15
    refused(table, "run out", kind="play", seat=0, now=table.state.deadline + 0.5)


def test_no_decision_in_time_is_a_fold() -> None:
    table = Table(10_000, 10_000)
    table.act(kind="bet", seat=0, ante=100)
    table.act(kind="bet", seat=1, ante=100, pair_plus=100)
    table.act(kind="deal", deck=deck_for(["Ac Kd 2h", "4c 4d 9s"], "3c 5d 7h"))
    table.act(kind="play", seat=0)
    events = table.act(kind="timeout", now=table.state.deadline)
    assert events[0].to_json() == {"type": "folded", "seat": 1, "ante": 100, "timed_out": True}
    assert table.stack(1) == 10_000 - 100 + 100  # Ante lost, Pair Plus pair won 1:1
    assert types(events)[-2:] == ["hand_ended", "betting_opened"]


def test_sit_needs_an_empty_seat_and_a_stack_for_the_least_ante_and_play() -> None:
    table = Table(10_000)
    refused(table, "seat 0 is taken", kind="sit", seat=0, stack=10_000)
    refused(table, r"at least \$2\.00 to sit", kind="sit", seat=1, stack=199)
    refused(table, "no seat 6", kind="sit", seat=6, stack=10_000)
    events = table.act(kind="sit", seat=1, stack=200)
    assert [move.amount for move in events[0].moves()] == [200]


def test_leave_between_rounds_cashes_out_the_stack() -> None:
    table = Table(10_000, 5_000)
    events = table.act(kind="leave", seat=1)
    assert [(m.source, m.target, m.amount) for e in events for m in e.moves()] == [
        ("stack:1", "bankroll:1", 5_000)
    ]
    assert table.state.seats[1] is None


def test_leave_after_betting_before_the_deal_returns_the_bets() -> None:
    table = Table(10_000, 5_000)
    table.act(kind="bet", seat=1, ante=100, pair_plus=50)
    events = table.act(kind="leave", seat=1)
    assert [event.to_json() for event in events] == [
        {"type": "bets_returned", "seat": 1, "amount": 150},
        {"type": "player_left", "seat": 1, "stack": 5_000},
    ]


def test_leave_during_a_hand_takes_effect_at_its_end() -> None:
    table = Table(10_000, 5_000)
    table.act(kind="bet", seat=0, ante=100)
    table.act(kind="bet", seat=1, ante=100)
    table.act(kind="deal", deck=deck_for(["Ac Kd 2h", "4c 4d 9s"], "3c 5d 7h"))
    assert types(table.act(kind="leave", seat=1)) == ["leave_requested"]
    refused(table, "already leaves", kind="leave", seat=1)
    table.act(kind="play", seat=0)
    events = table.act(kind="play", seat=1)
    left = [event.to_json() for event in events if event.to_json()["type"] == "player_left"]
    assert left == [{"type": "player_left", "seat": 1, "stack": 5_100}]
    assert table.state.seats[1] is None
    assert table.tally.conserved(table.state)


def test_top_up_is_taken_between_rounds_only() -> None:
    table = Table(10_000, 10_000)
    table.act(kind="top_up", seat=0, amount=500)
    assert table.stack(0) == 10_500
    table.act(kind="bet", seat=0, ante=100)
    refused(table, "top up between rounds", kind="top_up", seat=0, amount=500)
    refused(table, r"more than \$0\.00", kind="top_up", seat=1, amount=0)


def test_sitting_out_seats_are_not_waited_for_and_cannot_bet() -> None:
    table = Table(10_000, 10_000)
    table.act(kind="sit_out", seat=1)
    refused(table, "already sitting out", kind="sit_out", seat=1)
    refused(table, "sitting out: sit in to bet", kind="bet", seat=1, ante=100)
    events = table.act(kind="bet", seat=0, ante=100)
    assert types(events) == ["bet_placed", "betting_closed"]
    table.act(kind="sit_in", seat=1)
    refused(table, "already in play", kind="sit_in", seat=1)


def test_connection_flags_change_nothing_in_play() -> None:
    table = Table(10_000)
    table.act(kind="disconnect", seat=0)
    refused(table, "already disconnected", kind="disconnect", seat=0)
    assert GAME.view(table.state, None)["seats"][0]["connected"] is False
    table.act(kind="connect", seat=0)
    assert GAME.view(table.state, None)["seats"][0]["connected"] is True


def test_unknown_or_malformed_actions_are_refused() -> None:
    table = Table(10_000)
    refused(table, "unknown action 'raise'", kind="raise", seat=0)
    refused(table, "seat number", kind="bet", ante=100)
    refused(table, "seat 3 is empty", kind="bet", seat=3, ante=100)
    with pytest.raises(IllegalAction, match="time 'now'"):
        GAME.apply(table.state, {"kind": "bet", "seat": 0, "ante": 100})


def test_a_deal_needs_a_whole_deck_when_one_is_due() -> None:
    table = Table(10_000)
    refused(table, "no deal is due", kind="deal", deck=deck_for(["Ac Kd 2h"], "3c 5d 7h"))
    table.act(kind="bet", seat=0, ante=100)
    refused(table, "all 52 cards, not 51", kind="deal", deck=deck_for(["Ac Kd 2h"], "3c 5d 7h")[1:])
    refused(table, "appears twice", kind="deal", deck=["Ac", "Ac", *deck_for([], "2c 3c 4c")[2:]])


HIDDEN_PLAYER = ["As", "Kd", "2h"]
HIDDEN_OTHER = ["4c", "4d", "9s"]
HIDDEN_DEALER = ["3c", "5d", "7h"]


def dealt_table() -> Table:
    table = Table(10_000, 10_000, 10_000)
    table.act(kind="bet", seat=0, ante=100)
    table.act(kind="bet", seat=1, ante=100)
    table.act(kind="timeout", now=table.state.deadline)
    table.act(
        kind="deal",
        deck=deck_for([" ".join(HIDDEN_PLAYER), " ".join(HIDDEN_OTHER)], " ".join(HIDDEN_DEALER)),
    )
    return table


def shown(view: dict[str, Any], cards: list[str]) -> list[str]:
    text = json.dumps(view)
    return [card for card in cards if f'"{card}"' in text]


def test_views_before_the_reveal_show_only_the_viewers_own_cards() -> None:
    table = dealt_table()
    mine = GAME.view(table.state, 0)
    assert mine["you"]["cards"] == HIDDEN_PLAYER
    assert shown(mine, HIDDEN_OTHER + HIDDEN_DEALER) == []
    assert "hand" not in mine["seats"][1]
    assert mine["seats"][1]["card_count"] == 3
    assert mine["dealer"] == {"card_count": 3, "cards": None}
    for viewer in (1, 2, None):
        view = GAME.view(table.state, viewer)
        assert shown(view, HIDDEN_PLAYER + HIDDEN_DEALER) == []
    table.act(kind="play", seat=0)
    assert shown(GAME.view(table.state, 2), HIDDEN_PLAYER + HIDDEN_OTHER + HIDDEN_DEALER) == []


def test_views_after_the_reveal_show_every_played_hand_but_no_folded_one() -> None:
    table = dealt_table()
    table.act(kind="play", seat=0)
    table.act(kind="fold", seat=1)
    view = GAME.view(table.state, None)
    everything = HIDDEN_PLAYER + HIDDEN_OTHER + HIDDEN_DEALER
    assert shown(view, everything) == HIDDEN_PLAYER + HIDDEN_DEALER
    assert shown(GAME.view(table.state, 1), HIDDEN_OTHER) == HIDDEN_OTHER  # its owner sees it
    assert view["dealer"]["hand"] == "seven-high (7-5-3)"
    assert view["dealer"]["qualifies"] is False
    assert view["you"] is None


def test_next_deal_hides_the_last_hand_again() -> None:
    table = dealt_table()
    table.act(kind="play", seat=0)
    table.act(kind="fold", seat=1)
    table.act(kind="bet", seat=0, ante=100)
    table.act(kind="timeout", now=table.state.deadline)
    table.act(kind="deal", deck=deck_for(["Qc Qd Qh"], "2s 3s 4s"))
    view = GAME.view(table.state, 1)
    assert shown(view, ["Qc", "Qd", "Qh", "2s", "3s", "4s", *HIDDEN_OTHER]) == []


def test_legal_actions_follow_the_round() -> None:
    table = Table(10_000, 10_000)
    assert GAME.legal_actions(table.state, 3) == [{"kind": "sit", "min_stack": 200}]
    kinds = [action["kind"] for action in GAME.legal_actions(table.state, 0)]
    assert kinds == ["bet", "top_up", "sit_out", "leave"]
    assert GAME.legal_actions(table.state, 0)[0] == {
        "kind": "bet",
        "min_ante": 100,
        "max_ante": 5_000,
        "max_pair_plus": 9_800,
    }
    table.act(kind="bet", seat=0, ante=300)
    table.act(kind="bet", seat=1, ante=100)
    table.act(kind="deal", deck=deck_for(["Ac Kd 2h", "4c 4d 9s"], "3c 5d 7h"))
    assert GAME.legal_actions(table.state, 0) == [
        {"kind": "play", "amount": 300},
        {"kind": "fold"},
        {"kind": "sit_out"},
        {"kind": "leave"},
    ]


def test_state_round_trips_through_json() -> None:
    table = dealt_table()
    table.act(kind="disconnect", seat=2)
    data = json.loads(json.dumps(GAME.dump(table.state)))
    assert GAME.load(data) == table.state
    assert data["seats"][0]["cards"] == HIDDEN_PLAYER


def test_every_event_is_json() -> None:
    table = dealt_table()
    table.act(kind="play", seat=0)
    table.act(kind="fold", seat=1)
    for event in table.events:
        data = event.to_json()
        assert json.loads(json.dumps(data)) == data
        assert isinstance(data["type"], str)
