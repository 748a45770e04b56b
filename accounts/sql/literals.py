"""PostgreSQL literals for the values an action writes, as psycopg's ``mogrify`` writes them.

Every statement the runtime sends on PostgreSQL is an ``EXECUTE`` with its values written in
the text (accounts/sql/prepared.py). psycopg quotes each value through its adapters' lookup,
which at 100 tables was about 5 % of a server's busy time: more than writing the rows cost the
database. The values an action writes are few kinds (integers, text, times, JSON, NULL and
booleans), so they are quoted here directly, character for character as psycopg quotes them
(``tests/cardroom/storage/test_literals.py`` compares the two). Anything else, or text PostgreSQL
cannot hold, is left to psycopg: ``literal`` answers None and the caller asks ``mogrify``.

The quoting of text assumes ``standard_conforming_strings`` (PostgreSQL's default since 9.1):
``Prepared`` checks it once per connection and quotes through psycopg where it is off.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from psycopg.types.json import Jsonb

__all__ = ["literal", "literals"]


def _text(value: str) -> str | None:
    if "\x00" in value:
        return None  # PostgreSQL text cannot hold NUL: psycopg raises its own error
    if "\\" in value:
        # psycopg writes an escape string for a backslash, with a space before it so that
        # it never joins the text before it.
        return " E'" + value.replace("\\", "\\\\").replace("'", "''") + "'"
    return "'" + value.replace("'", "''") + "'"


def literal(value: Any) -> str | None:
    """``value`` as psycopg's ``mogrify`` writes it, or None where psycopg should."""
    if value is None:
        return "NULL"
    kind = type(value)
    if kind is bool:
        return "true" if value else "false"
    if isinstance(value, int):  # bool, an int too, is answered above (it has no subclass)
        number = int.__repr__(value)  # an int subclass (psycopg's Int8, a choice) as a number
        return " " + number if value < 0 else number  # a space keeps "-" from making "--"
    if isinstance(value, str):
        # A subclass (a text choice, a safe string) as the text it holds, whatever it overrides.
        return _text(str.__str__(value))
    if kind is datetime and value.tzinfo is not None:
        moment: datetime = value
        return "'" + moment.isoformat(" ") + "'::timestamptz"
    if kind is Jsonb and value.dumps is not None:
        dumped = value.dumps(value.obj)
        text = _text(dumped) if isinstance(dumped, str) else None  # bytes: psycopg's to write
        return None if text is None else text + "::jsonb"
    return None


def literals(values: Iterable[Any]) -> list[str] | None:
    """Each value's literal, or None if psycopg must quote any of them."""
    written = []
    for value in values:
        text = literal(value)
        if text is None:
            return None
        written.append(text)
    return written
