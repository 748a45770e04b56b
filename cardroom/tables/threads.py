"""Which thread a socket's database work runs in.

Channels runs database calls in one thread of its own unless told otherwise, so every socket of
a process would queue there: handshakes behind actions, one table's actions behind another's.
SQLite has a single writer anyway, and a writer from another thread waits on its file lock in
sleeps of up to 100 ms, so its writes (actions, presence, leases) keep to that one thread.
PostgreSQL serialises what must be serialised by row locks, so its writes run in the pool.
Reads run in the pool on both.
"""

from __future__ import annotations

from django.db import connection

__all__ = ["SERIAL_WRITES"]

SERIAL_WRITES = connection.vendor == "sqlite"
