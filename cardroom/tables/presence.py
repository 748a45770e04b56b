"""How long a seat's presence lease holds (docs/architecture.md, "Presence").

The runtime stamps a lease on a seat taken over a socket; each process's freshness round
(cardroom/realtime/freshness.py) renews the leases of the seats its sockets hold every
``FRESHNESS_SECONDS``; the clock's presence sweep (cardroom/clock/clock.py) treats a player
whose lease ran out as gone. They live here, below all three, so the runtime needs nothing of
the sockets to stamp one.
"""

from __future__ import annotations

from datetime import timedelta

__all__ = ["FRESHNESS_SECONDS", "LEASE"]

FRESHNESS_SECONDS = 10.0
#: How long a renewal holds a seat: three rounds, so one slow round does not drop anyone.
LEASE = timedelta(seconds=3 * FRESHNESS_SECONDS)
