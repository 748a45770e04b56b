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
"""

from __future__ import annotations

import asyncio
import threading
import weakref
from typing import Any

from cardroom.realtime.threads import in_read_thread
from cardroom.storage.rows import table_row
from cardroom.tables.snapshots import snapshot_from_db

__all__ = ["shared_snapshot"]

_lock = threading.Lock()
#: Per event loop, the read of each table asked for and not started yet.
_asked: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, asyncio.Future[Any]]] = (
    weakref.WeakKeyDictionary()
)
_tasks: set[asyncio.Task[None]] = set()


async def shared_snapshot(table_id: int) -> dict[str, Any]:
    """The table's snapshot as the database holds it, read in the pool, or the result of a
    read of the same table that another socket asked for and that has not started yet;
    raises what the read raised (Table.DoesNotExist, the database's errors)."""
    loop = asyncio.get_running_loop()
    with _lock:
        asked = _asked.setdefault(loop, {})
        future = asked.get(table_id)
        if future is None:
            future = loop.create_future()
            # Retrieved here, so a read whose askers all went away logs no "never retrieved".
            future.add_done_callback(lambda done: done.cancelled() or done.exception())
            asked[table_id] = future
            task = loop.create_task(_read(loop, table_id, future))
            _tasks.add(task)  # held, so the task is not collected while it runs
            task.add_done_callback(_tasks.discard)
    # Shielded: a socket that closes while waiting does not cancel the others' read.
    result: dict[str, Any] = await asyncio.shield(future)
    return result


def _not_asked(loop: asyncio.AbstractEventLoop, table_id: int, future: asyncio.Future[Any]) -> None:
    with _lock:
        asked = _asked.get(loop)
        if asked is not None and asked.get(table_id) is future:
            del asked[table_id]


async def _read(
    loop: asyncio.AbstractEventLoop, table_id: int, future: asyncio.Future[Any]
) -> None:
    def started() -> dict[str, Any]:
        _not_asked(loop, table_id, future)  # whoever asks from now on reads for themselves
        return snapshot_from_db(table_row(table_id))

    try:
        snapshot = await in_read_thread(started)
    except BaseException as error:  # every asker gets it, as a read of its own would raise
        _not_asked(loop, table_id, future)
        if not future.done():
            if isinstance(error, asyncio.CancelledError):
                future.cancel()
            else:
                future.set_exception(error)
        if not isinstance(error, Exception):
            raise
        return
    if not future.done():
        future.set_result(snapshot)
