"""Checks of an action's common fields (``now``, ``seat``, amounts) and of the buy-in limits,
shared by every Guts table.

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
from games.words import Money, words

__all__ = [
    "BuyInLimits",
    "action_amount",
    "action_now",
    "action_seat",
    "check_top_up",
    "sit_request",
]


class _Table(Protocol):
    @property
    def seats(self) -> Sequence[object | None]: ...


class BuyInLimits(Protocol):
    """A table configuration's buy-in limits, in cents (``max_buy_in`` ``None``: no limit)."""

    @property
    def min_buy_in(self) -> int: ...

    @property
    def max_buy_in(self) -> int | None: ...


class _LimitedTable(_Table, Protocol):
    @property
    def config(self) -> BuyInLimits: ...


def action_now(action: Mapping[str, Any]) -> float:
    """The action's time, in seconds."""
    now = action.get("now")
    if isinstance(now, bool) or not isinstance(now, (int, float)):
        raise IllegalAction(
            words("an action needs a time 'now' in seconds, not {value}", value=repr(now))
        )
    return float(now)


def action_seat(state: _Table, action: Mapping[str, Any], *, seated: bool = True) -> int:
    """The action's seat number: on this table, and (unless ``seated`` is false) occupied."""
    index = action.get("seat")
    if isinstance(index, bool) or not isinstance(index, int):
        raise IllegalAction(
            words("an action needs a 'seat' number, not {value}", value=repr(index))
        )
    if not 0 <= index < len(state.seats):
        raise IllegalAction(
            words(
                "no seat {seat}: this table has seats 0 to {last}",
                seat=index,
                last=len(state.seats) - 1,
            )
        )
    if seated and state.seats[index] is None:
        raise IllegalAction(words("nobody sits in seat {seat}", seat=index))
    return index


def action_amount(action: Mapping[str, Any], key: str) -> int:
    """A positive whole number of cents under ``key``."""
    amount = action.get(key)
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise IllegalAction(
            words(
                # Translators: {field} is the name of a field of the action, such as 'amount'
                "'{field}' must be a positive whole number of cents, not {value}",
                field=key,
                value=repr(amount),
            )
        )
    return amount


def sit_request(state: _LimitedTable, action: Mapping[str, Any]) -> tuple[int, str, int]:
    """A ``sit`` action's seat (a free one), player name and buy-in (within the table's limits).

    >>> from types import SimpleNamespace
    >>> table = SimpleNamespace(seats=[None, None], config=SimpleNamespace(min_buy_in=100,
    ...                                                                  max_buy_in=None))
    >>> sit_request(table, {"seat": 1, "stack": 500})
    (1, 'seat 1', 500)
    >>> sit_request(table, {"seat": 0, "stack": 50, "player": "ann"})
    Traceback (most recent call last):
    ...
    games.engine.IllegalAction: the least you may sit down with is $1.00
    """
    index = action_seat(state, action, seated=False)
    if state.seats[index] is not None:
        raise IllegalAction(words("seat {seat} is taken", seat=index))
    amount = action_amount(action, "stack")
    config = state.config
    if amount < config.min_buy_in:
        raise IllegalAction(
            words("the least you may sit down with is {amount}", amount=Money(config.min_buy_in))
        )
    if config.max_buy_in is not None and amount > config.max_buy_in:
        raise IllegalAction(
            words("the most you may sit down with is {amount}", amount=Money(config.max_buy_in))
        )
    player = action.get("player", f"seat {index}")
    if not isinstance(player, str) or not player:
        raise IllegalAction(words("'player' must be a name"))
    return index, player, amount


def check_top_up(config: BuyInLimits, stack: int, amount: int) -> None:
    """Refuse a top-up of ``amount`` that would take ``stack`` over ``max_buy_in``."""
    limit = config.max_buy_in
    if limit is not None and stack + amount > limit:
        raise IllegalAction(words("your stack may not exceed {amount}", amount=Money(limit)))
