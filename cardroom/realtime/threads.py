"""Which thread a socket's database work runs in.

Channels runs database calls in one thread of its own unless told otherwise, so every socket of
a process would queue there: handshakes behind actions, one table's actions behind another's.
SQLite has a single writer anyway, and a writer from another thread waits on its file lock in
sleeps of up to 100 ms, so its writes (actions, presence, leases) keep to that one thread.
PostgreSQL serialises what must be serialised by row locks, so its writes run in the pool.
Reads run in the pool on both.
"""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any, TypeVar

from channels.db import database_sync_to_async
from django.db import connection, connections

__all__ = [
    "ACTION_THREADS",
    "SERIAL_WRITES",
    "action_pool",
    "in_action_thread",
    "in_read_thread",
    "in_writes_thread",
    "ready_connections",
    "tidy_connections",
]

T = TypeVar("T")

SERIAL_WRITES = connection.vendor == "sqlite"
#: Threads applying players' actions on PostgreSQL, apart from the pool the reads share.
ACTION_THREADS = 4

_action_pool: ThreadPoolExecutor | None = None
_made = threading.Lock()


def action_pool() -> ThreadPoolExecutor | None:
    """The threads players' actions run in on PostgreSQL (None on SQLite: its writes keep to
    Channels' one thread). Actions have threads of their own so that they never queue behind
    reads: when pushes ran late, every late socket's ``sync`` read the snapshot in the pool
    the actions waited for, which made the next pushes later still (seen at 40 tables on two
    processes, where the syncs grew to thousands)."""
    global _action_pool
    if SERIAL_WRITES:
        return None
    with _made:  # each server loop asks; tests run several
        if _action_pool is None:
            _action_pool = ThreadPoolExecutor(ACTION_THREADS, thread_name_prefix="cardroom-action")
        return _action_pool


async def in_action_thread(work: Callable[..., T], /, **arguments: Any) -> T:
    """``work(**arguments)`` where players' actions run: on SQLite in Channels' one thread (its
    writer), on PostgreSQL in the actions' own threads.

    On PostgreSQL without Channels' wrapper: it checks every connection before and after each
    call, and with ``conn_health_checks`` the check is a ``SELECT 1`` before the call's first
    statement, one more round trip for each batch of actions. Here a thread's connection is
    closed when past its age, checked when it was idle for ``IDLE_CHECK_SECONDS`` or after a
    call that met a database error, and otherwise used as it is."""
    pool = action_pool()
    if pool is None:
        done: T = await database_sync_to_async(work, thread_sensitive=True)(**arguments)
        return done
    return await asyncio.get_running_loop().run_in_executor(pool, partial(_kept, work, arguments))


async def in_read_thread(work: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """``work(*args, **kwargs)`` in the pool the reads share (the loop's default), with the
    caller's context variables, as Channels' ``database_sync_to_async(thread_sensitive=False)``
    runs it, but with the thread's connection kept as ``in_action_thread`` keeps it: no
    ``SELECT 1`` before each call's first statement (a handshake makes three such calls)."""
    context = contextvars.copy_context()
    call = partial(context.run, work, *args, **kwargs)
    return await asyncio.get_running_loop().run_in_executor(None, partial(_kept, call, {}))


async def in_writes_thread(work: Callable[..., T], /, *args: Any, **kwargs: Any) -> T:
    """``work(*args, **kwargs)`` where writes other than actions go: on SQLite in Channels' one
    thread (its writer), on PostgreSQL as ``in_read_thread`` (row locks keep writers apart)."""
    if SERIAL_WRITES:
        done: T = await database_sync_to_async(work, thread_sensitive=True)(*args, **kwargs)
        return done
    return await in_read_thread(work, *args, **kwargs)


#: A connection unused this long is checked (Django's ``SELECT 1``) before its next statement:
#: a database restarted, or a connection dropped by the network, while it sat idle costs that
#: check, not a failed call. One in use every few milliseconds is not checked each time.
IDLE_CHECK_SECONDS = 10.0

_used_at: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()


def ready_connections() -> None:
    """Before a piece of work: close this thread's connections past their age, and have those
    idle for ``IDLE_CHECK_SECONDS`` checked before their next statement."""
    now = time.monotonic()
    for kept in connections.all(initialized_only=True):
        if kept.connection is None or kept.in_atomic_block:
            continue
        if kept.close_at is not None and now >= kept.close_at:
            kept.close()
        elif now - _used_at.get(kept, now) >= IDLE_CHECK_SECONDS:
            kept.health_check_done = False  # type: ignore[attr-defined]  # not in the stubs


def tidy_connections() -> None:
    """After a piece of work: close this thread's connections that met a database error (when
    unusable), are past their age or were left in a transaction, as Django does after a
    request, but without marking the others for a ``SELECT 1`` before their next statement
    (Django's ``close_old_connections`` does, with ``conn_health_checks``)."""
    now = time.monotonic()
    for kept in connections.all(initialized_only=True):
        if kept.connection is None:
            continue
        aged = kept.close_at is not None and now >= kept.close_at
        left_open = kept.autocommit != kept.settings_dict["AUTOCOMMIT"]  # a transaction
        if kept.errors_occurred or aged or left_open:
            kept.close_if_unusable_or_obsolete()
        _used_at[kept] = now


def _kept(work: Callable[..., T], arguments: dict[str, Any]) -> T:
    ready_connections()
    try:
        return work(**arguments)
    finally:
        tidy_connections()
