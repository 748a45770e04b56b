"""The seeds' rules as docs/rules/guts-online.md settles them (issue 32, item 5).

Step 6: only players who were Out ante again (seed 000, "an ante must be made by players who
were Out"; seed 004, rules 20-21); a short loser's `top_up_seconds` come on top of any ante call
(seed 000: "5 seconds extra ... before the hand begins"). "Seats, leaving": a player who chose In
and leaves stays In.
"""

from __future__ import annotations

from typing import Any

from games.guts import GAME

from .helpers import Table, of

AA = "As Ad 2c"
KK = "Ks Kd 3c"
QJ9 = "Qs Jd 9c"
T82 = "Ts 8d 2h"


# -- who antes after a hand -------------------------------------------------------------------


def test_monte_carlo_asks_only_the_players_who_were_out_to_ante() -> None:
    table = Table("monte_carlo", (10_000,) * 4)
    table.hand(P0=AA, P1=KK, P2=QJ9, P0_choice="in", P1_choice="in", P2_choice="in")
    events = table.timeout()
    # P0 won and P1, P2 paid: all three were In. Only P3, who was Out, is asked.
    assert of(events, "ante_called") == [{"type": "ante_called", "seats": [3], "owing": []}]
    table.antes()
    events = table.deal()
    assert of(events, "hand_started")[0]["seats"] == [2, 3, 0, 1]
    assert of(events, "hand_started")[0]["pot"] == 2 * 400 + 100


def test_survivor_excuses_the_winner_and_the_in_losers_who_owe_nothing() -> None:
    table = Table("survivor", (10_000,) * 4)
    table.hand(P0=AA, P1=KK, P2=QJ9, P0_choice="in", P1_choice="in", P2_choice="in")
    assert of(table.events, "pot_matched") == [
        {"type": "pot_matched", "seat": 2, "amount": 400, "owed": 400}
    ]
    events = table.timeout()
    # P1 lost but was not the lowest: In, owing nothing, excused like the winner.
    assert of(events, "ante_called") == [{"type": "ante_called", "seats": [3], "owing": []}]
    table.act("decline", 3)
    events = table.deal()
    assert sorted(of(events, "hand_started")[0]["seats"]) == [0, 1, 2]
    assert of(events, "hand_started")[0]["pot"] == 400


def test_when_everyone_was_in_the_next_hand_is_dealt_without_an_ante_call() -> None:
    table = Table("monte_carlo", (10_000, 10_000))
    table.hand(P0=AA, P1=KK, P0_choice="in", P1_choice="in")
    events = table.timeout()
    assert of(events, "ante_called") == []
    assert table.state.phase == "deal"
    assert table.state.confirmed == (0, 1)
    assert table.state.pot == 200


def test_a_winner_who_leaves_between_hands_is_not_dealt_in() -> None:
    table = Table("survivor", (10_000,) * 3)
    table.hand(P0=AA, P1=KK, P2=QJ9, P0_choice="in", P1_choice="in", P2_choice="out")
    table.act("leave", 0)
    events = table.timeout()
    assert of(events, "ante_called") == [{"type": "ante_called", "seats": [2], "owing": []}]
    table.antes()
    assert table.state.confirmed == (1, 2)


def test_a_winner_who_sits_out_between_hands_leaves_the_round() -> None:
    table = Table("survivor", (10_000,) * 3)
    table.hand(P0=AA, P1=KK, P2=QJ9, P0_choice="in", P1_choice="in", P2_choice="out")
    table.act("sit_out", 0)
    table.timeout()
    assert table.state.pending == (2,)
    table.antes()
    assert table.state.confirmed == (1, 2)
    player = table.state.seats[0]
    assert player is not None and not player.in_round


# -- the short loser's top-up window --------------------------------------------------------


class _Recorded(Table):
    """A table that keeps the actions applied to it, to apply them again from the start."""

    def __init__(self, *args: Any, **options: Any) -> None:
        super().__init__(*args, **options)
        self.start = self.state
        self.recorded: list[dict[str, Any]] = []

    def act(self, kind: str, seat: int | None = None, **fields: Any) -> tuple[Any, ...]:
        action: dict[str, Any] = {"kind": kind, "now": self.now, **fields}
        if seat is not None:
            action["seat"] = seat
        self.recorded.append(action)
        return super().act(kind, seat, **fields)


