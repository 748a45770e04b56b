"""A small driver for scenario tests of online Guts: fixed stacks, stacked decks, a fake clock."""

from __future__ import annotations

from typing import Any

from games.cards import parse_cards
from games.engine import seat_order
from games.guts import GAME, make_config, new_table
from games.guts.online import seat_player
from games.guts.rounds import evolve
from games.guts.script import stacked_deck
from games.guts.table import OnlineState


class Table:
    """An online table with players P0, P1, ... seated with ``stacks``; its first round is due."""

    def __init__(
        self,
        preset: str = "survivor",
        stacks: tuple[int, ...] = (10_000, 10_000, 10_000),
        *,
        button: int | None = 0,
        **options: Any,
    ) -> None:
        options.setdefault("ante", 100)
        options.setdefault("seats", max(len(stacks), 2))
        state = new_table(make_config(preset, options))
        for seat, stack in enumerate(stacks):
            state = seat_player(state, seat, f"P{seat}", stack)
        self.state: OnlineState = evolve(state, button=button, phase="pause", deadline=0.0)
        self.now = 0.0
        self.events: list[Any] = []

    def act(self, kind: str, seat: int | None = None, **fields: Any) -> tuple[Any, ...]:
        """Apply one action at the current time; the events."""
        action: dict[str, Any] = {"kind": kind, "now": self.now, **fields}
        if seat is not None:
            action["seat"] = seat
        self.state, events = GAME.apply(self.state, action)
        self.events.extend(events)
        return events

    def timeout(self) -> tuple[Any, ...]:
        """Move the clock to the deadline and apply the timeout."""
        assert self.state.deadline is not None
        self.now = max(self.now, self.state.deadline)
        return self.act("timeout")

    def antes(self, *seats: int) -> None:
        """From a pause: the ante call; ``seats`` ante (default: everyone asked), others decline."""
        if self.state.phase == "pause":
            self.timeout()
        asked = self.state.pending
        for seat in asked:
            self.act("ante" if not seats or seat in seats else "decline", seat)

    def deal(self, **hands: str) -> tuple[Any, ...]:
        """Deal ``P0="As Ad 2c"``-style hands (others get spare cards)."""
        state = self.state
        assert state.phase == "deal", state.phase
        button = state.button if state.button is not None else min(state.confirmed)
        order = seat_order(state.confirmed, button)
        stacked = {
            int(name[1:]): [card.index for card in parse_cards(text)]
            for name, text in hands.items()
        }
        return self.act("deal", deck=stacked_deck(order, stacked))

    def declare(self, **choices: str) -> tuple[Any, ...]:
        """``P0="in"``-style choices, in the order given."""
        events: list[Any] = []
        for name, choice in choices.items():
            events += self.act("declare", int(name[1:]), choice=choice)
        return tuple(events)

    def hand(self, antes: tuple[int, ...] = (), **plan: str) -> tuple[Any, ...]:
        """A whole hand: antes, deal (``P0="As Ad 2c"``), declares (``P0_choice="in"``)."""
        self.antes(*antes)
        self.deal(**{name: text for name, text in plan.items() if "_" not in name})
        events = self.declare(
            **{name.split("_")[0]: value for name, value in plan.items() if "_" in name}
        )
        if self.state.phase == "declare":
            events += self.timeout()
        return events

    def stacks(self) -> list[int]:
        """Each seat's stack (0 for an empty seat)."""
        return [0 if seat is None else seat.stack for seat in self.state.seats]

    def total(self) -> int:
        """Chips on the table plus the rake taken so far."""
        rake = sum(event.amount for event in self.events if type(event).__name__ == "RakeTaken")
        return sum(self.stacks()) + self.state.pot + rake


def of(events: tuple[Any, ...] | list[Any], kind: str) -> list[dict[str, Any]]:
    """The JSON of the events of one ``type``."""
    return [event.to_json() for event in events if event.type == kind]
