"""Whole tournaments at online Guts tables: Survivor and Monte Carlo with the tournament's
options (`short_ante` all_in, `away_antes`, `top_up_seconds` 0, no rake), 2 to 6 players
going In or Out at random, sitting out and back, letting the clock run, levels rising.

Properties: chips are conserved (every stack and the pot are what the events moved into them,
and their sum never changes); no stack goes below 0; the table never stalls (while two players
have chips it always has a deadline or wants a deck); a seat with no chips and nothing at stake
is never dealt in; and the tournament finishes with one player holding every chip.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import DECK
from games.guts import GAME, make_config, new_table
from games.guts.bots import Driver
from games.guts.table import OnlineState
from games.tournament.busted import busted_seats
from games.tournament.levels import default_levels

_DECK = [str(card) for card in DECK]
_TOURNEY = {"short_ante": "all_in", "away_antes": True, "top_up_seconds": 0,
            "rake_basis_points": 0, "rake_cap": 0}  # fmt: skip
#: Enough for every example to finish: the last level's ante is a fifth of a starting stack.
_MOST_HANDS = 2_000


class Tournament:
    """A tournament table played by random players, checked after every action."""

    def __init__(self, preset: str, players: int, chips: int, rng: random.Random) -> None:
        self.levels = default_levels(chips, max(1, chips // 100), minutes=1)
        options = {"ante": self.levels[0]["ante"], "seats": players, **_TOURNEY}
        self.state: OnlineState = new_table(make_config(preset, options))
        self.start = self.state
        self.actions: list[dict[str, Any]] = []
        self.history: list[dict[str, Any]] = []
        self.rng = rng
        self.now = 0.0
        self.total = players * chips
        self.ledger: dict[str, int] = {}
        self.hands = 0
        self.level = 0
        self.level_ends = 60.0 * self.levels[0]["minutes"]
        self.out: list[int] = []
        for seat in range(players):
            self.act({"kind": "sit", "seat": seat, "stack": chips, "player": f"p{seat}"})
        self.total_check()

    def act(self, action: dict[str, Any]) -> None:
        before = self.state
        action = {**action, "now": self.now}
        self.state, events = GAME.apply(before, action)
        self.actions.append(action)
        self.history.extend(event.to_json() for event in events)
        if self.rng.random() < 0.02:  # the saved state reads back as it was
            assert GAME.load(json.loads(json.dumps(GAME.dump(self.state)))) == self.state
        for event in events:
            for move in event.moves():
                self.ledger[move.source] = self.ledger.get(move.source, 0) - move.amount
                self.ledger[move.target] = self.ledger.get(move.target, 0) + move.amount
            if event.type == "hand_started":
                self.hands += 1
                for seat in event.seats:
                    player = before.seats[seat]
                    assert player is not None
                    # dealt in: chips behind, or all in within a round it paid into
                    assert player.stack > 0 or player.in_round, (seat, player)
        self.check()

    def check(self) -> None:
        state = self.state
        assert self.ledger.get("pot", 0) == state.pot
        for index, seat in enumerate(state.seats):
            if seat is not None:
                assert seat.stack >= 0
                assert self.ledger.get(f"stack:{index}", 0) == seat.stack
        assert set(self.ledger) <= {"pot"} | {f"stack:{n}" for n in range(len(state.seats))} | {
            f"bankroll:{n}" for n in range(len(state.seats))
        }

    def total_check(self) -> None:
        on_table = self.state.pot + sum(s.stack for s in self.state.seats if s is not None)
        assert on_table == self.total

    def alive(self) -> list[int]:
        return [
            index
            for index, seat in enumerate(self.state.seats)
            if seat is not None and index not in busted_seats("guts", GAME.view(self.state, None))
        ]

    def over(self) -> bool:
        return len(self.alive()) < 2

    def step(self) -> None:
        """One thing happens: a level, a player's choice, a deck, or the clock."""
        state = self.state
        rng = self.rng
        if self.level + 1 < len(self.levels) and self.now >= self.level_ends:
            self.level += 1
            self.level_ends += 60.0 * self.levels[self.level]["minutes"]
            self.act({"kind": "level", "stake": self.levels[self.level]["ante"]})
            return
        if state.phase in ("pause", "waiting"):
            self.stand_up_busted()
            state = self.state
        for seat in range(len(state.seats)):
            player = state.seats[seat]
            if player is None or rng.random() > 0.03:
                continue
            kind = "sit_in" if player.sitting_out else "sit_out"
            self.act({"kind": kind, "seat": seat})
            return
        if GAME.wants_deck(state):
            deck = _DECK[:]
            if rng.random() < 0.5:
                rng.shuffle(deck)
            else:  # a fixed deck, cut somewhere
                cut = rng.randrange(52)
                deck = deck[cut:] + deck[:cut]
            self.act({"kind": "deal", "deck": deck})
            return
        if state.phase == "declare":
            undecided = [seat for seat in state.dealt if not state.choices[seat]]
            if undecided and rng.random() < 0.9:
                seat = rng.choice(undecided)
                self.act({"kind": "declare", "seat": seat, "choice": rng.choice(["in", "out"])})
                return
        deadline = GAME.deadline(state)
        assert deadline is not None, f"the table stalled in {state.phase}: {GAME.view(state, None)}"
        self.now = max(self.now, deadline)
        self.act({"kind": "timeout"})

    def stand_up_busted(self) -> None:
        """What the tournament does at rest: players out of chips are stood up (no chips move)."""
        for seat in busted_seats("guts", GAME.view(self.state, None)):
            if self.rng.random() < 0.8:  # sometimes they stay seated a while, never dealt in
                self.out.append(seat)
                self.act({"kind": "leave", "seat": seat})


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["survivor", "monte_carlo"]),
    players=st.integers(2, 6),
    chips=st.sampled_from([100, 500, 1_500]),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_tournament_conserves_chips_never_stalls_and_ends_with_one_player(
    preset: str, players: int, chips: int, seed: int
) -> None:
    table = Tournament(preset, players, chips, random.Random(seed))
    while not table.over():
        assert table.hands < _MOST_HANDS, "the tournament did not finish"
        table.step()
        table.total_check()
    # Settle what is left of a round and stand the last busted players up.
    holders = [seat for seat in table.state.seats if seat is not None and seat.stack > 0]
    assert len(holders) == 1
    assert holders[0].stack + table.state.pot == table.total
    while table.state.pot and GAME.deadline(table.state) is not None:
        table.now = max(table.now, GAME.deadline(table.state) or table.now)
        table.act({"kind": "timeout"})
    assert table.state.pot == 0
    assert holders[0].player in {
        s.player for s in table.state.seats if s and s.stack == table.total
    }
    # The journal replays exactly: the same actions give the same events and the same table.
    state, history = table.start, []
    for action in table.actions:
        state, events = GAME.apply(state, action)
        history.extend(event.to_json() for event in events)
    assert history == table.history and state == table.state
    assert any(event["type"] == "level_raised" for event in history) or len(table.levels) == 1


@pytest.mark.parametrize("preset", ["survivor", "monte_carlo"])
@pytest.mark.parametrize("top_up_seconds", [0, 5])
def test_the_house_bots_play_a_table_of_short_stacks_to_its_end(
    preset: str, top_up_seconds: int
) -> None:
    options = {"ante": 10, "min_buy_in": 1_000, **_TOURNEY, "top_up_seconds": top_up_seconds}
    driver = Driver(make_config(preset, options), players=4, rng=random.Random(7))
    driver.play(100_000)
    assert driver.finished and driver.conserved
    assert driver.bought_in == 4_000  # nobody topped up
    stacks = sorted(seat.stack for seat in driver.state.seats if seat is not None)
    assert stacks[-1] + driver.state.pot == 4_000 and stacks[-2] == 0
