"""Keeping every socket of this process fresh, and its players' seats leased.

Pushes travel over the channel layer; a process that lost Redis for a while misses them, and
its clients would sit on an old version without knowing. So every ``FRESHNESS_SECONDS`` each
process reads the versions of the tables its sockets watch (one query) and pushes a fresh state
to any socket behind. In the same round it renews the presence lease of every seat that has a
socket here: a process that dies (kill -9, a crash) renews nothing, its seats' leases run out,
and the clock of any other process treats those players as gone (``cardroom.clock.clock``), where a
connection counter would have kept them "online" forever.

The same round asks whether each socket's login still holds (cardroom/realtime/logins.py), all
of them in one trip to the thread pool: a socket checks its login before each frame it sends,
but one that only listens would otherwise keep receiving its viewer's state (their own cards
among it) after the login was taken away. Such a socket is closed within a round.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from typing import Any, Protocol

from django.utils import timezone

from cardroom.realtime.logins import Login, logins_hold
from cardroom.realtime.threads import in_writes_thread
from cardroom.storage.versions import table_versions
from cardroom.tables.presence import FRESHNESS_SECONDS, LEASE, seat_leases_renew

__all__ = ["FRESHNESS_SECONDS", "LEASE", "unwatch", "watch"]

log = logging.getLogger(__name__)

#: A socket behind the database is repaired once it has taken no version for this long.
QUIET_SECONDS = 1.0


class Watcher(Protocol):
    table_id: int
    version: int
    scope: dict[str, Any]
    #: ``time.monotonic()`` when the socket last took a version.
    fresh_at: float
    #: What the socket logged in with.
    login: Login | None

    async def push_state(self, *, force: bool = False) -> None: ...

    async def login_lost(self) -> None: ...


_watchers: dict[int, set[Watcher]] = defaultdict(set)
_task: asyncio.Task[None] | None = None


def watch(consumer: Watcher) -> None:
    """Keep ``consumer`` fresh from now on (the round runs on the caller's event loop)."""
    global _task
    _watchers[consumer.table_id].add(consumer)
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_rounds(), name="cardroom-freshness")


def unwatch(consumer: Watcher) -> None:
    watching = _watchers.get(consumer.table_id)
    if watching is not None:
        watching.discard(consumer)
        if not watching:
            del _watchers[consumer.table_id]


async def _rounds() -> None:
    while _watchers:
        await asyncio.sleep(FRESHNESS_SECONDS)
        try:
            await freshness_round()
        except Exception:  # the database is away: try again next round
            log.exception("freshness round failed")


async def freshness_round() -> int:
    """One round: renew the leases, close the sockets whose login no longer holds, repair the
    sockets behind; returns how many were repaired."""
    watchers = {table: set(group) for table, group in _watchers.items() if group}
    held = await logins_hold(watcher.login for group in watchers.values() for watcher in group)
    for group in watchers.values():
        for watcher in [watcher for watcher in group if not held[watcher.login]]:
            group.discard(watcher)  # neither its seat's lease nor its state any more
            await watcher.login_lost()
    seated = {
        (table, watcher.scope["user"].pk)
        for table, group in watchers.items()
        for watcher in group
        if getattr(watcher, "seated", False)
    }
    versions = await in_writes_thread(_renew_and_read, list(watchers), seated)
    # Behind, and quiet for a while: a busy table's sockets are nearly always a push behind
    # the database for a moment, and each round read every such socket's state again (all
    # snapshot reads together, connects and syncs included, were 18 % of a busy PostgreSQL
    # server's samples). A lost push at a busy table is made good by the next version anyway
    # (each carries the whole state); a quiet table's socket is repaired here.
    quiet = time.monotonic() - QUIET_SECONDS
    behind = [
        watcher
        for table, group in watchers.items()
        for watcher in group
        if versions.get(table, -1) > watcher.version and watcher.fresh_at <= quiet
    ]
    for watcher in behind:
        try:
            await watcher.push_state()
        except Exception:
            log.exception("table %s: could not repair a stale socket", watcher.table_id)
    return len(behind)


def _renew_and_read(tables: list[int], seated: set[tuple[int, int]]) -> dict[int, int]:
    seat_leases_renew(seated, timezone.now() + LEASE)
    return table_versions(tables)
