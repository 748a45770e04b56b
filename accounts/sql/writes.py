"""The rows every action writes, by hand-written SQL: its journal entries and history events
(inserted) and the table row (updated).

The ORM's ``bulk_create`` and ``save`` built their statements again on every action, which cost
more than the database's work. Here the statements are built once per shape, and each value
is prepared by its own field exactly as the ORM would prepare it (``pre_save`` stamps the
``auto_now`` times, ``get_db_prep_save`` adapts JSON and datetimes to the backend), so the rows
are the same; ``tests/cardroom/storage/test_writes.py`` compares them with the ORM's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import orjson
from django.db import connection, models
from django.db.models import Field, Model
from django.utils import timezone
from psycopg.types.json import Jsonb

from accounts.sql import bound

__all__ = ["Writes", "insert_returning", "json_text", "update_statement"]

#: psycopg keeps the parsed form of a statement of at most this many parameters (and 4 KB of
#: text), and parses a larger one again on every call. Rows are split to stay under.
PARAMETERS_AT_ONCE = 50


@cache
def _fields(model: type[Model]) -> tuple[Any, ...]:
    return tuple(field for field in model._meta.concrete_fields if not field.primary_key)


#: What orjson must refuse so that the standard library takes it (and writes or refuses it as
#: the ORM would): a date, a dataclass; a dict whose keys are not all text (the standard
#: library spells a float key its own way, and refuses a key of another type).
_ORJSON = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


def json_text(value: Any) -> bytes | str:
    """A JSON column's text, by orjson: an action's table state and events are the bulk of
    what it writes, and the standard library took several times as long to write them. What
    orjson refuses (an integer beyond 64 bits, a date, a key that is not text) goes to the
    standard library. The text may differ from the standard library's (spacing, escapes); the
    value PostgreSQL stores (``jsonb``) does not, for what the runtime writes: text, integers,
    finite floats, booleans, null, lists and dicts. Beyond that orjson writes what the
    standard library would not: a float that is not finite as null (the standard library
    writes ``NaN``, which PostgreSQL refuses), a UUID or an enum as its value."""
    try:
        return orjson.dumps(value, option=_ORJSON)
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(value)


#: Django's own fields whose ``get_db_prep_save`` gives back a value of this type, or None, as
#: the same value (on PostgreSQL an int wrapped in psycopg's type of the column's size, which
#: writes the same number): such a value is taken as it is, without the field's chain of
#: calls, several for each of the many values an action writes.
_AS_GIVEN: dict[type[Field[Any, Any]], type] = {
    **dict.fromkeys(
        (models.IntegerField, models.BigIntegerField, models.SmallIntegerField,
         models.PositiveIntegerField, models.PositiveSmallIntegerField,
         models.PositiveBigIntegerField, models.AutoField, models.BigAutoField),
        int,
    ),
    models.CharField: str,
    models.TextField: str,
    models.BooleanField: bool,
}  # fmt: skip


@cache
def _given_type(field: Field[Any, Any]) -> type | None:
    """The type of value ``field`` stores as given (see ``_AS_GIVEN``), if any: a foreign
    key's is its target's."""
    if type(field) is models.ForeignKey:
        return _given_type(field.target_field)
    return _AS_GIVEN.get(type(field))


def _prepared(field: Field[Any, Any], value: Any, db: Any) -> Any:
    """``value`` as the field's ``get_db_prep_save`` prepares it, a JSON value written by
    ``json_text`` where the ORM would use the standard library (a field without an encoder of
    its own, on PostgreSQL)."""
    return _prepared_as(field, _given_type(field), value, db)


def _prepared_as(field: Field[Any, Any], given: type | None, value: Any, db: Any) -> Any:
    """``_prepared``, with the field's ``_given_type`` known already."""
    if given is not None and (value is None or type(value) is given):
        return value
    prepared = field.get_db_prep_save(value, db)
    if type(prepared) is Jsonb and prepared.dumps is json.dumps:
        prepared.dumps = json_text
    return prepared


@cache
def _row_plan(
    model: type[Model],
) -> tuple[tuple[Any, ...], frozenset[str], tuple[bool, ...], tuple[type | None, ...]]:
    """What ``_row_values`` needs of ``model`` for every row: its fields, their ``attname``s,
    which are stamped with the time now, and the type each stores as given."""
    fields = _fields(model)
    stamped = tuple(
        bool(getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False))
        for field in fields
    )
    return fields, frozenset(f.attname for f in fields), stamped, tuple(map(_given_type, fields))


