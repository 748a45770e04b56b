"""What happens at a Chinese Poker table: the events that are the hand history and move money.

Every event is a frozen dataclass with ``moves()`` (the :class:`~games.engine.Move` records it
makes, in order) and ``to_json()`` (``{"type": ..., ...}``; cards as text).

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

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from games.cards import DECK
from games.engine import Move, bankroll, stack

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

_NO_MOVES: tuple[Move, ...] = ()
_CARD_FIELDS = frozenset({"cards", "front", "middle", "back"})


def _json(name: str, value: Any) -> Any:
    if name in _CARD_FIELDS and isinstance(value, tuple):
        return [str(DECK[index]) for index in value]
    if isinstance(value, tuple):
        return [_json("", item) for item in value]
    return value


class _Event:
    """Shared behaviour: public, no money, JSON from the fields."""

    __slots__ = ()
    type: ClassVar[str]

    @property
    def private_to(self) -> int | None:
        """The only seat that may read this event, or ``None`` when it is public."""
        return None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None``: a spectator or the public history) may read this event."""
        private = self.private_to
        return private is None or private == seat

    def moves(self) -> tuple[Move, ...]:
        """The money this event moved (none for most events)."""
        return _NO_MOVES

    def to_json(self) -> dict[str, Any]:
        """The event as JSON: ``type`` and the fields (cards as text)."""
        data: dict[str, Any] = {"type": self.type}
        for field in fields(self):  # type: ignore[arg-type]
            data[field.name] = _json(field.name, getattr(self, field.name))
        return data


class _Private(_Event):
    __slots__ = ()
    seat: int

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class PlayerSat(_Event):
    """A player sat down with ``stack`` cents from their bankroll."""

    type: ClassVar[str] = "player_sat"
    seat: int
    stack: int

    def moves(self) -> tuple[Move, ...]:
        return (Move(bankroll(self.seat), stack(self.seat), self.stack),)


@dataclass(frozen=True, slots=True)
class PlayerLeft(_Event):
    """A player left, cashing out ``stack`` cents to their bankroll."""

    type: ClassVar[str] = "player_left"
    seat: int
    stack: int

    def moves(self) -> tuple[Move, ...]:
        if self.stack == 0:
            return _NO_MOVES
        return (Move(stack(self.seat), bankroll(self.seat), self.stack),)


@dataclass(frozen=True, slots=True)
class LeavePending(_Event):
    """A player in a hand asked to leave; they cash out when the hand ends."""

    type: ClassVar[str] = "leave_pending"
    seat: int


@dataclass(frozen=True, slots=True)
class ToppedUp(_Event):
    """A player added ``amount`` cents from their bankroll between hands."""

    type: ClassVar[str] = "topped_up"
    seat: int
    amount: int

    def moves(self) -> tuple[Move, ...]:
        return (Move(bankroll(self.seat), stack(self.seat), self.amount),)


@dataclass(frozen=True, slots=True)
class SatOut(_Event):
    """A player sits out from the next hand on."""

    type: ClassVar[str] = "sat_out"
    seat: int


@dataclass(frozen=True, slots=True)
class SatIn(_Event):
    """A player is back in play from the next hand on."""

    type: ClassVar[str] = "sat_in"
    seat: int


@dataclass(frozen=True, slots=True)
class ConnectionChanged(_Event):
    """A player's connection flag changed (play goes on either way; the timeout acts)."""

    type: ClassVar[str] = "connection_changed"
    seat: int
    connected: bool


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
