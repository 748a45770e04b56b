"""Classic Guts: the basic game, the limit and reserve, and each option
(docs/rules/guts-classic.md)."""

from __future__ import annotations

import json

import pytest

from games.engine import IllegalAction
from games.guts import GAME
from tests.games.guts.helpers import of

from .classic_helpers import Classic


def test_a_game_starts_with_everyone_anteing_and_deals_two_cards_from_the_dealers_left() -> None:
    table = Classic()
    events = table.deal(P1="As Ad", P2="Ks Kd", P0="Qs Jd")
    assert [e["amount"] for e in of(table.events, "ante_posted")] == [100, 100, 100]
    assert of(events, "hand_started")[0]["seats"] == [1, 2, 0]
    assert [(e["seat"], e["cards"]) for e in of(events, "cards_dealt")] == [
        (1, ["As", "Ad"]),
        (2, ["Ks", "Kd"]),
        (0, ["Qs", "Jd"]),
    ]
    assert table.state.turn == 1


def test_sequential_declare_goes_in_turn_and_each_choice_is_public_at_once() -> None:
    table = Classic()
    table.deal()
    with pytest.raises(IllegalAction, match="seat 1's turn"):
        table.act("declare", 2, choice="in")
    events = table.declare(P1="in")
    assert of(events, "declared") == [
        {"type": "declared", "seat": 1, "choice": "in", "timed_out": False}
    ]
    assert GAME.view(table.state, 0)["seats"][1]["choice"] == "in"
    assert table.state.turn == 2


def test_two_in_show_down_the_winner_takes_the_pot_and_the_loser_pays_the_next_pot() -> None:
    table = Classic()
    table.deal(P1="As Ad", P2="Ks Kd", P0="Qs Jd")
    events = table.declare(P1="in", P2="in", P0="out")
    assert of(events, "pot_won") == [{"type": "pot_won", "seat": 1, "amount": 291}]
    assert of(events, "pot_matched") == [
        {"type": "pot_matched", "seat": 2, "amount": 300, "owed": 300}
    ]
    assert table.state.pot == 300 and table.state.game_active
    assert table.stacks() == [9_900, 10_191, 9_600]
    table.timeout()
    assert of(table.events, "ante_posted")[3:] == []  # the pot is not empty: nobody antes


def test_the_dealer_is_in_automatically_when_everyone_before_is_out_and_takes_the_pot() -> None:
    table = Classic()
    table.deal()
    events = table.declare(P1="out", P2="out")
    assert of(events, "declared")[-1] == {
        "type": "declared",
        "seat": 0,
        "choice": "in",
        "timed_out": False,
    }
    assert of(events, "pot_won") == [{"type": "pot_won", "seat": 0, "amount": 291}]
    assert of(events, "hand_shown") == []
    assert of(events, "round_ended") == [{"type": "round_ended", "round": 1, "reason": "pot_empty"}]
    assert not table.state.game_active


def test_the_seed_reserve_example_with_a_limit_of_100() -> None:
    """Pot 80, four In: the winner takes 80, three losers pay 80 each: pot 100, reserve 140.
    Won without a contest: pot 100, reserve 40. Won again: pot 40, reserve 0."""
    table = Classic(stacks=(10_000,) * 4, ante=20, pot_limit=100, rake_basis_points=0)
    table.deal(P1="As Ad", P2="Ks Kd", P3="Qs Qd", P0="Js Jd")
    table.declare(P1="in", P2="in", P3="in", P0="in")
    assert (table.state.pot, table.state.reserve) == (100, 140)
    assert of(table.events, "reserve_moved") == [
        {"type": "reserve_moved", "amount": 140, "to_reserve": True}
    ]
    table.deal()
    events = table.declare(P2="in", P3="out", P0="out", P1="out")
    assert of(events, "pot_won")[0]["amount"] == 100
    assert (table.state.pot, table.state.reserve) == (100, 40)
    table.deal()
    table.declare(P3="in", P0="out", P1="out", P2="out")
    assert (table.state.pot, table.state.reserve) == (40, 0)
    assert table.total() == 40_000


