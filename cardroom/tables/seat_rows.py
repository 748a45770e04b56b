"""The seats held at a table, with their players and limits, read by hand-written SQL.

Every action reads them. Through the ORM (``select_related`` over three models) the query cost
about a millisecond of Python for five seats, building the SQL each time; the database's part
was a few percent of that. This reads the same columns with SQL built once per process and
makes the same model instances, with the same related objects cached, so callers cannot tell
the difference (``tests/cardroom/test_seat_rows.py`` compares the two).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Model

from accounts.models import User
from cardroom.models import Seat
from cardroom.responsible.models import PlayerLimits

__all__ = ["held_seats"]

_MODELS: tuple[type[Model], ...] = (Seat, User, PlayerLimits)


@cache
def _sql(vendor: str) -> str:
    """The query for ``vendor``'s quoting; built once (the fields never change at run time)."""
    quote = connection.ops.quote_name
    seat, user, limits = (quote(model._meta.db_table) for model in _MODELS)
    selected = ", ".join(
        f"{table}.{quote(str(field.column))}"
        for model, table in zip(_MODELS, (seat, user, limits), strict=True)
        for field in model._meta.concrete_fields
    )
    return (
        f"SELECT {selected} FROM {seat} "
        f"INNER JOIN {user} ON {seat}.{quote('user_id')} = {user}.{quote('id')} "
        f"LEFT OUTER JOIN {limits} ON {limits}.{quote('user_id')} = {user}.{quote('id')} "
        f"WHERE {seat}.{quote('table_id')} = %s AND {seat}.{quote('left')} IS NULL "
        f"ORDER BY {seat}.{quote('number')}"
    )


def held_seats(table_id: int) -> dict[int, Seat]:
    """The seats held at the table by number, each with ``user`` and ``user.play_limits``
    (None for a player without limits) cached, as ``select_related`` would leave them."""
    user_field = Seat._meta.get_field("user")
    limits_field = PlayerLimits._meta.get_field("user").remote_field
    readers = _readers()
    with connection.cursor() as cursor:
        cursor.execute(_sql(connection.vendor), [table_id])
        rows = cursor.fetchall()
    seats: dict[int, Seat] = {}
    for row in rows:
        seat, user, limits = (read(row) for read in readers)
        assert isinstance(seat, Seat) and isinstance(user, User)
        user_field.set_cached_value(seat, user)
        limits_field.set_cached_value(user, limits)
        seats[seat.number] = seat
    return seats


Reader = Callable[[tuple[Any, ...]], Model | None]
#: Each connection's readers: the converters are its backend's (bound to its operations).
_made: weakref.WeakKeyDictionary[Any, list[Reader]] = weakref.WeakKeyDictionary()


def _readers() -> list[Reader]:
    """For each model, what makes its instance from its slice of a row: the database's values
    go through the same converters the ORM applies (SQLite's text datetimes, JSON, ...)."""
    made = _made.get(connection.ops)
    if made is None:
        made, start = [], 0
        for model in _MODELS:
            made.append(_reader(model, start))
            start += len(model._meta.concrete_fields)
        _made[connection.ops] = made
    return made


def _reader(model: type[Model], start: int) -> Reader:
    fields = list(model._meta.concrete_fields)
    names = [field.attname for field in fields]
    end = start + len(fields)
    converting = []
    for index, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        chain = [*connection.ops.get_db_converters(column), *field.get_db_converters(connection)]
        if chain:
            converting.append((index, chain, column))
    wrapper = connection

    def read(row: tuple[Any, ...]) -> Model | None:
        if row[start] is None:  # an outer join found no row (a player without limits)
            return None
        values = list(row[start:end])
        for index, chain, column in converting:
            for convert in chain:
                values[index] = convert(values[index], column, wrapper)
        return model.from_db(wrapper.alias, names, values)

    return read
