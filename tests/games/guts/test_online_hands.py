"""Online Guts, one hand at a time: deal, declare, reveal and settle (docs/rules/guts-online.md)."""

from __future__ import annotations

import pytest

from games.cards import DECK
from games.engine import IllegalAction
from games.guts.rounds import evolve

from .helpers import Table, of

AA = "As Ad 2c"
KK = "Ks Kd 3c"
QJ9 = "Qs Jd 9c"


def test_deal_gives_three_cards_one_at_a_time_in_seat_order_from_the_button() -> None:
    table = Table(button=1)
    table.antes()
    top = ["As", "Ks", "Qs", "Ah", "Kh", "Qh", "Ad", "Kd", "Qd"]
    deck = top + [str(card) for card in DECK if str(card) not in top]
    events = table.act("deal", deck=deck)
    assert of(events, "hand_started") == [
        {"type": "hand_started", "hand": 1, "round": 1, "button": 1, "seats": [2, 0, 1], "pot": 300}
    ]
    assert [(e["seat"], e["cards"]) for e in of(events, "cards_dealt")] == [
        (2, ["As", "Ah", "Ad"]),
        (0, ["Ks", "Kh", "Kd"]),
        (1, ["Qs", "Qh", "Qd"]),
    ]
    assert table.state.phase == "declare"
    assert table.state.deadline == table.now + 15


def test_declare_ends_as_soon_as_everyone_has_chosen() -> None:
    table = Table()
    table.antes()
    table.deal(P0=AA, P1=KK, P2=QJ9)
    table.declare(P0="in", P1="out")
    assert table.state.phase == "declare"
    events = table.declare(P2="out")
    assert table.state.phase == "pause"
    assert [(e["seat"], e["choice"], e["timed_out"]) for e in of(events, "declared")] == [
        (1, "out", False),
        (2, "out", False),
        (0, "in", False),
    ]


def test_a_choice_is_final() -> None:
    table = Table()
    table.antes()
    table.deal()
    table.declare(P0="in")
    before = table.state
    with pytest.raises(IllegalAction, match="already chosen"):
        table.act("declare", 0, choice="out")
    assert table.state is before


def test_no_choice_in_time_is_out_and_the_cards_are_mucked() -> None:
    table = Table()
    table.antes()
    table.deal(P0=AA, P1=KK, P2=QJ9)
    table.declare(P0="in", P1="in")
    events = table.timeout()
    assert of(events, "declared")[1] == {
        "type": "declared",
        "seat": 2,
        "choice": "out",
        "timed_out": True,
    }
    assert of(events, "mucked") == [{"type": "mucked", "seat": 2}]
    assert [e["seat"] for e in of(events, "hand_shown")] == [1, 0]


def test_the_views_tell_a_hand_the_clock_mucked_from_a_chosen_out() -> None:
    from games.guts.views import view

    table = Table()
    table.antes()
    table.deal(P0=AA, P1=KK, P2=QJ9)
    table.declare(P0="in", P1="out")
    table.timeout()
    mucked, chose = view(table.state, 2), view(table.state, 1)
    assert mucked["you"]["timed_out"] is True
    assert chose["you"]["timed_out"] is False
    seats = {entry["seat"]: entry for entry in view(table.state, None)["seats"]}
    assert seats[2].get("timed_out") is True
    assert "timed_out" not in seats[1]
    table.timeout()  # the pause ends: the next ante call forgets it
    assert view(table.state, 2)["you"]["timed_out"] is False


def test_timeout_is_refused_before_the_deadline() -> None:
    table = Table()
    table.antes()
    table.deal()
    before = table.state
    with pytest.raises(IllegalAction, match="has not passed"):
        table.act("timeout")
    assert table.state is before


def test_one_player_in_alone_takes_the_pot_less_rake_and_the_round_ends() -> None:
    table = Table()
    events = table.hand(P0=KK, P0_choice="in", P1_choice="out", P2_choice="out")
    assert of(events, "rake_taken") == [{"type": "rake_taken", "amount": 9}]
    assert of(events, "pot_won") == [{"type": "pot_won", "seat": 0, "amount": 291}]
    assert of(events, "round_ended") == [{"type": "round_ended", "round": 1, "reason": "no_losers"}]
    assert table.stacks() == [10_191, 9_900, 9_900]
    assert table.state.pot == 0
    assert not table.state.round_active


def test_rake_is_three_percent_capped_at_three_dollars_as_in_seed_000() -> None:
    table = Table(stacks=(500_000, 500_000, 500_000), ante=4_000)
    events = table.hand(P0=KK, P0_choice="in", P1_choice="out", P2_choice="out")
    assert of(events, "hand_ended")[0]["pot"] == 12_000
    assert of(events, "rake_taken") == [{"type": "rake_taken", "amount": 300}]
    assert of(events, "pot_won")[0]["amount"] == 11_700


