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

Everything else (capacity, groups, expiry, ``ChannelFull``) is Channels' own. The layer holds
one process's sockets only, like the one it replaces; several processes use Redis.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

__all__ = ["ProcessChannelLayer"]


class ProcessChannelLayer(InMemoryChannelLayer):  # type: ignore[misc]
    #: Seconds between two scans for expired messages and group memberships.
    CLEAN_EVERY = 1.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._cleaned = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned >= self.CLEAN_EVERY:
            self._cleaned = now
            super()._clean_expired()

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        queue = self.channels.setdefault(channel, asyncio.Queue(maxsize=self.get_capacity(channel)))
        try:
            queue.put_nowait((time.time() + self.expiry, dict(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        # No task per member: each send only puts the message on a queue.
        for channel in list(self.groups.get(group, {})):
            # As Channels' layer: a full channel misses this message.
            with contextlib.suppress(ChannelFull):
                await self.send(channel, message)
