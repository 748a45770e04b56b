"""The freshness round's two statements (cardroom/realtime/freshness.py), by hand: the seats
with a socket in this process get their presence lease renewed, and the versions of the tables
the process's sockets watch are read.

Through the ORM, the renewal was one condition per seat joined by OR, built anew every round:
with a few hundred seats in a process, its Python held the interpreter for tens of
milliseconds while the process's sockets waited (docs/performance.md). Here each statement's
text is written once per database, the seats and tables travel as one or two values
(cardroom/storage/id_lists.py).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from functools import cache

from django.db import connection

from accounts.sql import bound
from cardroom.models import Seat, Table
from cardroom.storage.id_lists import among, listed, pairs_among, pairs_listed

__all__ = ["seat_leases_renew", "table_versions"]


@cache
def _renew_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    held = pairs_among(quote("table_id"), quote("user_id"), vendor)
    return (
        f"UPDATE {quote(Seat._meta.db_table)} SET {quote('lease_until')} = %s "
        f"WHERE {quote('left')} IS NULL AND {held}"
    )


@cache
def _versions_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    return (
        f"SELECT {quote('id')}, {quote('version')} FROM {quote(Table._meta.db_table)} "
        f"WHERE {among(quote('id'), vendor)}"
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


def table_versions(table_ids: Collection[int]) -> dict[int, int]:
    """The version of each of the tables that exists."""
    if not table_ids:
        return {}
    vendor = connection.vendor
    with bound.cursor() as cursor:
        cursor.execute(_versions_sql(vendor), [listed(table_ids, vendor)])
        return {int(table_id): int(version) for table_id, version in cursor.fetchall()}
