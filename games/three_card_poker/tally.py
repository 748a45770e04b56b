"""A running tally of the money a table's events moved, by place (games/engine.py, "Move").

Used by the command line and the tests to check that chips are conserved: every seated stack
equals the money moved into it, and the places sum to zero.

>>> from games.three_card_poker.events import BetPlaced, PlayerSat
>>> tally = Tally()
>>> tally.post([PlayerSat(seat=0, stack=1000), BetPlaced(seat=0, ante=100, pair_plus=0)])
>>> dict(tally.balance), tally.wagered
({'bankroll:0': -1000, 'stack:0': 900, 'house': 100}, 100)
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from games.engine import Event
from games.three_card_poker.events import BetPlaced, Played
from games.three_card_poker.state import TableState

__all__ = ["Tally"]


class Tally:
    """Money moved by place, and the total of the bets placed."""

    def __init__(self) -> None:
        self.balance: dict[str, int] = defaultdict(int)
        self.wagered = 0

    def post(self, events: Iterable[Event]) -> None:
        """Add the moves of ``events``."""
        for event in events:
            for move in event.moves():
                self.balance[move.source] -= move.amount
                self.balance[move.target] += move.amount
            if isinstance(event, BetPlaced):
                self.wagered += event.ante + event.pair_plus
            elif isinstance(event, Played):
                self.wagered += event.amount

    def conserved(self, state: TableState) -> bool:
        """Every seated stack equals the money moved into it, and nothing was made or lost."""
        stacks_ok = all(
            self.balance[f"stack:{seat.seat}"] == seat.stack for seat in state.occupied()
        )
        return stacks_ok and sum(self.balance.values()) == 0
