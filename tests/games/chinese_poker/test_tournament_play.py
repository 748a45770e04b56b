"""Whole tournaments at Chinese Poker tables: no hand fee, `away_deals`, the unit rising by
levels, 2 to 4 players setting by the solver, surrendering, sitting out and back, or letting
the clock set their hands.

Properties: chips are conserved (each stack is what the events moved into it, and their sum
never changes); no stack goes below 0; the table never stalls (while two players have chips it
always has a deadline or wants a deck); a seat with no chips is never dealt in; the journal
replays exactly; and the tournament ends with one player holding every chip.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import DECK
from games.chinese_poker.config import ChinesePokerConfig
from games.chinese_poker.engine import GAME
from games.chinese_poker.solver import best_arrangement
from games.chinese_poker.state import ChinesePokerState, new_table
from games.tournament.busted import busted_seats
from games.tournament.levels import default_levels

_DECK = [str(card) for card in DECK]
_MOST_HANDS = 400


class Tournament:
    """A Chinese Poker tournament table played at random, checked after every action."""

    def __init__(self, players: int, chips: int, timeout: str, rng: random.Random) -> None:
        self.levels = default_levels(chips, chips // 40, minutes=2)
        config = ChinesePokerConfig(
            unit=self.levels[0]["ante"], hand_fee=0, seats=players, timeout=timeout,
            pause_seconds=1, away_deals=True, min_buy_in=chips,
        )  # fmt: skip
        self.state: ChinesePokerState = new_table(config)
        self.start = self.state
        self.rng = rng
        self.now = 0.0
        self.total = players * chips
        self.ledger: dict[str, int] = {}
        self.actions: list[dict[str, Any]] = []
        self.history: list[dict[str, Any]] = []
        self.hands = 0
        self.level = 0
        self.level_ends = 60.0 * self.levels[0]["minutes"]
        for seat in range(players):
            self.act({"kind": "sit", "seat": seat, "stack": chips, "player": f"p{seat}"})

    def act(self, action: dict[str, Any]) -> None:
        before = self.state
        action = {**action, "now": self.now}
        self.state, events = GAME.apply(before, action)
        self.actions.append(action)
        self.history.extend(event.to_json() for event in events)
        for event in events:
            for move in event.moves():
                self.ledger[move.source] = self.ledger.get(move.source, 0) - move.amount
                self.ledger[move.target] = self.ledger.get(move.target, 0) + move.amount
            if event.type == "hand_started":
                self.hands += 1
                for seat in event.seats:
                    player = before.seats[seat]
                    assert player is not None and player.stack > 0, (seat, player)
        for index, seat in enumerate(self.state.seats):
            if seat is not None:
                assert seat.stack >= 0
                assert self.ledger.get(f"stack:{index}", 0) == seat.stack
        on_table = sum(seat.stack for seat in self.state.seats if seat is not None)
        brought = -sum(amount for place, amount in self.ledger.items() if place.startswith("bank"))
        assert on_table == brought  # only sitting down brought chips, and none left
        assert self.ledger.get("rake", 0) == 0

    def alive(self) -> list[int]:
        out = busted_seats("chinese_poker", GAME.view(self.state, None))
        return [n for n, seat in enumerate(self.state.seats) if seat is not None and n not in out]

    def step(self) -> None:
        state, rng = self.state, self.rng
        if self.level + 1 < len(self.levels) and self.now >= self.level_ends:
            self.level += 1
            self.level_ends += 60.0 * self.levels[self.level]["minutes"]
            self.act({"kind": "level", "stake": self.levels[self.level]["ante"]})
            return
        if not state.in_hand:  # at rest the tournament stands up the players out of chips
            for seat in busted_seats("chinese_poker", GAME.view(state, None)):
                self.act({"kind": "leave", "seat": seat})
            state = self.state
        for seat, player in enumerate(state.seats):
            if player is not None and rng.random() < 0.03:
                self.act({"kind": "sit_in" if player.sitting_out else "sit_out", "seat": seat})
                return
        if GAME.wants_deck(state):
            deck = _DECK[:]
            rng.shuffle(deck)
            self.act({"kind": "deal", "deck": deck})
            return
        setting = [entry for entry in state.entries if state.in_hand and entry.status == "setting"]
        if setting and rng.random() < 0.8:
            entry = rng.choice(setting)
            if rng.random() < 0.3:
                self.act({"kind": "surrender", "seat": entry.seat})
            else:
                best = best_arrangement([DECK[index] for index in entry.cards])
                named = zip(("front", "middle", "back"), best.rows, strict=True)
                rows = {name: [str(card) for card in row] for name, row in named}
                self.act({"kind": "set", "seat": entry.seat, "submit": True, **rows})
            return
        deadline = GAME.deadline(state)
        assert deadline is not None, f"the table stalled in {state.phase}"
        self.now = max(self.now, deadline)
        self.act({"kind": "timeout"})


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(2, 4),
    chips=st.sampled_from([400, 2_000]),
    timeout=st.sampled_from(["surrender", "auto_arrange"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_tournament_conserves_chips_never_stalls_and_ends_with_one_player(
    players: int, chips: int, timeout: str, seed: int
) -> None:
    table = Tournament(players, chips, timeout, random.Random(seed))
    while len(table.alive()) >= 2:
        assert table.hands < _MOST_HANDS, "the tournament did not finish"
        table.step()
    stacks = sorted(seat.stack for seat in table.state.seats if seat is not None)
    assert stacks[-1] == table.total and sum(stacks[:-1]) == 0
    state, history = table.start, []
    for action in table.actions:
        state, events = GAME.apply(state, action)
        history.extend(event.to_json() for event in events)
    assert history == table.history and state == table.state
