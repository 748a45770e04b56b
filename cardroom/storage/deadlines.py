"""The clock's question between two sweeps: the next deadline it must wake for.

Asked after every sweep, several times a second in each server process, with the tables the
process's queue times itself left out. The ORM built that query anew each time, whose Python
cost many times the database's part (docs/performance.md); here the statement is written once
per database and ``owner`` filter, and the excluded tables travel as one value
(cardroom/storage/id_lists.py), so its text never changes.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from functools import cache

from django.db import connection

from accounts.sql import bound
from cardroom.models import Table, TableStatus
from cardroom.storage.id_lists import among, listed

__all__ = ["next_deadline"]


@cache
def _next_sql(vendor: str, owned: bool) -> str:
    quote = connection.ops.quote_name
    table, table_id = quote(Table._meta.db_table), quote("id")
    outside = f"NOT ({among(table_id, vendor)})"
    sql = (
        f"SELECT MIN({quote('deadline')}) FROM {table} WHERE {quote('status')} <> %s "
        f"AND {quote('deadline')} IS NOT NULL AND {outside}"
    )
    if owned:
        owner, until = quote("owner"), quote("owned_until")
        sql += f" AND ({owner} = %s OR {owner} = '' OR {until} IS NULL OR {until} < %s)"
    return sql


def next_deadline(
    now: datetime, *, excluding: Collection[int] = (), owner: str | None = None
) -> datetime | None:
    """The earliest deadline of the tables that are not closed, leaving out ``excluding``;
    with ``owner``, only of the tables ``owner`` holds, nobody holds, or whose lease ran out by
    ``now`` (another live owner's clock meets the rest). None: no such deadline."""
    params = [TableStatus.CLOSED.value, listed(excluding, connection.vendor)]
    if owner is not None:
        params += [owner, connection.ops.adapt_datetimefield_value(now)]
    with bound.cursor() as cursor:
        cursor.execute(_next_sql(connection.vendor, owner is not None), params)
        (value,) = cursor.fetchone()
    if value is None:
        return None
    # The field's own converters: SQLite gives the time as text.
    field = Table._meta.get_field("deadline")
    column = field.get_col(Table._meta.db_table)
    converters = [*connection.ops.get_db_converters(column), *field.get_db_converters(connection)]
    for convert in converters:
        value = convert(value, column, connection)
    assert isinstance(value, datetime)
    return value
