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

from django.db import connection, transaction

from accounts.sql import bound
from cardroom.models import Seat
from cardroom.storage.id_lists import pairs_among, pairs_listed

__all__ = ["FRESHNESS_SECONDS", "LEASE", "seat_connections_count", "seat_leases_renew"]

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


@cache
def _held_seat_sql(vendor: str, since: bool) -> str:
    """The player's seat held at the table (taken by a moment, with ``since``): its id."""
    quote = connection.ops.quote_name
    joined = f" AND {quote('joined')} <= %s" if since else ""
    return (
        f"SELECT {quote('id')} FROM {quote(Seat._meta.db_table)} WHERE {quote('table_id')} = %s"
        f" AND {quote('user_id')} = %s AND {quote('left')} IS NULL{joined}"
        f" ORDER BY {quote('id')} LIMIT 1"
    )


@cache
def _count_sql(vendor: str, since: bool) -> tuple[str, str]:
    """The seat's number and count, locked; then the count changed by a number of sockets."""
    quote = connection.ops.quote_name
    seat, count = quote(Seat._meta.db_table), quote("connections")
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    select = (
        f"SELECT {quote('number')}, {count} FROM {seat}"
        f" WHERE {quote('id')} = ({_held_seat_sql(vendor, since)}){lock}"
    )
    # Every SET reads the row as it was: ``after`` is the count the socket leaves.
    after = f"CASE WHEN {count} + %s > 0 THEN {count} + %s ELSE 0 END"
    update = (
        f"UPDATE {seat} SET {count} = {after}, {quote('last_seen')} = %s,"
        f" {quote('presence_step')} = CASE WHEN {count} + %s > 0 THEN 0"
        f" ELSE {quote('presence_step')} END,"
        f" {quote('lease_until')} = CASE WHEN {count} + %s > 0 THEN %s"
        f" ELSE {quote('lease_until')} END"
        f" WHERE {quote('id')} = ({_held_seat_sql(vendor, since)})"
    )
    return select, update


def seat_connections_count(
    *, table_id: int, user_id: int, change: int, now: datetime, taken_by: datetime | None = None
) -> tuple[int, int, int] | None:
    """Count ``change`` more (or fewer) sockets on the player's seat held at the table (one
    taken by ``taken_by``, if given), never below none; a socket that counts renews the lease
    and ends the presence sweep's steps. The seat's number and its count before and after; None
    where there is no such seat. Under the seat's lock, in one round trip and its commit."""
    vendor, since = connection.vendor, taken_by is not None
    select, update = _count_sql(vendor, since)
    stamp = connection.ops.adapt_datetimefield_value
    where = [table_id, user_id, *([stamp(taken_by)] if since else [])]
    lease = stamp(now + LEASE)
    values = [change, change, stamp(now), change, change, lease, *where]
    with transaction.atomic():
        found, _ = bound.together([(select, where), (update, values)])
    if not found:
        return None
    number, before = found[0]
    return int(number), int(before), max(0, int(before) + change)
