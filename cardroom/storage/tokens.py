"""Which of many API tokens may still be used, in one hand-written statement.

Each server process asks this of all its open sockets' tokens twice a second
(cardroom/realtime/logins.py); through the ORM, the query was built anew each time, one
parameter per token. Here its text is written once per database and the tokens travel as one
value (cardroom/storage/id_lists.py).
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from functools import cache

from django.db import connection

from accounts.models import User
from accounts.sql import bound
from cardroom.models import ApiToken
from cardroom.storage.id_lists import among, listed

__all__ = ["tokens_usable"]


@cache
def _usable_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    token, user = quote(ApiToken._meta.db_table), quote(User._meta.db_table)
    expires, token_id = f"{token}.{quote('expires')}", f"{token}.{quote('id')}"
    return (
        f"SELECT {token_id}, {token}.{quote('user_id')} FROM {token} "
        f"INNER JOIN {user} ON {user}.{quote('id')} = {token}.{quote('user_id')} "
        f"WHERE {among(token_id, vendor)} AND {token}.{quote('revoked')} IS NULL "
        f"AND ({expires} IS NULL OR {expires} > %s) AND {user}.{quote('is_active')}"
    )


def tokens_usable(token_ids: Collection[int], now: datetime) -> set[tuple[int, int]]:
    """Of ``token_ids``, those usable at ``now`` (not revoked, not run out, their user
    active), each as (token id, user id)."""
    if not token_ids:
        return set()
    vendor = connection.vendor
    params = [listed(token_ids, vendor), connection.ops.adapt_datetimefield_value(now)]
    with bound.cursor() as cursor:
        cursor.execute(_usable_sql(vendor), params)
        return {(int(token_id), int(user_id)) for token_id, user_id in cursor.fetchall()}