def _row_values(model: type[Model], rows: Sequence[Mapping[str, Any]], db: Any) -> list[Any]:
    """Each row's values (by the fields' ``attname``: ``table_id`` for a foreign key), field
    by field, as the ORM's insert would prepare those of an instance made with them: a field
    not given takes its default, an ``auto_now`` one the time now (the same for every row,
    so prepared once). No model instance is made: for the many rows of history an action
    writes, making them cost more than the values."""
    fields, names, stamped, given = _row_plan(model)
    now = timezone.now() if any(stamped) else None
    stamps = {
        field: _prepared_as(field, kind, now, db)
        for field, stamp, kind in zip(fields, stamped, given, strict=True)
        if stamp
    }
    params = []
    for row in rows:
        assert row.keys() <= names, sorted(row.keys() - names)
        for field, stamp, kind in zip(fields, stamped, given, strict=True):
            if stamp:
                params.append(stamps[field])
                continue
            attname = field.attname
            value = row[attname] if attname in row else field.get_default()
            params.append(_prepared_as(field, kind, value, db))
    return params


def _inserted_values(model: type[Model], instances: Sequence[Model], db: Any) -> list[Any]:
    """Each instance's values, field by field, as the ORM's insert prepares them."""
    fields, _, _, given = _row_plan(model)
    return [
        _prepared_as(field, kind, field.pre_save(instance, True), db)
        for instance in instances
        for field, kind in zip(fields, given, strict=True)
    ]


@cache
def _insert_sql(model: type[Model], rows: int, vendor: str) -> str:
    quote = connection.ops.quote_name
    fields = _fields(model)
    columns = ", ".join(quote(str(field.column)) for field in fields)
    row = f"({', '.join(['%s'] * len(fields))})"
    return f"INSERT INTO {quote(model._meta.db_table)} ({columns}) VALUES {', '.join([row] * rows)}"


def insert_returning(instance: Model) -> None:
    """``instance.save()`` of a new row in one statement that reads its primary key back
    (``RETURNING``, which SQLite has since 3.35 and PostgreSQL always had), without signals:
    nothing listens to them on the models written here."""
    model = type(instance)
    pk = model._meta.pk
    db = bound.here()
    assert pk is not None and db.features.can_return_columns_from_insert
    params = _inserted_values(model, [instance], db)
    sql = _insert_sql(model, 1, db.vendor)
    with bound.cursor() as cursor:
        cursor.execute(f"{sql} RETURNING {db.ops.quote_name(str(pk.column))}", params)
        (key,) = cursor.fetchone()
    instance.pk = key
    instance._state.adding = False
    instance._state.db = db.alias


@cache
def _update_sql(model: type[Model], names: tuple[str, ...], vendor: str) -> str:
    quote = connection.ops.quote_name
    meta = model._meta
    by_name = {field.name: field for field in meta.concrete_fields}
    assignments = ", ".join(f"{quote(str(by_name[name].column))} = %s" for name in names)
    key = str(meta.pk.column) if meta.pk is not None else "id"
    return f"UPDATE {quote(meta.db_table)} SET {assignments} WHERE {quote(key)} = %s"


@cache
def _conflict_sql(model: type[Model], unique: tuple[str, ...]) -> str:
    quote = connection.ops.quote_name
    by_name = {field.name: field for field in model._meta.concrete_fields}
    columns = ", ".join(quote(str(by_name[name].column)) for name in unique)
    return f"ON CONFLICT ({columns}) DO NOTHING"


@cache
def _update_where_sql(
    model: type[Model], names: tuple[str, ...], keys: tuple[str, ...], vendor: str
) -> str:
    quote = connection.ops.quote_name
    by_name = {field.name: field for field in model._meta.concrete_fields}
    assignments = ", ".join(f"{quote(str(by_name[name].column))} = %s" for name in names)
    where = " AND ".join(f"{quote(str(by_name[name].column))} = %s" for name in keys)
    return f"UPDATE {quote(model._meta.db_table)} SET {assignments} WHERE {where}"


