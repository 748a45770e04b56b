"""New sockets take their turn: a few handshakes at a time, after the actions in hand.

When a room opens, every player's socket opens and sits down within a second or two. A process
has one interpreter lock, so the handshakes (the login's reads, the table's first snapshot, the
first frame) and the sits share one core, first come, first served; and on SQLite each
handshake also passed through the one thread that applies the actions. A sit then waited
behind the handshakes of every socket that opened after its own: in the 30-table benchmark
(tests/load/load.py) sits took 400-560 ms at the median and 650-880 ms at the 99th percentile.

So a handshake first waits for one of ``HANDSHAKES_AT_ONCE`` places (held until the socket is
accepted or refused), then until no action is waiting for its table or being applied in this
process (``cardroom.realtime.queue.actions_quiet``): the players already at a table are answered
first, and the sits of sockets that opened together arrive a few at a time rather than forty
at once (the measurements behind both waits: docs/performance.md, "Why the live path is built
as it is").

Both waits together are bounded by ``HANDSHAKE_WAIT_SECONDS``, far inside daphne's handshake
timeout (``--websocket_connect_timeout``: 5 s by default, 20 s as the project starts daphne,
docs/deploy.md): a stream of actions that never pauses delays a handshake, never refuses it.
"""

from __future__ import annotations

import asyncio
import contextlib
import weakref
from typing import Any

from cardroom.realtime.queue import actions_quiet

__all__ = ["HANDSHAKES_AT_ONCE", "HANDSHAKE_WAIT_SECONDS", "HandshakeAdmission"]

#: The longest a new socket waits for its turn, in all.
HANDSHAKE_WAIT_SECONDS = 0.5
#: Handshakes one process works on at once: enough that a room's opening is not drawn out into
#: its first hands (docs/performance.md).
HANDSHAKES_AT_ONCE = 8

_places: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Semaphore] = (
    weakref.WeakKeyDictionary()
)


class HandshakeAdmission:
    """ASGI middleware in front of the sockets' login, on the websocket route only
    (cardroom/asgi.py): pages never wait here."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        loop = asyncio.get_running_loop()
        places = _places.get(loop)
        if places is None:  # each loop its own: a test runs servers on loops of their own
            places = _places[loop] = asyncio.Semaphore(HANDSHAKES_AT_ONCE)
        until = loop.time() + HANDSHAKE_WAIT_SECONDS
        held = False
        with contextlib.suppress(TimeoutError):
            # A timeout scope, not ``wait_for``: no second task, so a place granted just as
            # the wait ends is never lost (the semaphore gives back what a cancelled wait got).
            async with asyncio.timeout(HANDSHAKE_WAIT_SECONDS):
                await places.acquire()
            held = True

        def give_back() -> None:
            nonlocal held
            if held:
                held = False
                places.release()

        async def sending(message: dict[str, Any]) -> None:
            if message["type"] in ("websocket.accept", "websocket.close"):
                give_back()  # the handshake's work is done
            await send(message)

        try:
            await actions_quiet(max(0.0, until - loop.time()))
            return await self.app(scope, receive, sending)
        finally:
            give_back()  # a socket cancelled or gone before it was answered
