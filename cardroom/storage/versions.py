"""The versions of many tables in one hand-written statement: each process's freshness round
(cardroom/realtime/freshness.py) reads those of every table its sockets watch. Its text is
written once per database; the tables travel as one value (cardroom/storage/id_lists.py).
"""

from __future__ import annotations

from collections.abc import Collection
from functools import cache

from django.db import connection

from accounts.sql import bound
from cardroom.models import Table
from cardroom.storage.id_lists import among, listed

__all__ = ["table_versions"]


@cache
def _versions_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    return (
        f"SELECT {quote('id')}, {quote('version')} FROM {quote(Table._meta.db_table)} "
        f"WHERE {among(quote('id'), vendor)}"
    )


def table_versions(table_ids: Collection[int]) -> dict[int, int]:
    """The version of each of the tables that exists."""
    if not table_ids:
        return {}
    vendor = connection.vendor
    with bound.cursor() as cursor:
        cursor.execute(_versions_sql(vendor), [listed(table_ids, vendor)])
        return {int(table_id): int(version) for table_id, version in cursor.fetchall()}