def update_statement(instance: Model, names: Sequence[str]) -> tuple[str, list[Any]]:
    """The statement ``Writes.update`` adds (``... WHERE <pk> = %s``, the key last among the
    values), for a caller that adds conditions of its own."""
    db = bound.here()
    return _update_sql(type(instance), tuple(names), db.vendor), _updated_values(
        instance, names, db
    )


def _updated_values(instance: Model, names: Sequence[str], db: Any) -> list[Any]:
    by_name = {field.name: field for field in instance._meta.concrete_fields}
    params = [
        _prepared(by_name[name], by_name[name].pre_save(instance, False), db) for name in names
    ]
    return [*params, instance.pk]


class Writes:
    """Inserts and updates that read nothing back, sent together by ``flush``.

    An action's journal entries, its history events, the hand's and the table's rows were four
    round trips to PostgreSQL, each with its own send, wait and result; sent in one pipeline
    (accounts/sql/bound.py), they are one, each statement bound and prepared by psycopg. Each
    statement's values are prepared when it is added, by its own field as the ORM would
    prepare them, and sent at the flush: a JSON value must not change in between. The
    statements run in the order added; a refusal is Django's error, raised by the flush.
    Nothing may read these rows before the flush. Elsewhere (SQLite) they run one by one at
    the flush.
    """

    def __init__(self) -> None:
        #: (sql, values) of each statement, in order.
        self.statements: list[tuple[str, list[Any]]] = []
        #: The connection whose backend prepares the values (taken once: ``bound.here``).
        self.db = bound.here()

    def insert(self, model: type[Model], instances: Sequence[Model]) -> None:
        """Insert the instances (their primary keys are not read back), on PostgreSQL in
        statements psycopg keeps parsed."""
        if instances:
            self._insert(model, _inserted_values(model, instances, self.db), len(instances))

    def insert_values(self, model: type[Model], rows: Sequence[Mapping[str, Any]]) -> None:
        """Insert rows given as their fields' values by ``attname``, as ``insert`` would insert
        instances made with them (see ``_row_values``)."""
        if rows:
            self._insert(model, _row_values(model, rows, self.db), len(rows))

    def _insert(self, model: type[Model], params: list[Any], rows: int) -> None:
        width = len(_fields(model))
        vendor = self.db.vendor
        if vendor == "postgresql":
            rows = max(1, PARAMETERS_AT_ONCE // width)
        for start in range(0, len(params), rows * width):
            chunk = params[start : start + rows * width]
            count = len(chunk) // width  # the last chunk may hold fewer rows
            self.add(_insert_sql(model, count, vendor), chunk)

    def add(self, sql: str, params: Sequence[Any]) -> None:
        """A statement with its values (``insert`` and ``update`` add theirs here)."""
        self.statements.append((sql, list(params)))

    def update(self, instance: Model, names: Sequence[str]) -> None:
        """``instance.save(update_fields=names)``, without signals (nothing listens to them on
        these models)."""
        sql = _update_sql(type(instance), tuple(names), self.db.vendor)
        self.add(sql, _updated_values(instance, names, self.db))

    def insert_new(self, instance: Model, unique: Sequence[str]) -> None:
        """Insert ``instance`` unless a row with its values of the ``unique`` fields exists:
        ``get_or_create`` with nothing read back (``ON CONFLICT DO NOTHING``, which SQLite and
        PostgreSQL both have)."""
        model = type(instance)
        sql = _insert_sql(model, 1, self.db.vendor)
        conflict = _conflict_sql(model, tuple(unique))
        self.add(f"{sql} {conflict}", _inserted_values(model, [instance], self.db))

    def update_where(
        self, model: type[Model], values: Mapping[str, Any], where: Mapping[str, Any]
    ) -> None:
        """``model.objects.filter(**where).update(**values)``, for plain fields."""
        names, keys = tuple(values), tuple(where)
        by_name = {field.name: field for field in model._meta.concrete_fields}
        db = self.db
        params = [_prepared(by_name[name], values[name], db) for name in names]
        params += [_prepared(by_name[name], where[name], db) for name in keys]
        self.add(_update_where_sql(model, names, keys, db.vendor), params)

    def flush(self) -> None:
        statements, self.statements = self.statements, []
        bound.together(statements, rows=False)