def test_when_all_players_in_tie_they_share_the_pot_and_the_game_ends() -> None:
    table = Classic(rake_basis_points=0)
    events = table.deal(P1="As Kd", P2="Ad Ks")
    events = table.declare(P1="in", P2="in", P0="out")
    assert [e["amount"] for e in of(events, "pot_won")] == [150, 150]
    assert table.state.pot == 0 and not table.state.game_active


def test_single_loser_only_the_worst_hand_pays_and_the_payer_skips_the_next_ante() -> None:
    table = Classic("single_loser", (10_000,) * 4)
    table.deal(P1="As Ad", P2="Ks Kd", P3="3s 2d")
    events = table.declare(P1="in", P2="in", P3="in", P0="out")
    assert [e["seat"] for e in of(events, "pot_matched")] == [3]
    table.timeout()
    posted = [e["seat"] for e in of(table.events, "ante_posted")][4:]
    assert posted == [0, 1, 2]


def test_double_the_pot_makes_each_loser_pay_twice_the_pot() -> None:
    table = Classic(payment_multiple=2)
    table.deal(P1="As Ad", P2="Ks Kd")
    events = table.declare(P1="in", P2="in", P0="out")
    assert of(events, "pot_matched")[0]["amount"] == 600


def test_without_winner_takes_pot_a_showdown_wins_nothing_and_only_a_lone_player_wins() -> None:
    table = Classic(winner_takes_pot=False)
    table.deal(P1="As Ad", P2="Ks Kd")
    events = table.declare(P1="in", P2="in", P0="out")
    assert of(events, "pot_won") == []
    assert table.state.pot == 600
    table.deal()
    events = table.declare(P2="out", P0="out")  # P1 deals now, and is In by the dealer's rule
    assert of(events, "pot_won") == [{"type": "pot_won", "seat": 1, "amount": 600 - 18}]


@pytest.mark.parametrize(
    ("rule", "pot", "stacks"),
    [
        ("carry", 300, [9_900, 9_900, 9_900]),
        ("chicken_fee", 600, [9_800, 9_800, 9_800]),
        ("wimp", 600, [9_900, 9_600, 9_900]),
        ("henry", 600, [9_900, 9_600, 9_900]),
    ],
)
def test_when_nobody_is_in_the_all_out_rule_applies(rule: str, pot: int, stacks: list[int]) -> None:
    table = Classic("simultaneous", all_out=rule)
    table.deal(P1="As Ad", P2="Ks Kd", P0="Qs Jd")
    table.declare(P1="out", P2="out", P0="out")
    assert table.state.pot == pot
    assert table.stacks() == stacks
    assert table.state.revealed == ((1,) if rule in ("wimp", "henry") else ())


def test_simultaneous_choices_stay_hidden_until_the_declare_ends() -> None:
    table = Classic("simultaneous")
    table.deal()
    events = table.declare(P2="in")
    assert of(events, "declared") == [] and of(events, "decided") == [
        {"type": "decided", "seat": 2}
    ]
    assert "choice" not in GAME.view(table.state, 0)["seats"][2]
    assert GAME.view(table.state, 0)["seats"][2]["decided"] is True


def test_a_lone_player_must_beat_the_ghost_and_a_tie_with_the_ghost_loses() -> None:
    table = Classic("kitty", declare="simultaneous")
    table.deal(P1="As Kd", ghost="Ad Ks")
    events = table.declare(P1="in", P2="out", P0="out")
    assert of(events, "ghost_shown")[0]["cards"] == ["Ad", "Ks"]
    assert of(events, "pot_won") == []
    assert of(events, "pot_matched") == [
        {"type": "pot_matched", "seat": 1, "amount": 300, "owed": 300}
    ]
    assert GAME.view(table.state, None)["ghost"] == ["Ad", "Ks"]


def test_when_the_ghost_beats_every_in_hand_everyone_in_pays() -> None:
    table = Classic("kitty", declare="simultaneous")
    table.deal(P1="Ks Qd", P2="Js Td", ghost="As Ad")
    events = table.declare(P1="in", P2="in", P0="out")
    assert [e["seat"] for e in of(events, "pot_matched")] == [1, 2]
    assert table.state.pot == 900


