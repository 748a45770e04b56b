"""A bare Channels group broadcast: the yardstick the load script measures the full stack by.

Served at ``/ws/bench/broadcast/?group=bench-<name>`` (``BroadcastConsumer``, Channels' own
dispatch) and ``/ws/bench/lean/?group=...`` (``LeanBroadcastConsumer``, dispatched as the table
sockets are, without Channels' thread hop per message) only when ``CARDROOM_BENCH=1`` (see
cardroom/routing.py; tests/load/load.py sets it for the servers it starts). A socket joins its
group; a client's ``{"burst": 2000, "group": "bench-1"}`` makes the server send that many group
messages, and every member's socket gets each one's text (the load script asks for a few at a
time, so that no channel overflows: tests/load/bare.py). No database, no auth, no rendering:
what is left is the channel layer's fan-out and the sockets, which is what the table's state
frames cost beyond the game itself.
"""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any
from urllib.parse import parse_qs

from channels.generic.websocket import AsyncWebsocketConsumer

from cardroom.realtime.dispatch import DispatchWithoutHop

__all__ = ["BroadcastConsumer", "LeanBroadcastConsumer"]

#: Only groups of this route's own: a bench message sent to a table's group would reach
#: consumers with no handler for it.
GROUP = re.compile(r"bench-[A-Za-z0-9_.-]{1,80}")
#: The most messages one burst asks for (bounded like everything the load script does).
MAX_BURST = 100_000


class BroadcastConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    group = ""

    async def connect(self) -> None:
        query = parse_qs(self.scope.get("query_string", b"").decode("latin1"))
        group = (query.get("group") or [""])[0]
        if not GROUP.fullmatch(group):
            await self.close(code=4400)
            return
        self.group = group
        self.bursts: set[asyncio.Task[None]] = set()
        await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.group:
            for task in self.bursts:
                task.cancel()
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        try:
            message = json.loads(text_data or "")
            count = min(int(message["burst"]), MAX_BURST)
            group = str(message.get("group", self.group))
        except (ValueError, TypeError, KeyError):
            await self.send(text_data=json.dumps({"error": "send {burst: N, group: bench-..}"}))
            return
        if not GROUP.fullmatch(group):
            await self.send(text_data=json.dumps({"error": "groups are named bench-..."}))
            return
        # In a task of its own: this consumer is a member of the group too, and while its
        # handler ran it would not read its own channel, which would fill and drop messages.
        task = asyncio.create_task(self.burst(group, count))
        self.bursts.add(task)
        task.add_done_callback(self.bursts.discard)

    async def burst(self, group: str, count: int) -> None:
        """``count`` group messages, as fast as the layer takes them. A member's channel holds
        100 and a full one drops what comes: the load script asks for bursts small enough."""
        for number in range(count):
            await self.channel_layer.group_send(group, {"type": "bench.text", "text": str(number)})

    async def bench_text(self, event: dict[str, Any]) -> None:
        await self.send(text_data=event["text"])


class LeanBroadcastConsumer(DispatchWithoutHop, BroadcastConsumer):
    """The same fan-out without Channels' ``close_old_connections`` hop before each message,
    which the table sockets skip too (cardroom/realtime/dispatch.py): the floor they pay."""