def test_tied_best_hands_split_the_pot_and_odd_cents_go_in_seat_order() -> None:
    table = Table(ante=101, rake_basis_points=0, button=1)
    events = table.hand(
        P0="As Kd 9c", P2="Ad Ks 9h", P1="Qs Jd 8c", P0_choice="in", P2_choice="in", P1_choice="out"
    )
    assert of(events, "pot_won") == [
        {"type": "pot_won", "seat": 2, "amount": 152},
        {"type": "pot_won", "seat": 0, "amount": 151},
    ]
    assert of(events, "rake_taken") == []
    assert of(events, "hand_ended")[0]["round_over"] is True


def test_every_loser_matches_the_pot_in_monte_carlo() -> None:
    table = Table("monte_carlo")
    events = table.hand(P0=AA, P1=KK, P2=QJ9, P0_choice="in", P1_choice="in", P2_choice="in")
    assert of(events, "pot_matched") == [
        {"type": "pot_matched", "seat": 1, "amount": 300, "owed": 300},
        {"type": "pot_matched", "seat": 2, "amount": 300, "owed": 300},
    ]
    assert table.state.pot == 600
    assert table.stacks() == [10_191, 9_600, 9_600]


def test_only_the_lowest_loser_matches_the_pot_in_survivor() -> None:
    table = Table("survivor")
    events = table.hand(P0=AA, P1=KK, P2=QJ9, P0_choice="in", P1_choice="in", P2_choice="in")
    assert of(events, "pot_matched") == [
        {"type": "pot_matched", "seat": 2, "amount": 300, "owed": 300}
    ]
    assert of(events, "hand_ended")[0]["owed"] == [[2, 300]]
    assert table.stacks() == [10_191, 9_900, 9_600]


def test_losers_tied_for_lowest_each_match_in_survivor() -> None:
    table = Table("survivor", (10_000,) * 4)
    events = table.hand(
        P0=AA, P1="Qs Jd 9c", P2="Qh Jc 9d", P0_choice="in", P1_choice="in", P2_choice="in"
    )
    assert [e["seat"] for e in of(events, "pot_matched")] == [1, 2]
    assert table.state.pot == 800


def test_a_match_is_capped_by_the_seed_000_family() -> None:
    """Seed 000: a 50-cent game caps the match at $10 (its table wins over its example)."""
    table = Table("monte_carlo", (100_000,) * 3, ante=50)
    table.antes()
    table.state = evolve(table.state, pot=2_000)
    table.deal(P0=AA, P1=KK)
    events = table.declare(P0="in", P1="in", P2="out")
    assert of(events, "pot_matched") == [
        {"type": "pot_matched", "seat": 1, "amount": 1_000, "owed": 1_000}
    ]


@pytest.mark.parametrize(("pot", "match"), [(2_000, 2_000), (12_000, 10_000)])
def test_seed_000_worked_example_with_a_hundred_dollar_cap(pot: int, match: int) -> None:
    """Seed 000: 'lose a hand with a $20 pot, pay $20; with a $120 pot, pay only $100'."""
    table = Table("monte_carlo", (100_000,) * 3, ante=50, match_cap=10_000)
    table.antes()
    table.state = evolve(table.state, pot=pot)
    table.deal(P0=AA, P1=KK)
    events = table.declare(P0="in", P1="in", P2="out")
    assert of(events, "pot_matched")[0]["amount"] == match


def test_nobody_in_carries_the_pot_and_everyone_antes_again() -> None:
    table = Table()
    events = table.hand(P0_choice="out", P1_choice="out", P2_choice="out")
    assert of(events, "pot_carried") == [{"type": "pot_carried", "pot": 300}]
    assert of(events, "round_ended") == []
    assert table.state.pot == 300
    table.timeout()
    assert table.state.phase == "ante"
    assert table.state.pending == (0, 1, 2)
    table.antes()
    events = table.deal()
    assert of(events, "hand_started")[0]["pot"] == 600


def test_a_player_who_does_not_ante_after_nobody_was_in_leaves_the_round() -> None:
    table = Table()
    table.hand(P0_choice="out", P1_choice="out", P2_choice="out")
    table.antes(0, 2)
    assert table.state.confirmed == (0, 2)
    events = table.deal()
    assert of(events, "hand_started")[0]["seats"] == [2, 0]
    assert table.state.seats[1] is not None and not table.state.seats[1].in_round


def test_reveal_shows_in_hands_with_their_names() -> None:
    table = Table()
    events = table.hand(P0=AA, P1=KK, P2=QJ9, P0_choice="in", P1_choice="in", P2_choice="out")
    assert [(e["seat"], e["cards"], e["description"]) for e in of(events, "hand_shown")] == [
        (1, ["Ks", "Kd", "3c"], "pair of kings, three kicker"),
        (0, ["As", "Ad", "2c"], "pair of aces, two kicker"),
    ]