def test_ghost_when_alone_plays_only_against_a_single_player() -> None:
    table = Classic("ghost_when_alone")
    table.deal(P1="Ks Qd", P2="Js Td", ghost="As Ad")
    events = table.declare(P1="in", P2="in", P0="out")
    assert of(events, "ghost_shown") == []
    assert of(events, "pot_won")[0]["seat"] == 1


def test_a_lone_player_without_a_pair_pays_when_a_pair_is_needed() -> None:
    table = Classic(single_in_needs="pair", declare="simultaneous")
    table.deal(P1="As Kd")
    events = table.declare(P1="in", P2="out", P0="out")
    assert of(events, "hand_shown")[0]["seat"] == 1
    assert of(events, "pot_matched")[0]["amount"] == 300


def test_the_royal_crumpler_beats_aces() -> None:
    table = Classic("royal_crumpler")
    table.deal(P1="As Ad", P2="3c 2d")
    events = table.declare(P1="in", P2="in", P0="out")
    assert of(events, "pot_won")[0]["seat"] == 2


def test_the_batey_is_public_and_makes_two_card_hands_rank_as_three_cards() -> None:
    table = Classic("batey")
    events = table.deal(P1="9s 9d", P2="As 7d", community="Qh")
    assert of(events, "community_card") == [{"type": "community_card", "cards": ["Qh"]}]
    assert GAME.view(table.state, None)["community"] == ["Qh"]
    events = table.declare(P1="in", P2="in", P0="out")
    assert of(events, "pot_won")[0]["seat"] == 1
    assert of(events, "hand_shown")[0]["description"] == "pair of nines, queen kicker"


def test_no_peek_hides_a_seats_own_cards_until_the_hand_is_over() -> None:
    table = Classic("no_peek")
    events = table.deal(P1="As Ad")
    assert of(events, "cards_dealt") == []
    assert not any(e.visible_to(1) for e in events if e.type == "blind_cards_dealt")
    assert GAME.view(table.state, 1)["you"]["cards"] == []
    assert "cards" not in GAME.view(table.state, 1)["seats"][1]
    table.declare(P1="out", P2="out", P0="out")
    assert GAME.view(table.state, 1)["you"]["cards"] == ["As", "Ad"]


def test_pass_left_moves_one_card_to_each_players_left() -> None:
    table = Classic("three_card", pass_left=True)
    table.deal(P1="As Ad 2c", P2="Ks Kd 3c", P0="Qs Jd 9c")
    assert table.state.phase == "pass"
    table.act("pass", 1, card="2c")
    table.act("pass", 2, card="3c")
    with pytest.raises(IllegalAction, match="pass one of your cards"):
        table.act("pass", 0, card="As")
    events = table.act("pass", 0, card="9c")
    assert [(e["seat"], e["giver"], e["card"]) for e in of(events, "card_received")] == [
        (2, 1, "2c"),
        (0, 2, "3c"),
        (1, 0, "9c"),
    ]
    assert not any(e.visible_to(None) for e in events if e.type == "card_received")
    assert GAME.view(table.state, 1)["you"]["cards"] == ["As", "Ad", "9c"]
    assert table.state.phase == "declare" and table.state.turn == 1


def test_partial_reveal_turns_up_the_last_card_of_each_player_in() -> None:
    table = Classic("three_card", partial_reveal=True, declare="simultaneous")
    table.deal(P1="As Ad Kc", P2="Ks Kd Qc", P0="Qs Jd 9c")
    assert len(table.state.cards[1]) == 2
    events = table.declare(P1="in", P2="in", P0="in")
    assert [(e["seat"], e["card"]) for e in of(events, "face_up_card")] == [
        (1, "Kc"),
        (2, "Qc"),
        (0, "9c"),
    ]
    assert of(events, "pot_won")[0]["seat"] == 1


def test_the_dealer_challenge_gives_the_others_a_second_chance() -> None:
    table = Classic(dealer_challenge=True)
    table.deal(P1="As Ad", P0="Ks Kd")
    table.declare(P1="out", P2="out")
    assert not table.state.challenge and table.state.turn == 0  # the dealer chooses
    table.declare(P0="in")
    assert table.state.challenge and table.state.turn == 1
    events = table.declare(P1="in", P2="out")
    assert of(events, "pot_won")[0]["seat"] == 1
    assert of(events, "pot_matched")[0]["seat"] == 0


