"""Checks of an action's common fields (``now``, ``seat``, amounts), shared by every Guts table.

Each raises :class:`~games.engine.IllegalAction` with a reason a person can read.

>>> action_now({"now": 12})
12.0
>>> action_amount({"amount": -5}, "amount")
Traceback (most recent call last):
...
games.engine.IllegalAction: 'amount' must be a positive whole number of cents, not -5
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from games.engine import IllegalAction

__all__ = ["action_amount", "action_now", "action_seat"]


class _Table(Protocol):
    @property
    def seats(self) -> Sequence[object | None]: ...


def action_now(action: Mapping[str, Any]) -> float:
    """The action's time, in seconds."""
    now = action.get("now")
    if isinstance(now, bool) or not isinstance(now, (int, float)):
        raise IllegalAction(f"an action needs a time 'now' in seconds, not {now!r}")
    return float(now)


def action_seat(state: _Table, action: Mapping[str, Any], *, seated: bool = True) -> int:
    """The action's seat number: on this table, and (unless ``seated`` is false) occupied."""
    index = action.get("seat")
    if isinstance(index, bool) or not isinstance(index, int):
        raise IllegalAction(f"an action needs a 'seat' number, not {index!r}")
    if not 0 <= index < len(state.seats):
        raise IllegalAction(f"no seat {index}: this table has seats 0 to {len(state.seats) - 1}")
    if seated and state.seats[index] is None:
        raise IllegalAction(f"nobody sits in seat {index}")
    return index


def action_amount(action: Mapping[str, Any], key: str) -> int:
    """A positive whole number of cents under ``key``."""
    amount = action.get(key)
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise IllegalAction(f"'{key}' must be a positive whole number of cents, not {amount!r}")
    return amount
