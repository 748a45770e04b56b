"""The shape every game shares (docs/architecture.md, "The layers").

A game module exposes a :class:`Game`: a state machine over an immutable, JSON-serialisable
state. ``apply(state, action)`` returns the new state and the events that happened, or raises
:class:`IllegalAction` with a reason a person can read, changing nothing. Actions carry ``now``
(seconds since the epoch, a float); a deal carries its deck; a timeout is an action too, so the
package never reads a clock or a random source.

Money appears only in events, as :class:`Move` records between named places:

- ``stack:<seat>``   a seat's table stack
- ``bankroll:<seat>`` the bankroll of the player in that seat (buy-ins, top-ups, cash-outs)
- ``pot``, ``reserve`` the table's pot and reserve (Guts)
- ``rake``           the house rake (every rake and hand fee)
- ``house``          the house bank (Three Card Poker)

The table runtime maps each place to a ledger account and posts every move; a game's events
must conserve chips (every move takes from one place exactly what it gives another).

Actions are JSON objects with a ``kind``, a ``now`` and, for a player's action, a ``seat``:
``{"kind": "declare", "seat": 2, "choice": "in", "now": 1700000000.5}``. The runtime passes
them as they come (after checking their shape); the game checks everything else. Kinds every
seated game knows: ``sit`` (``stack``), ``leave``, ``top_up`` (``amount``), ``sit_out``,
``sit_in``, ``connect`` / ``disconnect``, ``timeout`` (applies whatever the passed deadline
calls for; refused before the deadline) and ``deal`` (``deck``: all 52 cards as text, in deal
order). A game never deals as a side effect: when :meth:`Game.wants_deck` is true, the runtime
shuffles, publishes the deck's commitment and applies ``deal`` next.

Events are frozen dataclasses with ``moves()`` and ``to_json()`` (``{"type": "ante_posted", ...}``).
An event that carries hidden cards has ``private_to``: the one seat that may read it, or
:data:`HIDDEN` for cards nobody at the table may see yet (a dealer's, a ghost hand's); the
runtime keeps such events out of every other reader's history.
A hand's first event is ``hand_started`` (on its deal) and its last ``hand_ended`` (with the
result), so the runtime can open and close its hand record.

``view(state, seat)`` is exactly what that seat (``None``: a spectator) may see, as JSON:
``{"phase": str, "deadline": float | None, "pot": int, "seats": [{"seat", "stack", "status",
"cards" (only where this viewer may see them), "card_count", ...}], "you": {"seat", "cards",
"legal_actions"} | None, ...}``. Hidden cards and undisclosed choices never appear in it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

__all__ = [
    "HIDDEN",
    "JSON",
    "ConfigError",
    "Event",
    "Game",
    "IllegalAction",
    "Move",
    "bankroll",
    "rake_amount",
    "seat_order",
    "split_amount",
    "stack",
]

#: A JSON object: an action, a view, a dumped state, an event's record.
JSON = dict[str, Any]
S = TypeVar("S")


#: ``private_to`` of an event nobody at the table may read (auditors only).
HIDDEN = -1


class IllegalAction(ValueError):
    """An action the rules do not allow now; the message says why."""


class ConfigError(ValueError):
    """A table configuration that is not valid; the message names the valid values."""


@dataclass(frozen=True, slots=True)
class Move:
    """``amount`` cents moved from one named place to another (see the module docstring)."""

    source: str
    target: str
    amount: int

    def __post_init__(self) -> None:
        if not isinstance(self.amount, int) or isinstance(self.amount, bool) or self.amount <= 0:
            raise ValueError(f"a move is a positive whole number of cents, not {self.amount!r}")
        if self.source == self.target:
            raise ValueError(f"a move needs two different places, not {self.source!r} twice")


def stack(seat: int) -> str:
    """The place name of a seat's table stack.

    >>> stack(3)
    'stack:3'
    """
    return f"stack:{seat}"


def bankroll(seat: int) -> str:
    """The place name of the bankroll of the player in ``seat``."""
    return f"bankroll:{seat}"


class Event(Protocol):
    """Something that happened. Events are the stored hand history (games/events.py has the
    base every game's events share)."""

    @property
    def type(self) -> str:
        """The event's name in the stored history (``to_json()["type"]``)."""
        ...

    @property
    def private_to(self) -> int | None:
        """The only seat that may read it, :data:`HIDDEN` for nobody, ``None``: everyone."""
        ...

    @property
    def audience(self) -> Collection[int] | None:
        """The seats that may read an event shown to a group (it then decides alone)."""
        ...

    def moves(self) -> tuple[Move, ...]:
        """The money this event moved, in order (empty for most events)."""
        ...

    def to_json(self) -> JSON:
        """A JSON object with a ``type`` naming the event."""
        ...


class Game(Protocol[S]):
    """What the table runtime needs from every game module."""

    name: str

    def apply(self, state: S, action: Mapping[str, Any]) -> tuple[S, tuple[Event, ...]]: ...

    def legal_actions(self, state: S, seat: int) -> list[JSON]: ...

    def deadline(self, state: S) -> float | None: ...

    def wants_deck(self, state: S) -> bool: ...

    def view(self, state: S, seat: int | None) -> JSON: ...

    def dump(self, state: S) -> JSON: ...

    def load(self, data: JSON) -> S: ...


def seat_order(seats: Iterable[int], button: int) -> list[int]:
    """Seats in seat order: from the seat left of the button, clockwise (increasing, wrapping).

    >>> seat_order([0, 2, 5, 7], button=5)
    [7, 0, 2, 5]
    """
    ordered = sorted(seats)
    after = [seat for seat in ordered if seat > button]
    return after + [seat for seat in ordered if seat <= button]


def split_amount(amount: int, seats: Sequence[int], button: int) -> dict[int, int]:
    """Split ``amount`` cents between ``seats``: each gets the floor of its share, and the
    remaining cents go one each to those seats in seat order from the button
    (docs/architecture.md, "Conventions").

    >>> split_amount(101, [4, 1], button=2)
    {4: 51, 1: 50}
    >>> split_amount(100, [0, 1, 2], button=0)
    {1: 34, 2: 33, 0: 33}
    """
    if not seats:
        raise ValueError("nobody to split between")
    share, odd = divmod(amount, len(seats))
    order = seat_order(seats, button)
    return {seat: share + (1 if index < odd else 0) for index, seat in enumerate(order)}


def rake_amount(pot: int, *, basis_points: int, cap: int) -> int:
    """The rake on a pot, in whole cents: ``min(floor(pot × rate), cap)``.

    ``basis_points`` is the rate in hundredths of a percent (3 % is 300), so no float is used.

    >>> rake_amount(12_345, basis_points=300, cap=300)
    300
    >>> rake_amount(999, basis_points=300, cap=300)
    29
    """
    if pot < 0 or basis_points < 0 or cap < 0:
        raise ValueError("pot, rate and cap are never negative")
    return min(pot * basis_points // 10_000, cap)
