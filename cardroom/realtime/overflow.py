"""Messages that did not fit a socket's full queue in the channel layer: counted and logged.

Each socket of a process has a queue of the messages waiting for it, in the process layer
(cardroom/realtime/layer.py) and in the Redis pub/sub layer (cardroom/realtime/pubsub_layer.py),
of at most the layer's ``capacity`` (``CHANNEL_LAYERS``). A socket that falls behind (a client
that does not read, a process too busy to serve it) fills its queue; then the oldest message
waiting goes to make room for the new one. The oldest, not the newest: each state message
carries the whole table at its version, so the newest is the one worth keeping, and the socket
that reads it after a gap reads the state whole from the database (consumers.py,
``table_version``), so what the lost versions alone carried (the recent hands, a bankroll) is
not lost with them. Dropping the newest instead would leave the socket on a state that is
already old, until a later push or the freshness round repaired it.

Every message that did not fit is counted in this process (``overflow_count``, for a metrics
endpoint) and logged, at most once every ``LOG_EVERY_SECONDS``, with how many did since the
last line: a socket far behind would otherwise write a line per message.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from channels_redis.core import BoundedQueue

from cardroom.observability.metrics import CHANNEL_OVERFLOWS

__all__ = ["LOG_EVERY_SECONDS", "DroppingQueue", "overflow_count", "overflowed"]

log = logging.getLogger(__name__)

#: The least time between two log lines about messages that did not fit.
LOG_EVERY_SECONDS = 10.0

#: The clock the log lines are spaced by (a monotonic one; the tests set their own).
clock: Callable[[], float] = time.monotonic

_lock = threading.Lock()  # a process's layers may run on more than one thread's loop
_count = 0
_unlogged = 0
_logged_at: float | None = None


def overflow_count() -> int:
    """How many messages did not fit a full queue in this process since it started."""
    return _count


def overflowed(channel: str) -> None:
    """Count a message that did not fit ``channel``'s queue, and log it if a line is due."""
    global _count, _unlogged, _logged_at
    CHANNEL_OVERFLOWS.inc()
    with _lock:
        _count += 1
        _unlogged += 1
        now = clock()
        if _logged_at is not None and now - _logged_at < LOG_EVERY_SECONDS:
            return
        unlogged, total, _unlogged, _logged_at = _unlogged, _count, 0, now
    log.warning(
        "%d channel layer message(s) did not fit a full queue since the last report, the "
        "latest for %s (%d in this process): a socket is behind, its oldest messages dropped",
        unlogged,
        channel,
        total,
    )


class DroppingQueue(BoundedQueue):  # type: ignore[misc]
    """channels_redis's bounded queue (it drops the oldest message to take a new one when
    full), counting each message it drops. ``maxsize``: the layer's capacity."""

    def __init__(self, maxsize: int, channel: str) -> None:
        super().__init__(maxsize)
        self.channel = channel

    def put_nowait(self, item: Any) -> None:
        if self.full():
            overflowed(self.channel)
        super().put_nowait(item)
