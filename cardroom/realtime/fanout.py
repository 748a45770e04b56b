"""Each process's JSON sockets of a table, handed every message of the table's group at once.

Channels gives every socket its own channel in a table's group: a version reached each socket
through its own channel, queued, unpacked, and dispatched by its own task. A process joins each
table's group once instead, with its hub's channel, and the hub hands each message to the JSON
sockets of that table here in turn: each builds its viewer's frame from the snapshot and writes
it (cardroom/realtime/consumers.py, ``table_version``). Measured under the load script, the
per-socket channel, queue and task cost more than the frame itself (docs/performance.md).

Contracts: a socket gets every message of its table's group that reaches this process, in the
order the hub receives them; a handler runs without awaiting anything that waits (a socket that
must read the database, after a gap, does it in a task of its own); a socket registered here is
never also a member of the table's group, so it gets each message once. The page's sockets,
whose frames are drawn in a thread, keep their own channels in the group.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections import defaultdict
from typing import Any, Protocol

from channels.consumer import get_handler_name
from channels.layers import get_channel_layer

__all__ = ["Fed", "feed", "starve"]

log = logging.getLogger(__name__)

#: How often the hub joins its groups again.
REJOIN_SECONDS = 3600.0


class Fed(Protocol):
    """A socket the hub feeds: it has a handler for each type of its table's group."""

    group: str


class _Hub:
    """One loop's hub: its channel and the sockets of each table group it joined."""

    def __init__(self, layer: Any, channel: str) -> None:
        self.layer, self.channel = layer, channel
        self.fed: dict[str, list[Fed]] = defaultdict(list)
        self.tasks = (asyncio.ensure_future(self.receive()), asyncio.ensure_future(self.rejoin()))

    async def rejoin(self) -> None:
        """Join the groups again now and then: a layer may let a membership lapse (Channels'
        in-memory layer after ``group_expiry``, a day), where a socket's own would have
        lapsed with its connection."""
        while True:
            await asyncio.sleep(REJOIN_SECONDS)
            for group in list(self.fed):
                await self.layer.group_add(group, self.channel)

    async def receive(self) -> None:
        while True:
            message = await self.layer.receive(self.channel)
            group = message.get("group")
            for socket in tuple(self.fed.get(group, ())) if isinstance(group, str) else ():
                handler = getattr(socket, get_handler_name(message), None)
                if handler is None:
                    continue
                try:
                    await handler(message)
                except Exception:  # one socket's failure must not stop the others' frames
                    log.exception("%s: a socket failed on a %s", group, message.get("type"))


_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Hub] = weakref.WeakKeyDictionary()
_starting: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)


async def _hub() -> _Hub:
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is not None:
        return hub
    async with _starting.setdefault(loop, asyncio.Lock()):
        hub = _hubs.get(loop)
        if hub is None:
            layer = get_channel_layer()
            hub = _hubs[loop] = _Hub(layer, await layer.new_channel("hub."))
    return hub


async def feed(socket: Fed) -> None:
    """Hand ``socket`` every message of its group from now on (joining the group, for the
    process, with its first socket)."""
    hub = await _hub()
    sockets = hub.fed[socket.group]
    sockets.append(socket)
    if len(sockets) == 1:
        await hub.layer.group_add(socket.group, hub.channel)


async def starve(socket: Fed) -> None:
    """Hand ``socket`` nothing more (leaving the group with the process's last socket)."""
    hub = await _hub()
    sockets = hub.fed.get(socket.group)
    if sockets is None or socket not in sockets:
        return
    sockets.remove(socket)
    if not sockets:
        del hub.fed[socket.group]
        await hub.layer.group_discard(socket.group, hub.channel)
