"""What happens at a Three Card Poker table, as events (games/engine.py, "Events").

Money moves between a seat's stack (``stack:N``), its player's bankroll (``bankroll:N``) and the
house bank (``house``). Bets move to the house when they are placed (:class:`BetPlaced`,
:class:`Played`); at settlement the house pays back to the stack what each bet returns: the stake
plus the winnings when it wins, the stake alone when it is returned, nothing when it is lost.

Every event is over :class:`games.events.BaseEvent`, its ``type`` the snake-case class name; the
seat events ``PlayerSat``, ``ToppedUp``, ``PlayerLeft``, ``SatOut`` and ``SatIn`` are the shared
ones of :mod:`games.events`.

>>> BetPlaced(seat=2, ante=100, pair_plus=50).to_json()
{'type': 'bet_placed', 'seat': 2, 'ante': 100, 'pair_plus': 50}
>>> BetPlaced(seat=2, ante=100, pair_plus=50).moves()
(Move(source='stack:2', target='house', amount=100), Move(source='stack:2', target='house', \
amount=50))
>>> AnteWon(seat=0, stake=100, paid=200).moves()
(Move(source='house', target='stack:0', amount=200),)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine import HIDDEN, Move, stack
from games.events import BaseEvent, PlayerLeft, PlayerSat, SatIn, SatOut, ToppedUp

__all__ = [
    "RESULT_OF",
    "AnteBonusWon",
    "AnteLost",
    "AnteReturned",
    "AnteWon",
    "BetMissed",
    "BetPlaced",
    "BetResultEvent",
    "BetsReturned",
    "BettingClosed",
    "BettingOpened",
    "CardsDealt",
    "Connected",
    "DealerRevealed",
    "Disconnected",
    "Folded",
    "HandEnded",
    "HandStarted",
    "LeaveRequested",
    "PairPlusLost",
    "PairPlusReturned",
    "PairPlusWon",
    "PlayLost",
    "PlayReturned",
    "PlayWon",
    "Played",
    "PlayerLeft",
    "PlayerSat",
    "SatIn",
    "SatOut",
    "ToppedUp",
    "result_event",
]

HOUSE = "house"


@dataclass(frozen=True, slots=True)
class LeaveRequested(BaseEvent):
    """A player dealt into the hand asked to leave: the cash-out follows the hand."""

    seat: int


@dataclass(frozen=True, slots=True)
class Connected(BaseEvent):
    """A player's connection came back."""

    seat: int


@dataclass(frozen=True, slots=True)
class Disconnected(BaseEvent):
    """A player's connection dropped (play goes on: a missed decision is a fold)."""

    seat: int


@dataclass(frozen=True, slots=True)
class BettingOpened(BaseEvent):
    """A round opened: bets are taken until ``deadline``."""

    deadline: float


@dataclass(frozen=True, slots=True)
class BetPlaced(BaseEvent):
    """A player placed an Ante and, when ``pair_plus`` is not 0, a Pair Plus bet."""

    seat: int
    ante: int
    pair_plus: int

    def moves(self) -> tuple[Move, ...]:
        moves = [Move(stack(self.seat), HOUSE, self.ante)]
        if self.pair_plus:
            moves.append(Move(stack(self.seat), HOUSE, self.pair_plus))
        return tuple(moves)


@dataclass(frozen=True, slots=True)
class BetsReturned(BaseEvent):
    """A player left before the deal; the house gave back the bets placed."""

    seat: int
    amount: int

    def moves(self) -> tuple[Move, ...]:
        return (Move(HOUSE, stack(self.seat), self.amount),)


@dataclass(frozen=True, slots=True)
class BetMissed(BaseEvent):
    """A seat in play placed no bet by the deadline: it sits this round out."""

    seat: int


@dataclass(frozen=True, slots=True)
class BettingClosed(BaseEvent):
    """Bets are closed; ``seats`` are dealt in."""

    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandStarted(BaseEvent):
    """The deal began hand number ``hand``; ``bets`` are (seat, ante, pair plus)."""

    hand: int
    bets: tuple[tuple[int, int, int], ...]

    def to_json(self) -> dict[str, Any]:
        bets = [{"seat": s, "ante": a, "pair_plus": p} for s, a, p in self.bets]
        return {"type": self.type, "hand": self.hand, "bets": bets}


@dataclass(frozen=True, slots=True)
class CardsDealt(BaseEvent):
    """Three cards dealt face down to ``seat`` (``None``: the dealer)."""

    CARD_FIELDS = frozenset({"cards"})  # held as text already: written as they are
    seat: int | None
    cards: tuple[str, ...]

    @property
    def private_to(self) -> int:
        """Only the seat's player may read its cards; the dealer's, nobody until the reveal."""
        return HIDDEN if self.seat is None else self.seat


