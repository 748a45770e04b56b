"""Chinese Poker at a tournament's table: no hand fee, away seats dealt in, levels of the unit.

The option is `away_deals`; the runtime action `{"kind": "level", "stake": N}` (the unit) and
its event `level_raised` (docs/table-options.md; games/chinese_poker/engine.py).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from games.cards import DECK
from games.chinese_poker.config import ChinesePokerConfig, make_config
from games.chinese_poker.engine import GAME
from games.engine import ConfigError, IllegalAction
from games.tournament.busted import busted_seats
from tests.games.chinese_poker.helpers import Table, types

TOURNEY = ChinesePokerConfig(unit=10, hand_fee=0, pause_seconds=5, away_deals=True)
DECK_TEXT = [str(card) for card in DECK]
random.Random(1).shuffle(DECK_TEXT)


def seated(config: ChinesePokerConfig, *stacks: int) -> Table:
    table = Table(config)
    for seat, stack in enumerate(stacks):
        # A tournament seats its entrants with its chips (the runtime's sit, below 20 units
        # only at the table's first level, as every stack is then).
        table.act("sit", seat=seat, stack=stack)
    table.expire()
    return table


def test_away_deals_is_false_unless_set_and_checked() -> None:
    assert ChinesePokerConfig(unit=100).away_deals is False
    assert make_config("unit-1", {"away_deals": True, "hand_fee": 0}).away_deals is True
    with pytest.raises(ConfigError, match="away_deals must be true or false"):
        ChinesePokerConfig(unit=100, away_deals="yes")  # type: ignore[arg-type]


def test_a_seat_sitting_out_is_dealt_in_and_set_at_once_by_the_timeout_rule() -> None:
    table = seated(TOURNEY, 1_500, 1_500, 1_500)
    table.act("sit_out", seat=2)
    assert GAME.wants_deck(table.state)
    events = table.act("deal", deck=DECK_TEXT)
    entry = table.state.entry(2)
    assert entry is not None and entry.status == "submitted" and entry.auto
    assert "hand_fee_paid" not in types(events)
    assert types(events)[-1] == "hand_submitted"
    assert table.state.phase == "setting"


def test_sitting_out_during_the_hand_sets_it_at_once_and_may_end_the_hand() -> None:
    config = ChinesePokerConfig(unit=10, hand_fee=0, away_deals=True, timeout="surrender")
    table = seated(config, 1_500, 1_500)
    table.act("deal", deck=DECK_TEXT)
    table.act("surrender", seat=0)
    events = table.act("sit_out", seat=1)
    assert types(events)[:2] == ["sat_out", "surrendered"]
    assert "hand_ended" in types(events)
    assert sum(seat.stack for seat in table.state.seats if seat) == 3_000


def test_without_away_deals_a_seat_sitting_out_is_not_dealt_in() -> None:
    config = ChinesePokerConfig(unit=10, hand_fee=0, pause_seconds=5)
    table = seated(config, 1_500, 1_500, 1_500)
    table.act("sit_out", seat=2)
    table.act("deal", deck=DECK_TEXT)
    assert table.state.entry(2) is None


def test_a_seat_with_no_chips_is_not_dealt_in_and_is_busted() -> None:
    table = seated(TOURNEY, 1_500, 1_500, 1_500)
    # A stack a lost hand left empty (playing hands until one is takes long).
    seats = list(table.state.seats)
    loser = seats[2]
    assert loser is not None
    seats[2] = replace(loser, stack=0)
    table.state = replace(table.state, seats=tuple(seats))
    assert busted_seats("chinese_poker", GAME.view(table.state, None)) == [2]
    table.act("deal", deck=DECK_TEXT)
    assert table.state.entry(2) is None
    assert busted_seats("chinese-poker", GAME.view(table.state, None)) == [2]
    assert busted_seats("chinese-poker", GAME.view(table.state, 0)) == [2]


def test_a_level_changes_the_unit_at_once_between_hands() -> None:
    table = seated(TOURNEY, 1_500, 1_500)
    events = table.act("level", stake=25)
    assert [event.to_json() for event in events] == [
        {"type": "level_raised", "stake": 25, "match_cap": None}
    ]
    assert table.state.config.unit == 25
    # The buy-in minimum rose for players sitting down later; the seated ones play on.
    assert table.state.config.min_buy_in == 500
    assert GAME.view(table.state, None)["unit"] == 25


def test_a_level_during_a_hand_takes_effect_when_it_ends() -> None:
    table = seated(TOURNEY, 1_500, 1_500)
    table.act("deal", deck=DECK_TEXT)
    table.act("level", stake=20)
    view = GAME.view(table.state, None)
    assert (view["unit"], view["next_unit"]) == (10, 20)
    data = GAME.dump(table.state)
    assert GAME.load(json.loads(json.dumps(data))) == table.state
    while table.state.phase == "setting":
        table.expire()
    result = table.state.result
    assert result is not None
    # The hand was settled at the old unit (10 chips a unit), then the unit became 20.
    won = {seat: units * 10 for seat, units in result.units}
    assert [seat.stack - 1_500 for seat in table.state.seats if seat] == [won[0], won[1]]
    assert won[0] != 0
    assert (table.state.config.unit, table.state.next_unit) == (20, None)


@pytest.mark.parametrize("stake", [0, -1, 1.5, False, "20"])
def test_a_level_needs_a_whole_stake_of_at_least_one(stake: object) -> None:
    table = seated(TOURNEY, 1_500, 1_500)
    before = table.state
    with pytest.raises(IllegalAction, match="'stake' must be a whole number of chips"):
        table.act("level", stake=stake)
    assert table.state == before
