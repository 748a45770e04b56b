"""Properties of online Guts under random legal play, for every preset and round-end rule.

Chips are conserved (every stack and the pot equal the money moved into them), no card is dealt
twice in a hand, every hand finishes, and no view or readable event leaks a hidden card or an
undisclosed choice. Every action offered by ``legal_actions`` is accepted by ``apply``.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.cards import DECK
from games.guts import GAME, PRESETS, make_config, new_table
from games.guts.commands import simulate
from games.guts.config import PAYERS, ROUND_ENDS
from games.guts.table import OnlineState

_DECK = [str(card) for card in DECK]


class Audit:
    """Plays actions and checks every property after each one."""

    def __init__(self, state: OnlineState) -> None:
        self.state = state
        self.now = 0.0
        self.ledger: dict[str, int] = {}
        self.dealt: set[int] = set()
        self.hands_started = 0
        self.hands_ended = 0
        self.history: list[Any] = []

    def act(self, action: dict[str, Any]) -> None:
        action["now"] = self.now
        self.state, events = GAME.apply(self.state, action)
        self.history.extend(events)
        for event in events:
            for move in event.moves():
                self.ledger[move.source] = self.ledger.get(move.source, 0) - move.amount
                self.ledger[move.target] = self.ledger.get(move.target, 0) + move.amount
            if event.type == "hand_started":
                self.hands_started += 1
                self.dealt = set()
            elif event.type == "hand_ended":
                self.hands_ended += 1
            elif event.type == "cards_dealt":
                assert self.dealt.isdisjoint(event.cards), "a card was dealt twice"
                self.dealt.update(event.cards)
        self.check()

    def check(self) -> None:
        state = self.state
        assert sum(self.ledger.values()) == 0
        assert self.ledger.get("pot", 0) == state.pot
        for index, seat in enumerate(state.seats):
            if seat is not None:
                assert self.ledger.get(f"stack:{index}", 0) == seat.stack
                assert seat.stack >= 0
        for viewer in [None, *range(len(state.seats))]:
            view = GAME.view(state, viewer)
            for entry in view["seats"]:
                index = entry["seat"]
                if index == viewer:
                    continue
                if "cards" in entry:
                    assert state.shown and state.choices[index] == "in", "a hidden hand leaked"
                if "choice" in entry:
                    assert state.shown, "a choice leaked before the declare ended"
        for event in self.history[-40:]:
            if event.type == "hand_shown":
                assert state.hand and event.visible_to(None)
            if event.type == "cards_dealt":
                others = [seat for seat in range(len(state.seats)) if seat != event.seat]
                assert not any(event.visible_to(seat) for seat in others)
                assert not event.visible_to(None)


_STACKS = [100, 250, 450, 10_000]

#: How often each offered action is picked, so that random play gets through many hands.
_WEIGHTS = {
    "ante": 12,
    "declare": 12,
    "sit": 6,
    "sit_in": 3,
    "decline": 2,
    "top_up": 1,
    "sit_out": 1,
    "leave": 1,
}


def _options(seats: int, round_end: str) -> dict[str, Any]:
    return {
        "ante": 100,
        "seats": seats,
        "round_end": round_end,
        "match_cap": 700,
        "min_buy_in": 100,  # short stacks, for short losers: only a custom table seats them
    }


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)
@given(
    payer=st.sampled_from(PAYERS),
    round_end=st.sampled_from(ROUND_ENDS),
    seats=st.integers(2, 6),
    data=st.data(),
)
def test_random_legal_play_keeps_every_promise(
    payer: str, round_end: str, seats: int, data: st.DataObject
) -> None:
    # A custom table with each seed preset's payer: the seed presets differ from it only in
    # the buy-in floor, which these short stacks are below.
    options = {**_options(seats, round_end), "payer": payer}
    audit = Audit(new_table(make_config("custom", options)))
    shuffle = random.Random(data.draw(st.integers(0, 2**32), label="shuffle seed"))
    for seat in range(seats):
        stack = data.draw(st.sampled_from(_STACKS), label="stack")
        audit.act({"kind": "sit", "seat": seat, "stack": stack})
    for _ in range(data.draw(st.integers(10, 120), label="steps")):
        state = audit.state
        if GAME.wants_deck(state) and data.draw(st.booleans(), label="deal now"):
            deck = _DECK[:]
            shuffle.shuffle(deck)
            audit.act({"kind": "deal", "deck": deck})
            continue
        deadline = GAME.deadline(state)
        odds = 2 if state.phase == "pause" else 10  # a pause ends only by the clock
        if deadline is not None and data.draw(st.integers(1, odds), label="clock") == 1:
            audit.now = max(audit.now, deadline)
            audit.act({"kind": "timeout"})
            continue
        weighted = [
            (seat, entry)
            for seat in range(seats)
            for entry in GAME.legal_actions(state, seat)
            for _ in range(_WEIGHTS[entry["kind"]])
        ]
        seat, chosen = data.draw(st.sampled_from(weighted), label="action")
        action: dict[str, Any] = {"kind": chosen["kind"], "seat": seat}
        if chosen["kind"] == "sit":
            action["stack"] = data.draw(st.sampled_from(_STACKS), label="stack")
        elif chosen["kind"] == "top_up":
            top = chosen["max"] if chosen["max"] is not None else 5_000
            action["amount"] = data.draw(st.integers(chosen["min"], top), label="amount")
        elif chosen["kind"] == "declare":
            action["choice"] = data.draw(st.sampled_from(chosen["choices"]), label="choice")
        audit.act(action)
    # every hand finishes: the clock alone ends the hand in progress
    for _ in range(4):
        if audit.state.phase in ("deal", "declare"):
            if GAME.wants_deck(audit.state):
                audit.act({"kind": "deal", "deck": _DECK})
            else:
                audit.now = max(audit.now, GAME.deadline(audit.state) or audit.now)
                audit.act({"kind": "timeout"})
    assert audit.state.phase not in ("deal", "declare")
    assert audit.hands_started == audit.hands_ended


@settings(max_examples=15, deadline=None, derandomize=True)
@given(preset=st.sampled_from(PRESETS), players=st.integers(2, 7), seed=st.integers(0, 10**6))
def test_bots_play_many_hands_and_the_ledger_balances(preset: str, players: int, seed: int) -> None:
    result = simulate(preset=preset, players=players, hands=40, seed=seed)
    assert result["conserved"] is True
    assert result["hands"] == 40
