"""Four-Two-Two and Four-Two-Three (docs/rules/guts-classic.md, "Games with a second deal")."""

from __future__ import annotations

import pytest

from games.engine import ConfigError
from games.guts import GAME, make_config
from games.guts.commands import script
from tests.games.guts.helpers import of

from .classic_helpers import Classic


def _table(preset: str = "four_two_two", **options: object) -> Classic:
    return Classic(preset, rake_basis_points=0, **options)


def test_four_cards_down_then_two_face_up_for_each_player_in_and_the_best_five_of_six_wins() -> (
    None
):
    table = _table()
    events = table.deal(P1="As Ad Kc 9h", P2="Qs Qd Jc 8h", P0="4c 5d 6h 8s", stock="2c 3d 7h 9c")
    assert [len(e["cards"]) for e in of(events, "cards_dealt")] == [4, 4, 4]
    assert table.state.wild == "2"
    events = table.declare(P1="in", P2="in", P0="out")
    assert [(e["seat"], e["card"]) for e in of(events, "face_up_card")] == [
        (1, "2c"),
        (2, "3d"),
        (1, "7h"),
        (2, "9c"),
    ]
    shown = {e["seat"]: e["description"] for e in of(events, "hand_shown")}
    assert shown == {1: "three aces, K-9 kickers", 2: "pair of queens, J-9-8 kickers"}
    assert of(events, "pot_won") == [{"type": "pot_won", "seat": 1, "amount": 300}]
    assert of(events, "pot_matched") == [
        {"type": "pot_matched", "seat": 2, "amount": 300, "owed": 300}
    ]
    assert table.stacks() == [9_900, 10_200, 9_600] and table.state.game_active
    view = GAME.view(table.state, 0)
    assert view["seats"][1]["face_up"] == ["2c", "7h"]


def test_a_loser_pays_the_pot_up_to_the_maximum_loss_per_deal() -> None:
    table = _table(max_loss=200)
    table.deal(P1="As Ad Kc 9h", P2="Qs Qd Jc 8h", stock="2c 3d 7h 9c")
    events = table.declare(P1="in", P2="in", P0="out")
    assert of(events, "pot_matched") == [
        {"type": "pot_matched", "seat": 2, "amount": 200, "owed": 200}
    ]
    assert table.state.pot == 200


def test_the_game_ends_when_one_player_stays_in_alone_and_takes_the_whole_pot() -> None:
    table = _table()
    table.deal()
    events = table.declare(P1="in", P2="out", P0="out")
    assert of(events, "face_up_card") == [] and of(events, "hand_shown") == []
    assert of(events, "pot_won") == [{"type": "pot_won", "seat": 1, "amount": 300}]
    assert of(events, "round_ended") == [{"type": "round_ended", "round": 1, "reason": "pot_empty"}]
    assert not table.state.game_active


def test_nobody_in_carries_the_pot_without_the_penalty() -> None:
    table = _table()
    table.deal()
    events = table.declare(P1="out", P2="out", P0="out")
    assert of(events, "pot_carried") == [{"type": "pot_carried", "pot": 300}]
    assert table.state.pot == 300 and table.state.game_active


def test_nobody_plays_penalty_the_best_four_cards_and_every_two_match_the_pot() -> None:
    table = _table(nobody_plays_penalty=True)
    table.deal(P1="As Ad Ac 9h", P2="2s Qd Jc 8h", P0="4c 5d 6h 8s")
    events = table.declare(P1="out", P2="out", P0="out")
    assert {e["seat"]: e["description"] for e in of(events, "hand_shown")} == {
        1: "three aces, nine kicker",
        2: "pair of queens, J-8 kickers",
    }
    assert [(e["seat"], e["amount"]) for e in of(events, "pot_matched")] == [(1, 300), (2, 300)]
    assert table.state.pot == 900


