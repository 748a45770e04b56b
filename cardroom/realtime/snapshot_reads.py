"""Snapshot reads shared by the sockets of one table that ask for one at the same moment.

A socket reads its table's snapshot from the database when it opens and when it asks for
``sync``. Both come in bursts for one table: its players connect within moments of each other
as a room opens, and when a push is late all its sockets ask for ``sync`` after the same
deadline. Each read is the table row, its seats, the open hand's commitment and the log of
hands, and when they queued in the pool ahead of the actions, the pushes came later still, so
more sockets asked (on two processes at 40 tables, thousands of syncs a run).

Here a socket that asks while a read of its table has been asked for but has not started
waits for that read instead of making its own. A read that has started is never shared with a
socket that asks after its start: that socket may have joined the table's group after the
read's moment, and a version committed between the two would reach it neither by the group
nor by the read. Whatever the read returns is shared: snapshots are read-only by convention
(cardroom/realtime/broadcast.py shares the pushed ones the same way).

A socket that opens has a read of its own to make as well (its viewer's chat lines and mutes):
``shared_snapshot_and`` runs it in the same trip to the pool as the snapshot, after it, so a
handshake waits for one thread's turn, not two. Each asker gets its own read's result, or its
own read's error; the snapshot's error reaches every asker, and then no asker's read is made.
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from cardroom.realtime.threads import in_read_thread
from cardroom.storage.rows import table_row
from cardroom.tables.snapshots import snapshot_from_db

__all__ = ["shared_snapshot", "shared_snapshot_and"]

T = TypeVar("T")

_lock = threading.Lock()


@dataclass(eq=False)
class _Asked:
    """A read of one table asked for: its snapshot's future, and the askers' own reads with
    the futures of their results (added under the lock, only until the read starts)."""

    future: asyncio.Future[Any]
    extras: list[tuple[Callable[[], Any], asyncio.Future[Any]]] = field(default_factory=list)


#: Per event loop, the read of each table asked for and not started yet.
_asked: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, _Asked]] = (
    weakref.WeakKeyDictionary()
)
_tasks: set[asyncio.Task[None]] = set()


async def shared_snapshot(table_id: int) -> dict[str, Any]:
    """The table's snapshot as the database holds it, read in the pool, or the result of a
    read of the same table that another socket asked for and that has not started yet;
    raises what the read raised (Table.DoesNotExist, the database's errors)."""
    result: dict[str, Any] = await asyncio.shield(_ask(table_id, None))
    return result


async def shared_snapshot_and(table_id: int, also: Callable[[], T]) -> tuple[dict[str, Any], T]:
    """``shared_snapshot``, and ``also()`` run in the same trip to the pool, after the
    snapshot is read (with the context variables of the socket that asked for the read
    first): its result, or its error raised here once the snapshot is in hand."""
    loop = asyncio.get_running_loop()
    mine: asyncio.Future[T] = loop.create_future()
    mine.add_done_callback(_retrieved)
    snapshot: dict[str, Any] = await asyncio.shield(_ask(table_id, (also, mine)))
    return snapshot, await mine


def _retrieved(done: asyncio.Future[Any]) -> None:
    """A future's outcome taken, so one whose asker went away logs no "never retrieved"."""
    if not done.cancelled():
        done.exception()


def _ask(
    table_id: int, extra: tuple[Callable[[], Any], asyncio.Future[Any]] | None
) -> asyncio.Future[Any]:
    # Shielded by the callers: a socket that closes while waiting cancels nobody's read.
    loop = asyncio.get_running_loop()
    with _lock:
        asked = _asked.setdefault(loop, {})
        read = asked.get(table_id)
        if read is None:
            future = loop.create_future()
            future.add_done_callback(_retrieved)
            read = asked[table_id] = _Asked(future)
            task = loop.create_task(_read(loop, table_id, read))
            _tasks.add(task)  # held, so the task is not collected while it runs
            task.add_done_callback(_tasks.discard)
        if extra is not None:
            read.extras.append(extra)
    return read.future


def _not_asked(loop: asyncio.AbstractEventLoop, table_id: int, read: _Asked) -> None:
    with _lock:
        asked = _asked.get(loop)
        if asked is not None and asked.get(table_id) is read:
            del asked[table_id]


async def _read(loop: asyncio.AbstractEventLoop, table_id: int, read: _Asked) -> None:
    future = read.future

    def started() -> tuple[dict[str, Any], list[tuple[bool, Any]]]:
        # Whoever asks from now on reads for themselves: no asker's read is added after this.
        _not_asked(loop, table_id, read)
        snapshot = snapshot_from_db(table_row(table_id))
        done = []
        for work, _ in read.extras:
            try:
                done.append((True, work()))
            except Exception as error:  # that asker's alone
                done.append((False, error))
        return snapshot, done

    try:
        snapshot, done = await in_read_thread(started)
    except BaseException as error:  # every asker gets it, as a read of its own would raise
        _not_asked(loop, table_id, read)
        for settled in (future, *(mine for _, mine in read.extras)):
            if not settled.done():
                if isinstance(error, asyncio.CancelledError):
                    settled.cancel()
                else:
                    settled.set_exception(error)
        if not isinstance(error, Exception):
            raise
        return
    for (_, mine), (ok, outcome) in zip(read.extras, done, strict=True):
        if not mine.done():
            if ok:
                mine.set_result(outcome)
            else:
                mine.set_exception(outcome)
    if not future.done():
        future.set_result(snapshot)
