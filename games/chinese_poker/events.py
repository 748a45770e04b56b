"""What happens at a Chinese Poker table: the events that are the hand history and move money.

Every event is a frozen dataclass with ``moves()`` (the :class:`~games.engine.Move` records it
makes, in order) and ``to_json()`` (``{"type": ..., ...}``; cards as text), over
:class:`games.events.BaseEvent`; the seat events (``PlayerSat``, ``ToppedUp``, ``PlayerLeft``,
``SatOut``, ``SatIn``, ``ConnectionChanged``) are the shared ones of :mod:`games.events`.

Privacy: ``private_to`` is the one seat that may read an event, or ``None`` when everyone may.
A seat's cards, its rows before the reveal and a natural it declared are private; the public
learns only that the seat submitted (or surrendered) until :class:`HandRevealed`.

>>> dealt = CardsDealt(seat=2, cards=(51, 47, 0))
>>> dealt.to_json()
{'type': 'cards_dealt', 'seat': 2, 'cards': ['As', 'Ks', '2c']}
>>> dealt.visible_to(2), dealt.visible_to(3), dealt.visible_to(None)
(True, False, False)
>>> PaymentMade(payer=1, winner=3, amount=300).moves()
(Move(source='stack:1', target='stack:3', amount=300),)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from games.engine import Move, stack
from games.events import (
    BaseEvent,
    ConnectionChanged,
    PlayerLeft,
    PlayerSat,
    SatIn,
    SatOut,
    ToppedUp,
)

__all__ = [
    "CardsDealt",
    "ConnectionChanged",
    "HandEnded",
    "HandFeePaid",
    "HandRevealed",
    "HandStarted",
    "HandSubmitted",
    "LeavePending",
    "NaturalDeclared",
    "PairScored",
    "PaymentMade",
    "PlayerLeft",
    "PlayerSat",
    "RowsSet",
    "SatIn",
    "SatOut",
    "Surrendered",
    "ToppedUp",
]


class _Event(BaseEvent):
    """A Chinese Poker event: ``cards`` and the rows hold card indices."""

    __slots__ = ()
    CARD_FIELDS = frozenset({"cards", "front", "middle", "back"})


class _Private(_Event):
    __slots__ = ()
    seat: int

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class LeavePending(_Event):
    """A player in a hand asked to leave; they cash out when the hand ends."""

    type: ClassVar[str] = "leave_pending"
    seat: int


@dataclass(frozen=True, slots=True)
class HandStarted(_Event):
    """A hand began: its number, the button and the seats dealt in, in seat order."""

    type: ClassVar[str] = "hand_started"
    hand: int
    button: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class HandFeePaid(_Event):
    """A seat paid the hand fee to the house rake."""

    type: ClassVar[str] = "hand_fee_paid"
    seat: int
    amount: int

    def moves(self) -> tuple[Move, ...]:
        return (Move(stack(self.seat), "rake", self.amount),)


@dataclass(frozen=True, slots=True)
class CardsDealt(_Private):
    """A seat's 13 cards (card indices, in deal order); only that seat may read it."""

    type: ClassVar[str] = "cards_dealt"
    seat: int
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RowsSet(_Private):
    """A seat set (or changed) its rows; private until the reveal."""

    type: ClassVar[str] = "rows_set"
    seat: int
    front: tuple[int, ...]
    middle: tuple[int, ...]
    back: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class NaturalDeclared(_Private):
    """A seat declared a natural; private until the reveal (the public sees a submission)."""

    type: ClassVar[str] = "natural_declared"
    seat: int
    natural: str


@dataclass(frozen=True, slots=True)
class HandSubmitted(_Event):
    """A seat's hand is final; ``auto`` when the cardroom set it at the deadline."""

    type: ClassVar[str] = "hand_submitted"
    seat: int
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Surrendered(_Event):
    """A seat surrendered (public at once); ``auto`` when by the table's timeout policy."""

    type: ClassVar[str] = "surrendered"
    seat: int
    auto: bool = False


@dataclass(frozen=True, slots=True)
class HandRevealed(_Event):
    """Every hand, shown: per seat its rows, its natural and how it plays (``status``:
    regular, natural, foul or surrender, ``why`` for a foul)."""

    # Each seat's record in ``hands`` holds its rows (card text) under the row fields.
    CARD_FIELDS = _Event.CARD_FIELDS | {"hands"}
    type: ClassVar[str] = "hand_revealed"
    hands: tuple[tuple[tuple[str, Any], ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "hands": [dict(hand) for hand in self.hands]}


@dataclass(frozen=True, slots=True)
class PairScored(_Event):
    """The units ``first`` wins from ``second`` (negative: ``first`` pays), per row when the
    rows were compared, and why (rows, natural, natural_tie, foul, both_fouled, surrender,
    both_surrendered)."""

    type: ClassVar[str] = "pair_scored"
    first: int
    second: int
    rows: tuple[int, ...] | None
    total: int
    reason: str


@dataclass(frozen=True, slots=True)
class PaymentMade(_Event):
    """``amount`` cents from the payer's stack to the winner's, after the table-stakes caps."""

    type: ClassVar[str] = "payment_made"
    payer: int
    winner: int
    amount: int

    def moves(self) -> tuple[Move, ...]:
        return (Move(stack(self.payer), stack(self.winner), self.amount),)


@dataclass(frozen=True, slots=True)
class HandEnded(_Event):
    """The hand is over: each seat's net units before the caps and its stack after them."""

    type: ClassVar[str] = "hand_ended"
    hand: int
    units: tuple[tuple[int, int], ...]
    stacks: tuple[tuple[int, int], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "hand": self.hand,
            "units": {str(seat): value for seat, value in self.units},
            "stacks": {str(seat): value for seat, value in self.stacks},
        }
