"""A frame goes to its socket at once, not at the reactor's next turn.

Hand-made: twisted (daphne's transport) buffers every write and asks the event loop to watch
the socket for room, sending on the next turn and then unwatching it, so each frame cost two
``epoll_ctl`` calls and a turn of the loop more than its send. Twisted has no setting for
writing at once; what it saves is measured under the load script in docs/performance.md
("Frames written at once").

The contract: bytes leave in the order they were written. A write goes straight to the socket
only when nothing is waiting in twisted's buffers; what the kernel does not take at once (a
slow reader, a full buffer, an error) is handed to twisted's own write, which buffers it and
deals with the error as it always has. A connection that started TLS itself, or that is closing,
aborted or closed, keeps twisted's way entirely. (Behind daphne's ``ssl:`` endpoint the TLS is a
protocol wrapped around the connection: what it writes is ciphertext, sent at once like any
other bytes.)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["install", "write_at_once"]

#: Twisted's own write (``ConnectionMixin.write``), kept by :func:`install`.
_buffered_write: Callable[[Any, bytes], None] | None = None


def write_at_once(connection: Any, data: bytes) -> None:
    """``tcp.Connection.write``, sending at once what the socket takes when nothing waits."""
    if (
        data
        and not connection.TLS
        and connection.connected
        and not connection.disconnecting
        and not connection.disconnected
        and not connection._aborting  # twisted drops what is written after an abort
        and not connection._writeDisconnected
        and not getattr(connection, "_sendmsgQueue", None)  # a UNIX socket's queued descriptors
        and not connection._tempDataBuffer
        and connection.offset == len(connection.dataBuffer)
    ):
        try:
            sent = connection.socket.send(data)
        except OSError:
            sent = 0  # twisted's write meets the error again, and closes as it always has
        if sent == len(data):
            return
        data = data[sent:]
    assert _buffered_write is not None, "install() keeps twisted's write first"
    _buffered_write(connection, data)


def install() -> None:
    """Make every TCP connection of this process's twisted write at once (idempotent)."""
    global _buffered_write
    from twisted.internet import tcp

    if tcp.Connection.write is not write_at_once:
        _buffered_write = tcp.Connection.write
        tcp.Connection.write = write_at_once  # type: ignore[method-assign]
