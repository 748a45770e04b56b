"""The table state machine: seats, the hand, timeouts, reveal, settlement, views, dump/load."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import DECK, format_cards
from games.chinese_poker.config import ChinesePokerConfig
from games.chinese_poker.engine import GAME
from games.engine import IllegalAction
from tests.games.chinese_poker.helpers import CONFIG, Table, types

ORDERED = [str(card) for card in DECK]
# A fixed shuffle in which no seat holds a natural with 2, 3 or 4 players.
DECK_TEXT = ORDERED[:]
random.Random(1).shuffle(DECK_TEXT)


def seated(*seats: int, stack: int = 5_000, config: ChinesePokerConfig = CONFIG) -> Table:
    table = Table(config)
    for seat in seats:
        table.act("sit", seat=seat, stack=stack)
    table.expire()
    return table


def solver_rows(table: Table, seat: int) -> dict[str, str]:
    from games.chinese_poker.solver import best_arrangement

    entry = table.state.entry(seat)
    assert entry is not None
    best = best_arrangement([DECK[index] for index in entry.cards])
    return {
        "front": format_cards(best.front),
        "middle": format_cards(best.middle),
        "back": format_cards(best.back),
    }


def test_second_player_starts_the_pause_then_a_hand_wants_a_deck() -> None:
    table = Table()
    table.act("sit", seat=1, stack=5_000)
    assert table.state.phase == "waiting"
    table.act("sit", seat=3, stack=5_000)
    assert (table.state.phase, GAME.deadline(table.state)) == ("pause", 1_005.0)
    with pytest.raises(IllegalAction, match="the deadline has not passed"):
        table.act("timeout")
    table.expire()
    assert GAME.wants_deck(table.state)


def test_deal_takes_the_fee_to_the_rake_and_deals_13_each_from_the_buttons_left() -> None:
    table = seated(0, 2)
    events = table.act("deal", deck=DECK_TEXT)
    assert types(events) == [
        "hand_started",
        "hand_fee_paid",
        "hand_fee_paid",
        "cards_dealt",
        "cards_dealt",
    ]
    assert table.state.button == 0
    assert table.places["rake"] == 40
    # One card at a time from the seat left of the button: seat 2 gets the first card.
    assert table.cards(2)[:2] == ["Ad", "Jd"]
    assert table.cards(0)[:2] == ["4d", "7h"]
    assert table.state.deadline == table.now + 90


def test_a_full_hand_reveals_scores_and_pays_between_stacks() -> None:
    table = seated(0, 2)
    table.act("deal", deck=DECK_TEXT)
    for seat in (0, 2):
        table.act("set", seat=seat, **solver_rows(table, seat))
    table.act("submit", seat=0)
    events = table.act("submit", seat=2)
    assert types(events)[:2] == ["hand_submitted", "hand_revealed"]
    assert types(events)[-1] == "hand_ended"
    ended = events[-1].to_json()
    assert sum(ended["units"].values()) == 0
    stacks = {seat: table.state.seats[seat].stack for seat in (0, 2)}  # type: ignore[union-attr]
    assert sum(stacks.values()) == 2 * 5_000 - 40
    assert table.places["stack:0"] == stacks[0] and table.places["stack:2"] == stacks[2]
    assert table.state.phase == "pause"


def test_rows_may_change_until_submitted_and_a_submitted_hand_is_final() -> None:
    table = seated(0, 1)
    table.act("deal", deck=DECK_TEXT)
    cards = table.cards(0)
    table.act("set", seat=0, front=cards[:3], middle=cards[3:8], back=cards[8:])
    table.act("set", seat=0, **solver_rows(table, 0))
    table.act("submit", seat=0)
    with pytest.raises(IllegalAction, match="the hand is final: already submitted"):
        table.act("set", seat=0, **solver_rows(table, 0))
    with pytest.raises(IllegalAction, match="the hand is final"):
        table.act("surrender", seat=0)


def test_submit_needs_rows_and_rows_must_be_your_own_cards() -> None:
    table = seated(0, 1)
    table.act("deal", deck=DECK_TEXT)
    with pytest.raises(IllegalAction, match="set your front, middle and back"):
        table.act("submit", seat=0)
    other = table.cards(1)
    with pytest.raises(IllegalAction, match="exactly your 13 cards"):
        table.act("set", seat=0, front=other[:3], middle=other[3:8], back=other[8:])
    mine = table.cards(0)
    with pytest.raises(IllegalAction, match="the front row needs 3 cards, not 4"):
        table.act("set", seat=0, front=mine[:4], middle=mine[4:8], back=mine[8:])


def test_set_and_submit_in_one_action() -> None:
    table = seated(0, 1)
    table.act("deal", deck=DECK_TEXT)
    events = table.act("set", seat=0, submit=True, **solver_rows(table, 0))
    assert types(events) == ["rows_set", "hand_submitted"]


def test_timeout_lets_the_solver_set_unsubmitted_hands() -> None:
    table = seated(0, 1)
    table.act("deal", deck=DECK_TEXT)
    table.act("surrender", seat=1)
    events = table.expire()
    assert types(events)[:2] == ["rows_set", "hand_submitted"]
    assert events[1].to_json() == {"type": "hand_submitted", "seat": 0, "auto": True}
    assert table.state.result is not None
    assert table.state.result.units == ((0, 3), (1, -3))


def test_timeout_surrender_policy_surrenders_unsubmitted_hands() -> None:
    config = ChinesePokerConfig(unit=100, timeout="surrender")
    table = seated(0, 1, config=config)
    table.act("deal", deck=DECK_TEXT)
    table.act("set", seat=0, submit=True, **solver_rows(table, 0))
    events = table.expire()
    assert events[0].to_json() == {"type": "surrendered", "seat": 1, "auto": True}
    assert table.state.result is not None and table.state.result.units == ((0, 3), (1, -3))


def test_a_false_natural_after_a_surrender_is_dropped() -> None:
    table = seated(0, 1, 2)
    table.act("deal", deck=DECK_TEXT)
    table.act("surrender", seat=1)
    table.act("declare_natural", seat=0, natural="dragon", **solver_rows(table, 0))
    table.act("set", seat=2, submit=True, **solver_rows(table, 2))
    assert table.state.result is not None
    statuses = {seat: kind for seat, kind, _, _ in table.state.result.statuses}
    assert statuses == {0: "regular", 1: "surrender", 2: "regular"}


def test_a_false_natural_before_any_surrender_fouls() -> None:
    table = seated(0, 1)
    table.act("deal", deck=DECK_TEXT)
    table.act("declare_natural", seat=0, natural="dragon")
    table.act("surrender", seat=1)
    assert table.state.result is not None
    assert table.state.result.statuses[0][1:] == ("foul", None, "false claim of dragon")


def test_a_true_natural_is_paid_and_shown() -> None:
    spades = [f"{rank}s" for rank in "23456789TJQKA"]
    rest = [text for text in ORDERED if not text.endswith("s")]
    deck = [card for pair in zip(spades, rest, strict=False) for card in pair] + rest[13:]
    table = seated(0, 1)
    table.act("deal", deck=deck)
    assert sorted(table.cards(1)) == sorted(spades)
    table.act("declare_natural", seat=1, natural="thirteen_colors")
    table.act("set", seat=0, submit=True, **solver_rows(table, 0))
    assert table.state.result is not None
    assert table.state.result.units == ((0, -13), (1, 13))


def test_unknown_natural_is_refused() -> None:
    table = seated(0, 1)
    table.act("deal", deck=DECK_TEXT)
    with pytest.raises(IllegalAction, match="unknown natural 'royal'"):
        table.act("declare_natural", seat=0, natural="royal")


def test_leaving_during_a_hand_cashes_out_after_the_hand_ends() -> None:
    table = seated(0, 1)
    table.act("deal", deck=DECK_TEXT)
    assert types(table.act("leave", seat=1)) == ["leave_pending"]
    table.act("surrender", seat=1)
    events = table.act("set", seat=0, submit=True, **solver_rows(table, 0))
    assert types(events)[-2:] == ["hand_ended", "player_left"]
    assert table.state.seats[1] is None
    assert table.places["bankroll:1"] == -5_000 + 4_980 - 300


def test_top_up_only_between_hands() -> None:
    table = seated(0, 1)
    table.act("deal", deck=DECK_TEXT)
    with pytest.raises(IllegalAction, match="top up between hands"):
        table.act("top_up", seat=0, amount=500)
    table.expire()
    table.act("top_up", seat=0, amount=500)
    assert table.places["bankroll:0"] == -5_500


def test_sit_needs_the_minimum_buy_in() -> None:
    table = Table()
    with pytest.raises(IllegalAction, match=r"minimum buy-in is \$20.00"):
        table.act("sit", seat=0, stack=1_999)


def test_button_moves_clockwise_and_skips_sitting_out_seats() -> None:
    table = seated(0, 1, 2)
    buttons = []
    for _ in range(3):
        table.act("deal", deck=DECK_TEXT)
        buttons.append(table.state.button)
        if buttons == [0]:
            table.act("sit_out", seat=1)
        table.expire()
        table.expire()
    assert buttons == [0, 2, 0]


def test_dump_and_load_round_trip_through_json() -> None:
    table = seated(0, 1)
    table.act("deal", deck=DECK_TEXT)
    table.act("set", seat=0, **solver_rows(table, 0))
    data = json.loads(json.dumps(GAME.dump(table.state)))
    assert GAME.load(data) == table.state
    table.expire()
    data = json.loads(json.dumps(GAME.dump(table.state)))
    assert GAME.load(data) == table.state


def test_legal_actions_while_setting() -> None:
    table = seated(0, 1)
    table.act("deal", deck=DECK_TEXT)
    kinds = [action["kind"] for action in GAME.legal_actions(table.state, 0)]
    assert kinds == ["set", "surrender", "declare_natural", "leave", "sit_out"]
    assert GAME.legal_actions(table.state, 3) == [{"kind": "sit", "min_stack": 2_000}]


def test_view_after_the_reveal_shows_all_rows_units_and_payments() -> None:
    table = seated(0, 1)
    table.act("deal", deck=DECK_TEXT)
    table.act("set", seat=0, submit=True, **solver_rows(table, 0))
    table.act("set", seat=1, submit=True, **solver_rows(table, 1))
    spectator = GAME.view(table.state, None)
    assert spectator["seats"][1]["rows"] == {
        key: value.split() for key, value in solver_rows(table, 1).items()
    }
    assert spectator["result"]["pairs"][0]["seats"] == [0, 1]
    result = table.state.result
    assert result is not None
    assert spectator["result"]["units"] == {str(seat): units for seat, units in result.units}
    assert spectator["result"]["payments"] == [
        {"from": payer, "to": winner, "amount": amount} for payer, winner, amount in result.payments
    ]
    assert sum(spectator["result"]["units"].values()) == 0


def test_suggestion_is_the_solvers_arrangement() -> None:
    table = seated(0, 1)
    table.act("deal", deck=DECK_TEXT)
    suggestion = GAME.suggestion(table.state, 0)
    assert suggestion is not None
    assert {key: " ".join(suggestion[key]) for key in ("front", "middle", "back")} == solver_rows(
        table, 0
    )


def _card_texts(data: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(data, dict):
        for value in data.values():
            found |= _card_texts(value)
    elif isinstance(data, list):
        for value in data:
            found |= _card_texts(value)
    elif isinstance(data, str) and data in ORDERED:
        found.add(data)
    return found


@settings(max_examples=25, deadline=None)
@given(
    deck=st.permutations(ORDERED),
    plays=st.lists(
        st.sampled_from(["set", "submit", "surrender", "natural"]), min_size=4, max_size=4
    ),
)
def test_views_never_leak_cards_or_rows_before_the_reveal(
    deck: list[str], plays: list[str]
) -> None:
    table = seated(0, 1, 2, 3)
    table.act("deal", deck=deck)
    for seat, play in enumerate(plays[:3]):
        if play == "surrender":
            table.act("surrender", seat=seat)
        elif play == "natural":
            table.act("declare_natural", seat=seat, natural="six_pairs")
        else:
            table.act("set", seat=seat, submit=play == "submit", **solver_rows(table, seat))
        assert table.state.phase == "setting"
        for viewer in (None, 0, 1, 2, 3):
            view = GAME.view(table.state, viewer)
            mine = set(table.cards(viewer)) if viewer is not None else set()
            assert _card_texts(view) <= mine
            assert all(seat.get("rows") is None for seat in view["seats"])
            assert all(seat.get("natural") is None for seat in view["seats"])
    table.expire()
    assert _card_texts(GAME.view(table.state, None))
    assert sum(table.places.values()) == 0
