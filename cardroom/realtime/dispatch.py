"""Channels' dispatch without its per-message thread hop, for consumers that never touch the
database outside ``database_sync_to_async``.

Channels' ``AsyncConsumer.dispatch`` first runs ``close_old_connections`` in asgiref's one
thread-sensitive thread for every frame and every group message. Every database call of the
table sockets runs in a thread that looks after its own connection before and after
(cardroom/realtime/threads.py), so the hop has nothing to do and only costs; on SQLite that
thread is also the one writer, so each frame of a socket would wait in line behind the writes
in hand before its action waited in line again (docs/performance.md, "Why the live path is
built as it is"). The load script's lean yardstick (cardroom/realtime/bench.py) dispatches the
same way, so that the floor it measures is the fan-out the table sockets pay.
"""

from __future__ import annotations

from typing import Any

from channels.consumer import get_handler_name

__all__ = ["DispatchWithoutHop"]


class DispatchWithoutHop:
    """Put before Channels' consumer class among the bases: its handler, without the hop."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"no handler for message type {message['type']}")
        await handler(message)
