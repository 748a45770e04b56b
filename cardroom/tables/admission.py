"""New sockets wait their turn while the process applies players' actions.

When a room opens, every player's socket opens and sits down within a second or two. A process
has one interpreter lock, so the handshakes (the login's reads, the table's first snapshot, the
first frame) and the sits share one core, first come, first served; and on SQLite each
handshake also passed through the one thread that applies the actions. A sit then waited
behind the handshakes of every socket that opened after its own: in the 30-table benchmark
(tests/load/load.py) sits took 400-560 ms at the median and 520-880 ms at the 99th percentile,
and the process had that core busy for the whole opening.

So a handshake first waits, at most ``HANDSHAKE_WAIT_SECONDS``, until no action is waiting for
its table or being applied in this process (``cardroom.tables.queue.actions_quiet``): the
players already at a table are answered first, and a socket opening into a busy moment is
accepted a little later. The wait is bounded, far inside daphne's handshake timeout
(``--websocket_connect_timeout``, 5 s), so a stream of actions that never pauses delays a
handshake, never refuses it.
"""

from __future__ import annotations

from typing import Any

from cardroom.tables.queue import actions_quiet

__all__ = ["HANDSHAKE_WAIT_SECONDS", "HandshakeAdmission"]

#: The longest a new socket waits for the actions in hand.
HANDSHAKE_WAIT_SECONDS = 0.5


class HandshakeAdmission:
    """ASGI middleware in front of the sockets' login: waits for the actions in hand."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket":
            await actions_quiet(HANDSHAKE_WAIT_SECONDS)
        return await self.app(scope, receive, send)
