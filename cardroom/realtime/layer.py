"""The embedded default's channel layer: Channels' in-memory layer without two of its costs.

Profiled under the load script (30 tables, one process), Channels' ``InMemoryChannelLayer``
took about a tenth of the server's time on its own bookkeeping:

- it deep-copied every message once per recipient, and a table's version message carries the
  whole snapshot; here each recipient gets its own copy of the message's top level, and the
  snapshot inside is shared, as it is read-only by convention (cardroom/tables/snapshots.py:
  nothing changes a snapshot once built; every viewer builds its own frame from it);
- it scanned every channel and every group for expired messages on each receive and each
  group send, a cost growing with the sockets; here that scan runs at most once a second,
  which is all a 60-second expiry needs.

Each channel's queue holds at most ``capacity`` messages (``CHANNEL_LAYERS``' CONFIG; Channels'
100 when unset), as in Channels' layer, but a group message to a full queue takes the place of
the oldest one waiting, where Channels' dropped the new one: the newest state is the one worth
keeping (cardroom/realtime/overflow.py, which counts and logs each). A direct ``send`` to a full
channel still raises ``ChannelFull``, Channels' contract for a sender that can be told.
Everything else (groups, expiry) is Channels' own. The layer holds one process's sockets only,
like the one it replaces; several processes use Redis.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

from cardroom.realtime.overflow import DroppingQueue, overflowed

__all__ = ["ProcessChannelLayer"]


class ProcessChannelLayer(InMemoryChannelLayer):  # type: ignore[misc]
    #: Seconds between two scans for expired messages and group memberships.
    CLEAN_EVERY = 1.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._cleaned = 0.0
        # Channels' in-memory layer keeps ``channel_capacity`` as given, where ``get_capacity``
        # reads the compiled patterns the Redis layers make of it.
        capacities: Any = getattr(self, "channel_capacity", None)
        if isinstance(capacities, dict):
            self.channel_capacity = self.compile_capacities(capacities)

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned >= self.CLEAN_EVERY:
            self._cleaned = now
            super()._clean_expired()

    def _queue(self, channel: str) -> asyncio.Queue[Any]:
        queue: asyncio.Queue[Any] = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = DroppingQueue(self.get_capacity(channel), channel)
        return queue

    async def receive(self, channel: str) -> dict[str, Any]:
        self.require_valid_channel_name(channel)
        self._queue(channel)  # Channels' receive would make one that refuses rather than drops
        message: dict[str, Any] = await super().receive(channel)
        return message

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        queue = self._queue(channel)
        if queue.full():
            overflowed(channel)
            raise ChannelFull(channel)
        queue.put_nowait((time.time() + self.expiry, dict(message)))

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        expires = time.time() + self.expiry
        # No task per member: each send only puts the message on a queue, a full one
        # dropping its oldest message for it.
        for channel in list(self.groups.get(group, {})):
            self._queue(channel).put_nowait((expires, dict(message)))
