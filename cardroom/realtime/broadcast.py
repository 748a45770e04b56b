"""Telling a table's watchers about a new version, after commit, without waiting.

The runtime runs in worker threads (a socket's action) or in the clock's thread. A worker thread
must not block on the send: waiting on the server's event loop from a worker thread is what
kept daphne from stopping (the loop had stopped, the worker waited for it forever, and the
interpreter waited for the worker). So the send is handed to the server's loop and the worker
goes on. A process with no server loop (``runclock``, a management command, a sync test) sends
from its own thread, as before.

The runtime, below this layer, hands each committed version to the hook of
cardroom/tables/announce.py; :func:`send_version` is that hook, plugged in every process by
``CardroomConfig.ready`` (cardroom/apps.py), so the servers and ``runclock`` send alike.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from cardroom.tables.announce import Announcement, announce_on_commit

__all__ = [
    "ServerLoop",
    "broadcast_on_commit",
    "send_version",
    "server_loop",
    "version_message",
]

log = logging.getLogger(__name__)

#: The event loop of this process's server, once it has served anything.
_loop: asyncio.AbstractEventLoop | None = None


class ServerLoop:
    """ASGI middleware that remembers the server's event loop for sends from other threads."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> Any:
        global _loop
        # Every call: a test runs each of its servers on a loop of its own.
        _loop = asyncio.get_running_loop()
        return await self.app(scope, receive, send)


def server_loop() -> asyncio.AbstractEventLoop | None:
    """This process's server loop, while it runs (None under ``runclock`` or a command)."""
    loop = _loop
    return loop if loop is not None and loop.is_running() else None


def version_message(table_id: int, version: int, snapshot: dict[str, Any] | None) -> dict[str, Any]:
    """The group message of a new version; with its snapshot, every watcher builds its frame
    without reading the database (cardroom.tables.snapshots). It names its group, which each
    process's hub hands it on by (cardroom/realtime/fanout.py)."""
    message: dict[str, Any] = {
        "type": "table.version",
        "group": f"table-{table_id}",
        "table": table_id,
        "version": version,
    }
    if snapshot is not None:
        message["snapshot"] = snapshot
    return message


def broadcast_on_commit(table: Any, snapshot: dict[str, Any] | None = None) -> None:
    """Tell the table's group its new version once the transaction commits (never before:
    nobody may see a state that was rolled back); the runtime's own way, through the hook."""
    announce_on_commit(table, snapshot)


def send_version(announcement: Announcement) -> None:
    """The hook of cardroom/tables/announce.py: send a committed version to its group."""
    message = version_message(announcement.table_id, announcement.version, announcement.snapshot)
    send_to_group(announcement.group, message)


def send_to_group(group: str, message: dict[str, Any]) -> None:
    """Send without waiting where the server's loop runs; a lost push is repaired by the
    clients' version check (a gap asks for ``sync``)."""
    layer = get_channel_layer()
    if layer is None:  # pragma: no cover (always configured)
        return
    loop = _loop
    if loop is not None and not loop.is_closed():
        try:
            asyncio.run_coroutine_threadsafe(_send(layer, group, message), loop)
        except RuntimeError:  # the loop stopped: the process is going down
            log.info("%s: not sent, the server is stopping", group)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:
        log.exception("could not tell %s about version %s", group, message["version"])


#: Group sends under way at once on one loop. Each is handed to the loop without waiting, so
#: at a busy moment hundreds were under way together, more than the Redis client's pool holds
#: (redis-py 8: 100 connections); the rest failed and their watchers had to sync. Beyond
#: this many a send waits its turn (first come, first sent).
SENDING_AT_ONCE = 48
_gates: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


async def _send(layer: Any, group: str, message: dict[str, Any]) -> None:
    loop = asyncio.get_running_loop()
    gate = _gates.get(loop)
    if gate is None:
        gate = _gates[loop] = asyncio.Semaphore(SENDING_AT_ONCE)
    try:
        async with gate:
            await layer.group_send(group, message)
    except Exception:
        log.exception("could not tell %s about version %s", group, message["version"])
