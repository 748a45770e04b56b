"""The rules of other contexts that the runtime applies: the port they plug into.

Whether a player may put more money on a table (an exclusion, their own limits), which flagged
seats stand up once their hand is over, and whether a free seat is held for the wait list are
rules of cardroom/responsible/ and cardroom/waitlist/. Those contexts sit above the tables (they
stand players up and offer seats through the runtime), so they plug their rules in here once,
from the app's ``ready`` (cardroom/apps.py), and the runtime calls them through this module: the
tables never import them. Until they are plugged in, each call raises RuntimeError: a table never
plays without its players' limits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from accounts.models import User
from cardroom.models import Seat, Table
from cardroom.tables.engines import Engine, TableState
from games.engine import JSON, Event
from games.words import Sentence

__all__ = [
    "Limits",
    "guard_stake",
    "plug_limits",
    "plug_wait_list",
    "seats_to_release",
    "sit_refusal",
    "stand_up_at_rest",
]


class GuardStake(Protocol):
    def __call__(
        self, *, action: Mapping[str, object], events: Iterable[Event], seat: Seat, now: datetime
    ) -> None: ...


class StandUpAtRest(Protocol):
    def __call__(
        self,
        *,
        engine: Engine,
        state: TableState,
        seats: Mapping[int, Seat],
        recorded: list[Event],
        journal: list[JSON],
        now: datetime,
        stamp: float,
    ) -> TableState: ...


SeatsToRelease = Callable[[Engine, TableState, Mapping[int, Seat]], list[int]]
SitRefusal = Callable[[Table, User, list[int], datetime], Sentence | None]


@dataclass(frozen=True)
class Limits:
    """Responsible gaming's rules, as the runtime calls them (cardroom/responsible/checks.py).

    ``guard_stake`` raises IllegalAction for an action (already applied by the game, its events
    not yet saved) that stakes beyond an exclusion or a limit; ``seats_to_release`` names the
    flagged seats that would stand up now; ``stand_up_at_rest`` flags players whose loss limit
    the events reached and stands up every flagged seat at rest, journaling the leaves and
    recording their events, and returns the new state.
    """

    guard_stake: GuardStake
    seats_to_release: SeatsToRelease
    stand_up_at_rest: StandUpAtRest


class _Plugged:
    limits: Limits | None = None
    wait_list: SitRefusal | None = None


_plugged = _Plugged()


def plug_limits(limits: Limits) -> None:
    """Plug responsible gaming's rules in (once per process; a second call replaces them)."""
    _plugged.limits = limits


def plug_wait_list(refusal: SitRefusal) -> None:
    """Plug the wait list's hold on free seats in: ``refusal(table, user, free, now)`` says why
    ``user`` may not take one of the ``free`` seats now, or None (and takes them off the line)."""
    _plugged.wait_list = refusal


def _limits() -> Limits:
    limits = _plugged.limits
    if limits is None:
        raise RuntimeError("the players' limits are not plugged in (cardroom/apps.py)")
    return limits


def guard_stake(
    *, action: Mapping[str, object], events: Iterable[Event], seat: Seat, now: datetime
) -> None:
    _limits().guard_stake(action=action, events=events, seat=seat, now=now)


def seats_to_release(engine: Engine, state: TableState, seats: Mapping[int, Seat]) -> list[int]:
    return _limits().seats_to_release(engine, state, seats)


def stand_up_at_rest(
    *,
    engine: Engine,
    state: TableState,
    seats: Mapping[int, Seat],
    recorded: list[Event],
    journal: list[JSON],
    now: datetime,
    stamp: float,
) -> TableState:
    return _limits().stand_up_at_rest(
        engine=engine,
        state=state,
        seats=seats,
        recorded=recorded,
        journal=journal,
        now=now,
        stamp=stamp,
    )


def sit_refusal(table: Table, user: User, free: list[int], now: datetime) -> Sentence | None:
    refusal = _plugged.wait_list
    if refusal is None:
        raise RuntimeError("the wait list is not plugged in (cardroom/apps.py)")
    return refusal(table, user, free, now)
