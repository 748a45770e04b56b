"""The clock: applies the timeout of every table whose deadline has passed (docs/architecture.md).

Deadlines live on the table rows, never in a sleeping coroutine, so timers survive a restart and
run with every player disconnected. Any number of processes may sweep together: on PostgreSQL
each takes a table with ``FOR UPDATE SKIP LOCKED``, so a table another process is handling is
passed over, not waited for. The sweep also times each away player's reconnect grace and idle
limit, and stands up the players flagged to leave (cardroom/responsible/sweep.py); every half
second it also lets the house bots act and raises the tournaments' levels that are due.

The loop polls every ``POLL_SECONDS`` rather than waiting for a wake-up message: a poll of one
indexed column is cheap, needs no channel between processes, and bounds every timeout's delay
by the poll interval (the issue asks for half a second).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from datetime import datetime, timedelta
from typing import Any

from channels.db import database_sync_to_async
from django.db import close_old_connections, connection, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.ledger import LedgerError
from cardroom.clock.bots import bots_sweep
from cardroom.models import Seat, Table, TableStatus
from cardroom.observability.metrics import clock_swept, timeout_applied
from cardroom.realtime.broadcast import server_loop
from cardroom.realtime.owners import adopt_threadsafe, claim_due, route_of
from cardroom.realtime.queue import TIMER_GRACE_SECONDS, submit_timeout, timed_here
from cardroom.realtime.threads import ready_connections, tidy_connections
from cardroom.responsible.sweep import responsible_sweep
from cardroom.storage.deadlines import next_deadline
from cardroom.tables.runtime import table_apply, table_timeout
from cardroom.tournaments.levels import levels_sweep
from cardroom.waitlist.services import waitlist_sweep
from games.engine import IllegalAction

__all__ = ["ClockThread", "clock_sweep", "presence_sweep"]

log = logging.getLogger(__name__)
POLL_SECONDS = 0.2
#: How often the bot sweep runs (bots think for a second or more).
SLOW_SWEEP_SECONDS = 0.5
#: How often the presence sweep runs: graces and idle limits are tens of seconds, and under
#: load the sweep's scan of away seats was a tenth of a server's time at twice a second.
PRESENCE_SWEEP_SECONDS = 2.0
#: Threads applying due timeouts side by side on PostgreSQL (each holds a connection).
CLOCK_WORKERS = 4
#: The longest a tick waits for the server's write thread (a stopping server never runs it).
TICK_TIMEOUT_SECONDS = 30.0
#: Seconds a disconnected player keeps the seat after the hand, when the game sets none.
DEFAULT_GRACE_SECONDS = 60


def clock_sweep(
    *,
    now: datetime | None = None,
    limit: int = 100,
    pool: Executor | None = None,
    turn: Callable[..., int] | None = None,
    loop: asyncio.AbstractEventLoop | None = None,
) -> int:
    """Apply every due timeout; returns how many were applied. ``pool``: worker threads to
    apply them side by side (PostgreSQL, where each is its own transaction on its own
    connection: when every table's deadline falls at once, the last of them no longer waits
    for all the others one by one). ``turn(work, *args)``: where each table's timeout runs,
    one table per call (SQLite: a turn of the server's write thread each). ``loop``: the
    server's event loop, whose action queue takes the timeouts instead, each in its turn among
    its table's actions (cardroom/realtime/queue.py: the table stays held there). Without
    ``now``, each timeout is applied at the moment it runs: with turns, players' actions go
    between them, and a moment read once would give the last tables' players less time to act."""
    moment = now or timezone.now()
    route = route_of(loop) if loop is not None and now is None else None
    if route is not None and loop is not None:
        # Processes share tables: this one takes the due tables nobody else owns
        # (cardroom/realtime/owners.py), and leaves each other owner's to its own clock.
        due = claim_due(route.channel, moment, limit)
        adopt_threadsafe(loop, route, [table_id for table_id, _ in due], moment)
    else:
        # With their deadlines, read in the same query: the metrics' lag and lateness.
        due = list(
            Table.objects.filter(deadline__lte=moment)
            .exclude(status=TableStatus.CLOSED)
            .order_by("deadline")
            .values_list("pk", "deadline")[:limit]
        )
    oldest = due[0][1] if due else None
    clock_swept((moment - oldest).total_seconds() if oldest is not None else 0.0)
    if loop is not None and now is None:
        # A table the server's queue holds is timed there; the sweep applies its timeout only
        # when that timer is well late (cardroom/realtime/queue.py).
        timed, late = timed_here(loop), moment - timedelta(seconds=TIMER_GRACE_SECONDS)
        due = [(pk, at) for pk, at in due if pk not in timed or at is None or at <= late]
        return _time_out_queued(loop, due)
    if turn is not None:
        return sum(turn(_time_out, table_id, now, deadline) for table_id, deadline in due)
    if pool is None or len(due) < 2:
        return sum(_time_out(table_id, now, deadline) for table_id, deadline in due)
    ids, deadlines = zip(*due, strict=True)
    return sum(pool.map(functools.partial(_time_out_in_worker, now=now), ids, deadlines))


def _time_out(table_id: int, now: datetime | None, deadline: datetime | None = None) -> int:
    now = now or timezone.now()
    try:
        # Claimed with the read of the table: due by now, and not held by another clock or a
        # player's action (PostgreSQL: skipped, not waited for).
        if table_timeout(table_id=table_id, now=now, claim=True):
            timeout_applied(deadline, now)
            return 1
    except Exception:  # one broken table must not stop every other table's clock
        log.exception("timeout of table %s failed", table_id)
    return 0


def _time_out_queued(
    loop: asyncio.AbstractEventLoop, due: list[tuple[int, datetime | None]]
) -> int:
    """Hand the due timeouts to the server's action queue all at once, then wait for them."""
    handed = [
        (asyncio.run_coroutine_threadsafe(submit_timeout(table_id), loop), deadline)
        for table_id, deadline in due
    ]
    applied = 0
    for future, deadline in handed:
        try:
            future.result(TICK_TIMEOUT_SECONDS)
        except IllegalAction:
            continue  # not due any more: applied meanwhile, or the table changed
        except Exception:  # one broken table must not stop every other table's clock
            log.exception("a queued timeout failed")
            continue
        timeout_applied(deadline, timezone.now())
        applied += 1
    return applied


def _time_out_in_worker(
    table_id: int, deadline: datetime | None = None, *, now: datetime | None
) -> int:
    try:
        return _time_out(table_id, now, deadline)
    finally:
        close_old_connections()  # a worker's connection is kept only while it is healthy


def presence_sweep(*, now: datetime | None = None) -> int:
    """Sit out players away past the grace; stand up those away past the idle limit.

    A seat whose connections no process renews any more (the process died with them open)
    is disconnected first: away since its lease ran out.
    """
    now = now or timezone.now()
    changed = _expire_leases(now)
    away = Seat.objects.filter(left__isnull=True, connections=0, last_seen__isnull=False)
    # Only what the sweep reads: a table's state is the bulk of its row, and a room with many
    # players sat out away would read every one of their tables' states twice a second.
    for seat in away.select_related("table").only(
        "number",
        "last_seen",
        "presence_step",
        "table__config",
        "table__idle_limit_seconds",
        "table__plays_for_chips",
    ):
        config = seat.table.config
        grace = timedelta(seconds=config.get("reconnect_grace_seconds", DEFAULT_GRACE_SECONDS))
        idle = timedelta(seconds=seat.table.idle_limit_seconds)
        assert seat.last_seen is not None
        if now - seat.last_seen >= idle:
            kind = "leave"
        elif now - seat.last_seen >= grace and seat.presence_step == 0:
            kind = "sit_out"
        else:
            continue
        if kind == "leave" and seat.table.plays_for_chips:
            # A tournament's player is never stood up: past the idle limit they sit out (if
            # the grace has not done it already) and the game antes their chips until they
            # are out (cardroom/tables/chips.py); once is enough.
            if seat.presence_step >= 2:
                continue
            kind = "sit_out"
        # Already sitting out, or leaving when the hand ends: nothing more to do.
        with contextlib.suppress(IllegalAction, LedgerError):
            table_apply(table_id=seat.table_id, action={"kind": kind, "seat": seat.number}, now=now)
        step = 2 if kind == "leave" or now - seat.last_seen >= idle else 1
        Seat.objects.filter(pk=seat.pk).update(presence_step=step)
        changed += 1
    return changed


def _expire_leases(now: datetime) -> int:
    stale = Seat.objects.filter(left__isnull=True, connections__gt=0).filter(
        Q(lease_until__lt=now) | Q(lease_until__isnull=True)
    )
    expired = 0
    for seat in stale:
        with transaction.atomic():
            # Counted again under the lock: a socket may have come back meanwhile.
            gone = (
                Seat.objects.select_for_update()
                .filter(pk=seat.pk, connections__gt=0)
                .filter(Q(lease_until__lt=now) | Q(lease_until__isnull=True))
                .update(connections=0, last_seen=seat.lease_until or now)
            )
            if gone:
                with contextlib.suppress(IllegalAction):
                    table_apply(
                        table_id=seat.table_id,
                        action={"kind": "disconnect", "seat": seat.number},
                        now=now,
                    )
                expired += 1
    return expired


def _presence_sweeps() -> None:
    presence_sweep()
    waitlist_sweep()
    # Exclusions and "leave my tables" from other processes, and session limits.
    responsible_sweep()


class ClockThread(threading.Thread):
    """The clock inside a server process (the embedded default), or alone under ``runclock``."""

    def __init__(self) -> None:
        super().__init__(name="cardroom-clock", daemon=True)
        self.stopping = threading.Event()
        self.slow_due = self.presence_due = 0.0
        # SQLite has one writer: its timeouts go one by one, in the server's write thread.
        self.pool = (
            ThreadPoolExecutor(CLOCK_WORKERS, thread_name_prefix="cardroom-clock-worker")
            if connection.vendor == "postgresql"
            else None
        )

    def run(self) -> None:
        log.info("clock started")
        self.slow_due = self.presence_due = 0.0
        while not self.stopping.is_set():
            try:
                ready_connections()
                self.tick_where_writes_go()
            except Exception:
                log.exception("clock sweep failed")
            finally:
                tidy_connections()
            self.stopping.wait(self.pause())
        if self.pool is not None:
            self.pool.shutdown(wait=False)  # its workers end with the sweep in hand
        log.info("clock stopped")

    def tick_where_writes_go(self) -> None:
        """One tick, its writes on SQLite in the server's own write thread.

        SQLite has one writer: a clock writing from its own thread made the server's action
        thread wait on the file lock, and SQLite's busy handler sleeps in steps of up to
        100 ms, so actions queued behind every timeout. Run by the thread that applies the
        sockets' actions, the two simply take turns, one due table per turn, so the actions go
        between the timeouts rather than waiting for a whole sweep of them (measured:
        docs/performance.md, "Why the live path is built as it is").
        """
        loop = server_loop() if connection.vendor == "sqlite" else None
        if loop is None:
            self.tick()
            return

        def turn(work: Callable[..., Any], *args: Any) -> Any:
            if self.stopping.is_set():
                return 0  # the rest of the sweep is left to the next start
            done = asyncio.run_coroutine_threadsafe(database_sync_to_async(work)(*args), loop)
            return done.result(timeout=TICK_TIMEOUT_SECONDS)

        self.tick(turn)

    def tick(self, turn: Callable[..., Any] | None = None) -> None:
        """One sweep. ``turn(work, *args)`` runs each piece of writing where writes go (on
        SQLite the server's write thread, one due table at a time); None: in this thread. The
        due tables and the next deadline are read here either way (reads never wait for
        SQLite's writer)."""
        run = turn or (lambda work, *args: work(*args))
        # In a server, the timeouts go to its action queue (the tables stay held there).
        clock_sweep(pool=self.pool, turn=turn, loop=server_loop())
        # Neither bots nor presence need every fast tick of the deadline loop.
        if time.monotonic() >= self.slow_due:
            self.slow_due = time.monotonic() + SLOW_SWEEP_SECONDS
            run(bots_sweep)
            # Tournaments' levels end on their rows' deadlines (cardroom/tournaments/levels.py).
            run(levels_sweep)
        if time.monotonic() >= self.presence_due:
            self.presence_due = time.monotonic() + PRESENCE_SWEEP_SECONDS
            run(_presence_sweeps)

    def pause(self) -> float:
        """Sleep until the next deadline this clock must meet, but never longer than the poll
        interval.

        Deadlines set by other processes are found by the next poll at the latest. In a
        server, the tables its queue times (cardroom/realtime/queue.py) and, where processes
        share tables, those another live owner holds are timed elsewhere: waking for each of
        their deadlines (every few milliseconds with many tables) would only find the sweep
        passing them over. The polls still sweep them, and take a timer's table once it is late.
        """
        now = timezone.now()
        loop = server_loop()
        timed: frozenset[int] = frozenset()
        owner = None
        if loop is not None:
            timed = timed_here(loop)
            if (route := route_of(loop)) is not None:
                owner = route.channel
        try:
            upcoming = next_deadline(now, excluding=timed, owner=owner)
        except Exception:  # the database is away: poll again later
            log.exception("could not read the next deadline")
            return POLL_SECONDS
        if upcoming is None:
            return POLL_SECONDS
        # At least 50 ms, so a table whose timeout keeps failing cannot spin the loop.
        wait: float = (upcoming - now).total_seconds() + 0.005
        return min(POLL_SECONDS, max(0.05, wait))

    def stop(self, wait: float = 0.0) -> None:
        """Stop after the sweep in hand (each timeout is its own transaction: none is cut
        short); ``wait``: seconds to wait for that."""
        self.stopping.set()
        if wait and self.is_alive() and threading.current_thread() is not self:
            self.join(wait)