@dataclass(frozen=True, slots=True)
class Played(BaseEvent):
    """A player played: a Play bet equal to the Ante went to the house."""

    seat: int
    amount: int

    def moves(self) -> tuple[Move, ...]:
        return (Move(stack(self.seat), HOUSE, self.amount),)


@dataclass(frozen=True, slots=True)
class Folded(BaseEvent):
    """A player folded and lost the Ante (``timed_out``: no decision in time)."""

    seat: int
    ante: int
    timed_out: bool


@dataclass(frozen=True, slots=True)
class DealerRevealed(BaseEvent):
    """The dealer's cards turned up, with the hand's name and whether it qualifies."""

    CARD_FIELDS = frozenset({"cards"})
    cards: tuple[str, ...]
    hand: str
    qualifies: bool


@dataclass(frozen=True, slots=True)
class BetResultEvent(BaseEvent):
    """A bet's result: ``paid`` cents go from the house to the stack (stake and winnings)."""

    seat: int
    stake: int
    paid: int

    def moves(self) -> tuple[Move, ...]:
        if self.paid == 0:
            return ()
        return (Move(HOUSE, stack(self.seat), self.paid),)


@dataclass(frozen=True, slots=True)
class AnteWon(BetResultEvent):
    """The Ante won 1:1."""


@dataclass(frozen=True, slots=True)
class AnteReturned(BetResultEvent):
    """The Ante was returned (a tie with a qualified dealer)."""


@dataclass(frozen=True, slots=True)
class AnteLost(BetResultEvent):
    """The Ante lost to a qualified dealer."""


@dataclass(frozen=True, slots=True)
class PlayWon(BetResultEvent):
    """The Play bet won 1:1 against a qualified dealer."""


@dataclass(frozen=True, slots=True)
class PlayReturned(BetResultEvent):
    """The Play bet was returned (the dealer did not qualify, or a tie)."""


@dataclass(frozen=True, slots=True)
class PlayLost(BetResultEvent):
    """The Play bet lost to a qualified dealer."""


@dataclass(frozen=True, slots=True)
class AnteBonusWon(BetResultEvent):
    """The Ante bonus for a straight or better; ``paid`` is the bonus alone."""


@dataclass(frozen=True, slots=True)
class PairPlusWon(BetResultEvent):
    """The Pair Plus bet won (a pair or better): stake plus the table's payout."""


@dataclass(frozen=True, slots=True)
class PairPlusReturned(BetResultEvent):
    """The Pair Plus bet was returned (the table pays 0 for this hand)."""


@dataclass(frozen=True, slots=True)
class PairPlusLost(BetResultEvent):
    """The Pair Plus bet lost (high card)."""


_RESULT_EVENTS: dict[tuple[str, str], type[BetResultEvent]] = {
    ("ante", "won"): AnteWon,
    ("ante", "returned"): AnteReturned,
    ("ante", "lost"): AnteLost,
    ("play", "won"): PlayWon,
    ("play", "returned"): PlayReturned,
    ("play", "lost"): PlayLost,
    ("ante_bonus", "won"): AnteBonusWon,
    ("pair_plus", "won"): PairPlusWon,
    ("pair_plus", "returned"): PairPlusReturned,
    ("pair_plus", "lost"): PairPlusLost,
}


#: Each result event's class: its bet and outcome.
RESULT_OF: dict[type[BetResultEvent], tuple[str, str]] = {
    cls: bet_outcome for bet_outcome, cls in _RESULT_EVENTS.items()
}


def result_event(seat: int, bet: str, outcome: str, stake: int, paid: int) -> BetResultEvent:
    """The event for one bet's result.

    >>> result_event(1, "pair_plus", "won", 10, 50).to_json()
    {'type': 'pair_plus_won', 'seat': 1, 'stake': 10, 'paid': 50}
    """
    return _RESULT_EVENTS[bet, outcome](seat=seat, stake=stake, paid=paid)


@dataclass(frozen=True, slots=True)
class HandEnded(BaseEvent):
    """The hand is settled: each seat's net result and the house's (their sum is 0)."""

    hand: int
    results: tuple[tuple[int, int], ...]
    house: int

    def to_json(self) -> dict[str, Any]:
        results = [{"seat": seat, "net": net} for seat, net in self.results]
        return {"type": self.type, "hand": self.hand, "results": results, "house": self.house}
