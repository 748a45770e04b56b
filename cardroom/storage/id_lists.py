"""A list of ids as one parameter of a hand-written statement, so that the statement's text is
the same whatever the list's length: PostgreSQL prepares it once per connection
(accounts/sql/bound.py), where ``IN (%s, %s, ...)`` made a new statement for every length."""

from __future__ import annotations

import json
from collections.abc import Collection

__all__ = ["among", "listed", "pairs_among", "pairs_listed"]


def among(column: str, vendor: str) -> str:
    """SQL true where ``column`` (quoted) is one of the ids given by ``listed``."""
    if vendor == "postgresql":
        return f"{column} = ANY(%s::bigint[])"
    # SQLite's JSON functions, which Django's JSONField needs there anyway: the list is one
    # text parameter.
    return f"{column} IN (SELECT value FROM json_each(%s))"


def listed(ids: Collection[int], vendor: str) -> object:
    """The parameter ``among`` compares with."""
    ordered = sorted(ids)
    return ordered if vendor == "postgresql" else json.dumps(ordered)


def pairs_among(first: str, second: str, vendor: str) -> str:
    """SQL true where the columns ``first`` and ``second`` (quoted) hold one of the pairs
    given by ``pairs_listed``."""
    if vendor == "postgresql":
        return f"({first}, {second}) IN (SELECT * FROM unnest(%s::bigint[], %s::bigint[]))"
    return (
        f"({first}, {second}) IN (SELECT json_extract(value, '$[0]'), "
        "json_extract(value, '$[1]') FROM json_each(%s))"
    )


def pairs_listed(pairs: Collection[tuple[int, int]], vendor: str) -> list[object]:
    """The parameters ``pairs_among`` compares with."""
    ordered = sorted(pairs)
    if vendor == "postgresql":
        return [[first for first, _ in ordered], [second for _, second in ordered]]
    return [json.dumps(ordered)]
