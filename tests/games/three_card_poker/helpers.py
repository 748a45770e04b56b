"""Shared helpers for the Three Card Poker tests: tables, decks laid out for the deal."""

from __future__ import annotations

from typing import Any

from games.cards import DECK, parse_cards
from games.engine import Event
from games.three_card_poker.config import TableConfig
from games.three_card_poker.game import GAME
from games.three_card_poker.state import TableState, new_table
from games.three_card_poker.tally import Tally


def deck_for(hands: list[str], dealer: str) -> list[str]:
    """A deck that deals ``hands`` to the bettors in seat order and ``dealer`` to the dealer
    (one card at a time round the table, dealer last; games/three_card_poker/hand.py)."""
    holdings = [[str(card) for card in parse_cards(text)] for text in [*hands, dealer]]
    stride = len(holdings)
    order = [holdings[i % stride][i // stride] for i in range(3 * stride)]
    return order + [str(card) for card in DECK if str(card) not in order]


class Table:
    """A table driven through GAME.apply, keeping a tally of every move."""

    def __init__(self, *stacks: int, config: TableConfig | None = None) -> None:
        self.state: TableState = new_table(config or TableConfig())
        self.tally = Tally()
        self.events: list[Event] = []
        self.now = 1000.0
        for seat, amount in enumerate(stacks):
            self.act(kind="sit", seat=seat, stack=amount)

    def act(self, **action: Any) -> tuple[Event, ...]:
        action.setdefault("now", self.now)
        self.state, events = GAME.apply(self.state, action)
        self.tally.post(events)
        self.events.extend(events)
        return events

    def stack(self, seat: int) -> int:
        occupant = self.state.seats[seat]
        assert occupant is not None
        return occupant.stack

    def round(
        self,
        bets: dict[int, tuple[int, int]],
        hands: dict[int, str],
        dealer: str,
        decisions: dict[int, str],
    ) -> list[Event]:
        """Bet, deal the given cards, decide; returns the events from the deal on."""
        for seat, (ante, pair_plus) in bets.items():
            self.act(kind="bet", seat=seat, ante=ante, pair_plus=pair_plus)
        if self.state.phase == "betting":
            assert self.state.deadline is not None
            self.act(kind="timeout", now=self.state.deadline)
        start = len(self.events)
        self.act(kind="deal", deck=deck_for([hands[s] for s in sorted(hands)], dealer))
        for seat, decision in sorted(decisions.items()):
            self.act(kind=decision, seat=seat)
        if self.state.phase == "deciding":
            assert self.state.deadline is not None
            self.act(kind="timeout", now=self.state.deadline)
        return self.events[start:]


def types(events: list[Event] | tuple[Event, ...]) -> list[str]:
    return [event.to_json()["type"] for event in events]
