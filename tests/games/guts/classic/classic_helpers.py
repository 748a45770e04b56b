"""A driver for scenario tests of classic Guts: fixed stacks, stacked decks, a fake clock."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.cards import DECK, parse_cards
from games.guts import GUTS, make_config, new_table
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
        new, events = GUTS.apply(self.state, action)
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
