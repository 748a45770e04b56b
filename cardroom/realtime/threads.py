"""Which thread a socket's database work runs in.

Channels runs database calls in one thread of its own unless told otherwise, so every socket of
a process would queue there: handshakes behind actions, one table's actions behind another's.
SQLite has a single writer anyway, and a writer from another thread waits on its file lock in
sleeps of up to 100 ms, so its writes (actions, presence, leases) keep to that one thread.
PostgreSQL serialises what must be serialised by row locks, so its writes run in the pool.
Reads run in the pool on both.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from django.db import connection

__all__ = ["ACTION_THREADS", "SERIAL_WRITES", "action_pool"]

SERIAL_WRITES = connection.vendor == "sqlite"
#: Threads applying players' actions on PostgreSQL, apart from the pool the reads share.
ACTION_THREADS = 4

_action_pool: ThreadPoolExecutor | None = None
_made = threading.Lock()


def action_pool() -> ThreadPoolExecutor | None:
    """The threads players' actions run in on PostgreSQL (None on SQLite: its writes keep to
    Channels' one thread). Actions have threads of their own so that they never queue behind
    reads: when pushes ran late, every late socket's ``sync`` read the snapshot in the pool
    the actions waited for, which made the next pushes later still (seen at 40 tables on two
    processes, where the syncs grew to thousands)."""
    global _action_pool
    if SERIAL_WRITES:
        return None
    with _made:  # each server loop asks; tests run several
        if _action_pool is None:
            _action_pool = ThreadPoolExecutor(ACTION_THREADS, thread_name_prefix="cardroom-action")
        return _action_pool
