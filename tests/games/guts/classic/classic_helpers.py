"""A driver for scenario tests of classic Guts: fixed stacks, stacked decks, a fake clock; and
random legal play checked by an audit of every promise (for the property tests)."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from hypothesis import strategies as st

from games.cards import DECK, parse_cards
from games.guts import GAME, make_config, new_table
from games.guts.classic.config import CLASSIC_PRESETS
from games.guts.classic.state import ClassicState
from games.guts.table import Seat


def _indices(text: str) -> list[int]:
    return [card.index for card in parse_cards(text)]


class Classic:
    """A classic table with players P0, P1, ... seated with ``stacks``; the first deal is due."""

    def __init__(
        self,
        preset: str = "two_card",
        stacks: tuple[int, ...] = (10_000, 10_000, 10_000),
        *,
        button: int = 0,
        **options: Any,
    ) -> None:
        options.setdefault("ante", 100)
        options.setdefault("seats", max(len(stacks), 2))
        options.setdefault("min_buy_in", 100)
        # The scenarios time out turns directly; the time bank's own tests give one.
        options.setdefault("time_bank", 0)
        state = new_table(make_config(preset, options))
        assert isinstance(state, ClassicState)
        seats = tuple(Seat(f"P{index}", stack) for index, stack in enumerate(stacks))
        seats += (None,) * (state.config.seats - len(seats))
        self.state: ClassicState = replace(
            state, seats=seats, button=button, phase="pause", deadline=0.0
        )
        self.now = 0.0
        self.events: list[Any] = []

    def act(self, kind: str, seat: int | None = None, **fields: Any) -> tuple[Any, ...]:
        """Apply one action now; the events."""
        action: dict[str, Any] = {"kind": kind, "now": self.now, **fields}
        if seat is not None:
            action["seat"] = seat
        new, events = GAME.apply(self.state, action)
        assert isinstance(new, ClassicState)
        self.state = new
        self.events.extend(events)
        return events

    def timeout(self) -> tuple[Any, ...]:
        """Move the clock to the deadline and apply the timeout."""
        assert self.state.deadline is not None
        self.now = max(self.now, self.state.deadline)
        return self.act("timeout")

    def deal(
        self, ghost: str = "", community: str = "", stock: str = "", **hands: str
    ) -> tuple[Any, ...]:
        """From a pause: post the antes and deal ``P0="As Ad"``-style hands (others get spares);
        ``stock``: the undealt cards to come first (4-2-2's face-up cards, later stages)."""
        if self.state.phase == "pause":
            self.timeout()
        state = self.state
        assert state.phase == "deal", state.phase
        config = state.config
        size = config.cards - (1 if config.partial_reveal else 0)
        given = {int(name[1:]): _indices(text) for name, text in hands.items()}
        extra = _indices(ghost) + _indices(community) + _indices(stock)
        taken = {card for cards in given.values() for card in cards} | set(extra)
        spare = [card.index for card in DECK if card.index not in taken]
        order = state.dealt
        full = {
            seat: given.get(seat) or [spare.pop(0) for _ in range(config.cards)] for seat in order
        }
        deck = [full[seat][turn] for turn in range(size) for seat in order]
        if config.ghost != "none":
            deck += _indices(ghost) or [spare.pop(0) for _ in range(config.cards)]
        if config.community_card:
            deck += _indices(community) or [spare.pop(0)]
        late = [full[seat][size] for seat in order if size < len(full[seat])]
        deck += late + _indices(stock) + spare
        return self.act("deal", deck=[str(DECK[card]) for card in deck])

    def declare(self, **choices: str) -> tuple[Any, ...]:
        """``P1="in"``-style choices in the order given."""
        events: list[Any] = []
        for name, choice in choices.items():
            events += self.act("declare", int(name[1:]), choice=choice)
        return tuple(events)

    def stacks(self) -> list[int]:
        """Each seat's stack (0 for an empty seat)."""
        return [0 if seat is None else seat.stack for seat in self.state.seats]

    def total(self) -> int:
        """Chips on the table, in the pot and reserve, and raked."""
        rake = sum(event.amount for event in self.events if event.type == "rake_taken")
        return sum(self.stacks()) + self.state.pot + self.state.reserve + rake


_DECK = [str(card) for card in DECK]


_WEIGHTS = {"declare": 12, "pass": 12, "sit": 6, "sit_in": 3, "top_up": 1, "sit_out": 1, "leave": 1}


class Audit:
    """Plays actions on a classic table and checks every property after each one."""

    def __init__(self, state: ClassicState, *, automatic_in: bool | None = None) -> None:
        self.state = state
        # whether the dealer may be In automatically (None: as the table's config says)
        self.automatic_in = state.config.dealer_auto_in if automatic_in is None else automatic_in
        self.now = 0.0
        self.ledger: dict[str, int] = {}
        self.dealt: set[int] = set()
        self.started = 0
        self.ended = 0
        self.games_ended = 0

    def act(self, action: dict[str, Any]) -> None:
        action["now"] = self.now
        new, events = GAME.apply(self.state, action)
        assert isinstance(new, ClassicState)
        self.state = new
        for event in events:
            for move in event.moves():
                self.ledger[move.source] = self.ledger.get(move.source, 0) - move.amount
                self.ledger[move.target] = self.ledger.get(move.target, 0) + move.amount
            if event.type == "hand_started":
                self.started += 1
                self.dealt = set()
            elif event.type == "hand_ended":
                self.ended += 1
            elif event.type == "round_ended":
                self.games_ended += 1
            elif event.type in (
                "cards_dealt",
                "blind_cards_dealt",
                "community_card",
                "deck_hand_shown",
                "face_up_card",
            ):
                cards = (event.card,) if event.type == "face_up_card" else event.cards
                assert self.dealt.isdisjoint(cards), "a card was dealt twice"
                self.dealt.update(cards)
            elif event.type == "card_received":
                assert not event.visible_to(None)
            elif event.type == "declared" and event.choice != "out" and not event.timed_out:
                # in turn, each In is its player's own choice, or the dealer's automatic In
                if new.config.declare != "sequential":
                    continue  # a simultaneous declare shows every choice at its end
                chosen = action.get("kind") == "declare" and action.get("seat") == event.seat
                automatic = self.automatic_in and event.seat == new.dealt[-1]
                assert chosen or automatic, "an In nobody chose"
            elif event.type == "hand_shown_privately":
                ins = {seat for seat in new.dealt if new.choices[seat] not in ("", "out")}
                assert set(event.seats) == ins and event.seat in ins
                assert not event.visible_to(None) and event.private_to == -1
                assert all(event.visible_to(seat) == (seat in ins) for seat in range(10))
        self.check()

    def check(self) -> None:
        state = self.state
        assert sum(self.ledger.values()) == 0
        assert self.ledger.get("pot", 0) == state.pot
        assert self.ledger.get("reserve", 0) == state.reserve
        if state.config.pot_limit is not None:
            assert state.pot <= state.config.pot_limit
        for index, seat in enumerate(state.seats):
            if seat is not None:
                assert self.ledger.get(f"stack:{index}", 0) == seat.stack >= 0
        public = {str(DECK[card]) for card in state.face_up}
        for viewer in [None, *range(len(state.seats))]:
            for entry in GAME.view(state, viewer)["seats"]:
                index = entry["seat"]
                if index != viewer and "cards" in entry:
                    assert index in state.revealed, "a hidden hand leaked"
                    if state.private_show:
                        assert viewer in state.revealed, "a private comparison leaked"
                assert set(entry.get("face_up", [])) <= public


def play_randomly(
    table: tuple[str, dict[str, Any]],
    seats: int,
    data: st.DataObject,
    *,
    most_steps: int,
    automatic_in: bool | None = None,
) -> Audit:
    """Random legal actions and clock ticks on a new table, checking after each; then the hand
    under way is played out (everything times out). ``automatic_in``: see :class:`Audit`."""
    preset, extra = table
    options = {"ante": 100, "seats": seats, "min_buy_in": 100, **extra}
    if CLASSIC_PRESETS[preset].get("flow") in (None, "four_two"):
        options.setdefault("pot_limit", 1_000)  # the games in stages have no limit
    state = new_table(make_config(preset, options))
    assert isinstance(state, ClassicState)
    audit = Audit(state, automatic_in=automatic_in)
    shuffle = random.Random(data.draw(st.integers(0, 2**32), label="shuffle seed"))
    for seat in range(seats):
        stack = data.draw(st.sampled_from([100, 350, 10_000]), label="stack")
        audit.act({"kind": "sit", "seat": seat, "stack": stack})
    for _ in range(data.draw(st.integers(10, most_steps), label="steps")):
        state = audit.state
        if GAME.wants_deck(state):
            deck = _DECK[:]
            shuffle.shuffle(deck)
            audit.act({"kind": "deal", "deck": deck})
            continue
        deadline = GAME.deadline(state)
        odds = 2 if state.phase == "pause" else 10
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
        if not weighted:
            continue
        seat, chosen = data.draw(st.sampled_from(weighted), label="action")
        action: dict[str, Any] = {"kind": chosen["kind"], "seat": seat}
        if chosen["kind"] == "sit":
            action["stack"] = data.draw(st.sampled_from([100, 10_000]), label="stack")
        elif chosen["kind"] == "top_up":
            action["amount"] = data.draw(st.integers(1, 5_000), label="amount")
        elif chosen["kind"] == "declare":
            action["choice"] = data.draw(st.sampled_from(chosen["choices"]), label="choice")
        elif chosen["kind"] == "pass":
            action["card"] = data.draw(st.sampled_from(chosen["cards"]), label="card")
        audit.act(action)
    for _ in range(400):  # Toh's hand is a whole deck of deals
        if audit.state.phase in ("deal", "pass", "declare", "stage_over"):
            if GAME.wants_deck(audit.state):
                audit.act({"kind": "deal", "deck": _DECK})
            else:
                audit.now = max(audit.now, GAME.deadline(audit.state) or audit.now)
                audit.act({"kind": "timeout"})
    assert audit.state.phase not in ("deal", "pass", "declare", "stage_over")
    assert audit.started == audit.ended
    return audit