@pytest.mark.parametrize(
    ("deck", "pot", "over"),
    [
        ("Kd Ks 4h 5h", 0, True),  # pair of aces beats the deck's kings: the game ends
        ("2d Ks Kh 5h", 600, False),  # the deck's three kings win: the lone hand matches
        ("Ah As Kd 9s", 300, False),  # the same pair and kickers: a tie is no win, no cost
    ],
)
def test_lone_vs_deck_a_lone_hand_plays_its_four_cards_against_the_decks_next_four(
    deck: str, pot: int, over: bool
) -> None:
    table = _table(lone_vs_deck=True)
    table.deal(P1="Ac Ad Kc 9h", stock=deck)
    events = table.declare(P1="in", P2="out", P0="out")
    assert of(events, "deck_hand_shown")[0]["cards"] == deck.split()
    assert of(events, "hand_shown")[0]["seat"] == 1
    assert table.state.pot == pot and table.state.game_active is not over
    assert GAME.view(table.state, 0)["ghost"] == deck.split()


def test_dropped_pay_ante_players_out_ante_again_while_the_losers_match() -> None:
    table = _table(dropped_pay_ante=True)
    table.deal(P1="As Ad Kc 9h", P2="Qs Qd Jc 8h", stock="2c 3d 7h 9c")
    events = table.declare(P1="in", P2="in", P0="out")
    assert of(events, "ante_posted")[-1] == {"type": "ante_posted", "seat": 0, "amount": 100}
    assert table.state.pot == 400


def test_four_two_three_turns_up_three_community_cards_for_the_best_five_of_seven() -> None:
    table = _table("four_two_three")
    table.deal(P1="As Ad 9c 8h", P2="Qs Qd Jc 3h", stock="Ks Kh 2c")
    events = table.declare(P1="in", P2="in", P0="out")
    assert of(events, "community_card") == [{"type": "community_card", "cards": ["Ks", "Kh", "2c"]}]
    shown = {e["seat"]: e["description"] for e in of(events, "hand_shown")}
    assert shown == {1: "full house, aces full of kings", 2: "full house, kings full of queens"}
    assert of(events, "pot_won")[0]["seat"] == 1
    assert GAME.view(table.state, 0)["community"] == ["Ks", "Kh", "2c"]


@pytest.mark.parametrize(
    ("preset", "options", "message"),
    [
        ("four_two_two", {"seats": 9}, "seats must be from 2 to 8 for four_two_two"),
        ("four_two_two", {"declare": "sequential"}, "plays with declare=simultaneous"),
        ("four_two_two", {"ghost": "always"}, "ghost is not an option of four_two_two"),
        ("four_two_two", {"all_out": "henry"}, "takes all_out carry or chicken_fee"),
        ("four_two_two", {"flow": "legs"}, "flow is fixed by the preset"),
        ("four_two_three", {"cards": 3}, "cards must be one of 4, not 3"),
        ("two_card", {"lone_vs_deck": True}, "lone_vs_deck is an option of the games with"),
    ],
)
def test_bad_four_two_options_name_what_is_valid(
    preset: str, options: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        make_config(preset, {"ante": 100, **options})


def test_four_two_three_seats_ten_and_four_two_two_defaults_follow_the_page() -> None:
    config = make_config("four_two_three", {"ante": 100, "seats": 10})
    assert config.seats == 10
    config = make_config("four_two_two", {"ante": 100})
    assert (config.max_loss, config.pot_limit, config.declare) == (10_000, None, "simultaneous")


def test_a_four_two_script_gives_the_face_up_cards_and_the_decks_four() -> None:
    result = script(
        {
            "game": "guts",
            "preset": "four_two_two",
            "options": {"ante": 100, "lone_vs_deck": True, "rake_basis_points": 0},
            "button": "C",
            "players": {"A": 10_000, "B": 10_000, "C": 10_000},
            "hands": [
                {
                    "cards": {"A": "As Ad Kc 9h", "B": "Qs Qd Jc 8h"},
                    "declare": {"A": "in", "B": "in"},
                    "up": {"A": "2c 7h", "B": "3d 9c"},
                },
                {"cards": {"A": "As Ad Kc 9h"}, "declare": {"A": "in"}, "versus": "2d Ks Kh 5h"},
            ],
        }
    )
    first, second = result["hands"]
    assert first["shown"] == {"A": "As Ad Kc 9h 2c 7h", "B": "Qs Qd Jc 8h 3d 9c"}
    assert second["payments"] == {"A": 300} and result["pot"] == 600