def test_winner_takes_all_losers_pay_the_winner_directly() -> None:
    table = Classic("winner_takes_all", declare="simultaneous")
    table.deal(P1="As Ad", P2="Ks Kd", ghost="3s 2d")
    events = table.declare(P1="in", P2="in", P0="out")
    assert of(events, "seat_paid") == [{"type": "seat_paid", "payer": 2, "payee": 1, "amount": 300}]
    assert table.state.pot == 0
    assert table.stacks() == [9_900, 10_491, 9_600]


def test_one_low_in_and_wild_the_lowest_face_up_card_is_in_and_its_rank_is_wild() -> None:
    table = Classic("one_low_wild", declare="simultaneous")
    events = table.deal(P1="As Kd 4c", P2="Qs Qd 9c", P0="Js Td 8c")
    assert [(e["seat"], e["card"]) for e in of(events, "face_up_card")] == [
        (1, "4c"),
        (2, "9c"),
        (0, "8c"),
    ]
    assert table.state.wild == "4"
    assert table.state.choices[1] == "in"
    assert GAME.legal_actions(table.state, 1)[0]["kind"] != "declare"
    events = table.declare(P2="in", P0="out")
    assert of(events, "pot_won")[0]["seat"] == 1  # A-K-wild is a straight: A-K-Q


def test_classic_states_dump_and_load() -> None:
    table = Classic("kitty", declare="simultaneous")
    table.deal(P1="As Ad")
    table.declare(P1="in")
    data = json.loads(json.dumps(GAME.dump(table.state)))
    assert GAME.load(data) == table.state


def test_hi_lo_splits_the_pot_between_the_best_high_and_the_best_low() -> None:
    table = Classic("hi_lo", (10_000,) * 4, ghost="none", rake_basis_points=0, ante=101)
    table.deal(P1="As Ad", P2="3s 2d", P3="Ks Qd", P0="9s 8d")
    assert GAME.legal_actions(table.state, 1)[0] == {
        "kind": "declare",
        "choices": ["high", "low", "both", "out"],
    }
    events = table.declare(P1="high", P2="low", P3="high", P0="out")
    assert of(events, "pot_won") == [
        {"type": "pot_won", "seat": 2, "amount": 202},
        {"type": "pot_won", "seat": 1, "amount": 202},
    ]
    assert of(events, "pot_matched") == [
        {"type": "pot_matched", "seat": 3, "amount": 404, "owed": 404}
    ]


def test_a_high_low_declarer_who_fails_either_way_wins_nothing_and_pays() -> None:
    table = Classic("hi_lo", ghost="none", rake_basis_points=0)
    table.deal(P1="Ks Kd", P2="3s 2d", P0="As Ad")
    events = table.declare(P1="both", P2="low", P0="high")
    assert [(e["seat"], e["amount"]) for e in of(events, "pot_won")] == [(2, 150), (0, 150)]
    assert [e["seat"] for e in of(events, "pot_matched")] == [1]


def test_a_high_low_declarer_who_wins_both_ways_takes_the_whole_pot() -> None:
    table = Classic("hi_lo", ghost="none", rake_basis_points=0)
    table.deal(P1="As Ad", P2="Ks Kd")
    events = table.declare(P1="both", P2="high", P0="out")
    assert [(e["seat"], e["amount"]) for e in of(events, "pot_won")] == [(1, 150), (1, 150)]


def test_hi_lo_a_half_nobody_wins_stays_in_the_pot_and_each_half_must_beat_the_ghost() -> None:
    table = Classic("hi_lo", rake_basis_points=0)
    table.deal(P1="As Ad", P2="Qs Jd", ghost="Ks Kd")
    events = table.declare(P1="high", P2="high", P0="out")
    assert of(events, "pot_won") == [{"type": "pot_won", "seat": 1, "amount": 150}]
    assert table.state.pot == 150 + 300


