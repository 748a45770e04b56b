"""The seeds' rules as docs/rules/guts-online.md settles them (issue 32, item 5).

Step 6: only players who were Out ante again (seed 000, "an ante must be made by players who
were Out"; seed 004, rules 20-21); a short loser's `top_up_seconds` come on top of any ante call
(seed 000: "5 seconds extra ... before the hand begins"). "Seats, leaving": a player who chose In
and leaves stays In.
"""

from __future__ import annotations

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
    assert of(events, "player_left") == [{"type": "player_left", "seat": 0, "amount": 10_191}]
    assert table.state.seats[0] is None
    assert table.state.confirmed == (1,)