def _short_loser(**options: Any) -> _Recorded:
    """P2 (350 on the table after the ante) loses 400 at Survivor; P3 was Out, so an ante
    call opens."""
    table = _Recorded("survivor", (10_000, 10_000, 450, 10_000), **options)
    table.hand(P0=AA, P1=KK, P2=QJ9, P0_choice="in", P1_choice="in", P2_choice="in")
    assert table.state.owed == (0, 0, 400, 0)
    events = table.timeout()
    assert of(events, "ante_called") == [{"type": "ante_called", "seats": [3], "owing": [2]}]
    return table


def test_the_short_losers_window_runs_top_up_seconds_after_the_ante_call_times_out() -> None:
    table = _short_loser()
    called = table.now
    assert table.state.deadline == called + 10  # the ante call
    events = table.timeout()  # P3 never answers: the ante call closes
    assert of(events, "sat_out") == [{"type": "sat_out", "seat": 3, "reason": "ante_timeout"}]
    assert of(events, "pot_matched") == []
    assert table.state.phase == "ante" and table.state.pending == ()
    assert table.state.deadline == called + 10 + 5  # then the top-up window
    table.now = called + 13
    events = table.act("top_up", 2, amount=100)
    assert of(events, "pot_matched") == [
        {"type": "pot_matched", "seat": 2, "amount": 400, "owed": 400}
    ]
    assert table.state.phase == "deal"
    assert table.state.confirmed == (0, 1, 2)


def test_the_window_runs_from_the_moment_the_last_ante_is_answered() -> None:
    table = _short_loser()
    table.now += 2
    table.act("ante", 3)
    assert table.state.phase == "ante"
    assert table.state.deadline == table.now + 5
    with_window = table.now
    events = table.timeout()
    assert table.now == with_window + 5
    assert of(events, "pot_matched") == [
        {"type": "pot_matched", "seat": 2, "amount": 350, "owed": 400}
    ]
    assert table.state.phase == "deal"
    assert table.state.confirmed == (0, 1, 3)
    player = table.state.seats[2]
    assert player is not None and not player.in_round and table.stacks()[2] == 0


def test_an_ante_is_refused_once_the_call_has_closed_into_the_window() -> None:
    table = _short_loser()
    table.timeout()
    legal = GAME.legal_actions(table.state, 3)
    assert {"kind": "ante", "amount": 100} not in legal
    decline = [action for action in GAME.legal_actions(table.state, 2) if "owed" in action]
    assert decline == [{"kind": "decline", "owed": 400, "pays": 350}]


def test_with_nobody_asked_to_ante_the_window_alone_holds_the_deal() -> None:
    table = Table("monte_carlo", (10_000, 150))
    table.hand(P0=AA, P1=KK, P0_choice="in", P1_choice="in")
    assert table.state.owed == (0, 200)
    events = table.timeout()
    assert of(events, "ante_called") == [{"type": "ante_called", "seats": [], "owing": [1]}]
    assert table.state.deadline == table.now + 5


def test_the_window_is_the_same_when_the_actions_are_applied_again() -> None:
    table = _short_loser()
    table.now += 4
    table.act("ante", 3)
    table.timeout()
    state = table.start
    for action in table.recorded:
        state, _events = GAME.apply(state, action)
    assert state == table.state
    assert table.now == table.recorded[-2]["now"] + 5


# -- leaving after choosing In --------------------------------------------------------------


def test_a_player_who_chose_in_and_leaves_stays_in_and_may_win() -> None:
    table = Table("monte_carlo", (10_000,) * 3)
    table.antes()
    table.deal(P0=AA, P1=KK)
    table.declare(P0="in")
    events = table.act("leave", 0)
    assert of(events, "decided") == []  # already chose: nothing changes
    events = table.declare(P1="in", P2="out")
    assert sorted(shown["seat"] for shown in of(events, "hand_shown")) == [0, 1]
    assert of(events, "pot_won") == [{"type": "pot_won", "seat": 0, "amount": 291}]
    assert of(events, "player_left") == [{"type": "player_left", "seat": 0, "stack": 10_191}]
    assert table.state.seats[0] is None
    assert table.state.confirmed == (1,)