def test_two_plus_one_deals_a_third_card_to_the_players_in_and_ranks_three_cards() -> None:
    table = Classic("two_plus_one", rake_basis_points=0)
    events = table.deal(P1="9s 9d", P2="As Kd", P0="4c 2h")
    assert [len(e["cards"]) for e in of(events, "cards_dealt")] == [2, 2, 2]
    stock = table.state.stock
    events = table.declare(P1="in", P2="in", P0="out")
    assert [(e["seat"], len(e["cards"])) for e in of(events, "cards_dealt")] == [(1, 1), (2, 1)]
    assert table.state.cards[1][2] == stock[0] and table.state.cards[2][2] == stock[1]
    assert of(events, "hand_shown")[0]["seat"] == 1
    assert len(of(events, "pot_won")) == 1


def test_two_plus_one_lone_player_in_takes_the_pot_on_two_cards() -> None:
    table = Classic("two_plus_one")
    table.deal()
    events = table.declare(P1="in", P2="out", P0="out")
    assert of(events, "cards_dealt") == []
    assert of(events, "pot_won")[0]["seat"] == 1


def test_two_plus_one_second_declare_costs_an_ante_and_a_drop_pays_nothing_more() -> None:
    table = Classic("two_plus_one", second_declare=True, rake_basis_points=0)
    table.deal(P1="9s 9d", P2="As Kd", P0="4c 2h")
    events = table.declare(P1="in", P2="in", P0="in")
    assert [e["seat"] for e in of(events, "ante_posted")] == [1, 2, 0]
    assert table.state.stage == 2 and table.state.pot == 600
    assert table.state.turn == 1
    events = table.declare(P1="in", P2="out", P0="out")
    assert of(events, "pot_won") == [{"type": "pot_won", "seat": 1, "amount": 600}]
    assert of(events, "pot_matched") == []
    assert table.stacks() == [9_800, 10_400, 9_800]


def test_a_player_who_sits_down_during_a_game_waits_for_the_next_game() -> None:
    table = Classic(stacks=(10_000, 10_000), seats=3)
    table.deal(P1="As Ad", P0="Ks Kd")
    table.act("sit", 2, stack=10_000)
    table.declare(P1="in", P0="in")
    assert table.state.game_active
    events = table.deal()
    assert of(events, "hand_started")[0]["seats"] == [0, 1]
    player = table.state.seats[2]
    assert player is not None and not player.in_round


def test_a_sequential_turn_that_times_out_is_out_and_the_turn_moves_on() -> None:
    table = Classic()
    table.deal()
    events = table.timeout()
    assert of(events, "declared") == [
        {"type": "declared", "seat": 1, "choice": "out", "timed_out": True}
    ]
    assert table.state.turn == 2
    assert table.state.deadline == table.now + 15


def test_two_low_in_and_wild_the_two_lowest_face_up_ranks_are_wild_and_their_holders_in() -> None:
    table = Classic("two_low_wild", declare="simultaneous")
    table.deal(P1="As Kd 4c", P2="Qs Qd 9c", P0="Js Td 8c")
    assert table.state.wild == "48"
    assert [table.state.choices[seat] for seat in (1, 2, 0)] == ["in", "", "in"]
    assert GAME.view(table.state, None)["seats"][0]["face_up"] == ["8c"]


def test_leaving_a_classic_hand_is_out_and_the_stack_goes_back_when_it_ends() -> None:
    table = Classic()
    table.deal(P1="As Ad", P2="Ks Kd")
    events = table.act("leave", 0)
    assert of(events, "declared") == [
        {"type": "declared", "seat": 0, "choice": "out", "timed_out": False}
    ]
    events = table.declare(P1="in", P2="in")
    assert of(events, "player_left") == [{"type": "player_left", "seat": 0, "stack": 9_900}]
    assert table.state.seats[0] is None


#: Tables where a rule governs a lone hand (rules: the basic game's declare): a ghost hand,
#: Winner Takes All, a pair needed to stay In alone, a dealer challenge.
_GOVERNED = [
    ("kitty", {}),
    ("ghost_when_alone", {}),
    ("winner_takes_all", {}),
    ("two_card", {"losers_pay": "winner"}),
    ("two_card", {"single_in_needs": "pair"}),
    ("two_card", {"dealer_challenge": True}),
    ("two_plus_one", {"dealer_challenge": True}),
]


