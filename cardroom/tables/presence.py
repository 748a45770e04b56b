"""How long a seat's presence lease holds (docs/architecture.md, "Presence").

The runtime stamps a lease on a seat taken over a socket; each process's freshness round
(cardroom/realtime/freshness.py) renews the leases of the seats its sockets hold every
``FRESHNESS_SECONDS``; the clock's presence sweep (cardroom/clock/clock.py) treats a player
whose lease ran out as gone. They live here, below all three, so the runtime needs nothing of
the sockets to stamp one.

The round's renewal is one hand-written statement (``seat_leases_renew``): through the ORM it
was one condition per seat joined by OR, built anew every round, and with a few hundred seats
in a process its Python held the interpreter for tens of milliseconds while the process's
sockets waited (docs/performance.md). Its text is written once per database; the seats travel
as one or two values (cardroom/storage/id_lists.py).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta
from functools import cache

from django.db import connection

from accounts.sql import bound
from cardroom.models import Seat
from cardroom.storage.id_lists import pairs_among, pairs_listed

__all__ = ["FRESHNESS_SECONDS", "LEASE", "seat_leases_renew"]

FRESHNESS_SECONDS = 10.0
#: How long a renewal holds a seat: three rounds, so one slow round does not drop anyone.
LEASE = timedelta(seconds=3 * FRESHNESS_SECONDS)


@cache
def _renew_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    held = pairs_among(quote("table_id"), quote("user_id"), vendor)
    return (
        f"UPDATE {quote(Seat._meta.db_table)} SET {quote('lease_until')} = %s "
        f"WHERE {quote('left')} IS NULL AND {held}"
    )


def seat_leases_renew(seated: Collection[tuple[int, int]], until: datetime) -> None:
    """Renew until ``until`` the lease of each seat held (not left) by one of the ``seated``
    (table id, user id) pairs."""
    if not seated:
        return
    vendor = connection.vendor
    params = [connection.ops.adapt_datetimefield_value(until), *pairs_listed(seated, vendor)]
    with bound.cursor() as cursor:
        cursor.execute(_renew_sql(vendor), params)