@pytest.mark.parametrize(("preset", "options"), _GOVERNED)
def test_where_a_rule_governs_a_lone_hand_the_dealer_declares_last_like_everyone(
    preset: str, options: dict[str, object]
) -> None:
    table = Classic(preset, **options)
    assert not table.state.config.dealer_auto_in
    table.deal()
    events = table.declare(P1="out", P2="out")
    assert [e["seat"] for e in of(events, "declared")] == [1, 2]
    assert of(events, "hand_ended") == []
    assert table.state.phase == "declare" and table.state.turn == 0
    assert not table.state.challenge
    asked = {"kind": "declare", "choices": ["in", "out"]}
    assert asked in GAME.legal_actions(table.state, 0)
    assert asked in GAME.view(table.state, 0)["you"]["legal_actions"]
    assert GAME.view(table.state, None)["turn"] == 0


@pytest.mark.parametrize(
    ("preset", "options", "automatic"),
    [
        ("two_card", {}, True),
        ("three_card", {}, True),
        ("batey", {}, True),
        ("two_card", {"winner_takes_pot": False}, True),
        ("two_plus_one", {}, True),
        ("single_loser", {}, True),
        *[(preset, options, False) for preset, options in _GOVERNED],
        ("hi_lo", {}, False),
        ("napalm", {}, False),
        ("toh", {}, False),
    ],
)
def test_the_automatic_in_is_only_where_no_other_rule_governs_a_lone_hand(
    preset: str, options: dict[str, object], automatic: bool
) -> None:
    table = Classic(preset, **options)
    assert table.state.config.dealer_auto_in is automatic


def test_at_kitty_a_dealer_out_after_everyone_makes_all_out_and_the_chicken_fee_is_due() -> None:
    table = Classic("kitty", rake_basis_points=0)
    table.deal(P0="As Ad", ghost="Ks Kd")
    events = table.declare(P1="out", P2="out", P0="out")
    assert of(events, "declared")[-1] == {
        "type": "declared",
        "seat": 0,
        "choice": "out",
        "timed_out": False,
    }
    assert of(events, "ghost_shown") == [] and of(events, "pot_won") == []
    assert [(e["seat"], e["amount"]) for e in of(events, "ante_posted")] == [
        (1, 100),
        (2, 100),
        (0, 100),
    ]
    assert table.state.pot == 600 and table.stacks() == [9_800, 9_800, 9_800]
    assert table.state.game_active


def test_at_kitty_a_dealer_in_alone_plays_the_ghost_and_pays_when_it_loses() -> None:
    table = Classic("kitty", rake_basis_points=0)
    table.deal(P0="Ks Qd", ghost="As Ad")
    events = table.declare(P1="out", P2="out", P0="in")
    assert of(events, "ghost_shown")[0]["cards"] == ["As", "Ad"]
    assert of(events, "pot_matched") == [
        {"type": "pot_matched", "seat": 0, "amount": 300, "owed": 300}
    ]
    assert table.state.pot == 600


def test_a_dealer_whose_turn_times_out_after_everyone_out_is_out() -> None:
    table = Classic("winner_takes_all", rake_basis_points=0)
    table.deal()
    table.declare(P1="out", P2="out")
    events = table.timeout()
    assert of(events, "declared") == [
        {"type": "declared", "seat": 0, "choice": "out", "timed_out": True}
    ]
    assert table.state.pot == 600 and table.stacks() == [9_800, 9_800, 9_800]


def test_with_a_pair_needed_a_dealer_out_after_everyone_leaves_the_pot_as_it_is() -> None:
    table = Classic(single_in_needs="pair", rake_basis_points=0)
    table.deal(P0="As Kd")
    events = table.declare(P1="out", P2="out", P0="out")
    assert of(events, "pot_carried") == [{"type": "pot_carried", "pot": 300}]
    assert of(events, "hand_shown") == [] and of(events, "pot_matched") == []
    assert table.state.pot == 300 and table.stacks() == [9_900, 9_900, 9_900]


def test_with_a_dealer_challenge_a_dealer_out_after_everyone_opens_no_challenge() -> None:
    table = Classic(dealer_challenge=True, rake_basis_points=0)
    table.deal()
    events = table.declare(P1="out", P2="out", P0="out")
    assert not table.state.challenge and table.state.phase == "pause"
    assert of(events, "pot_carried") == [{"type": "pot_carried", "pot": 300}]
