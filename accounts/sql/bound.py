"""The runtime's hand-written statements on PostgreSQL: bound and prepared by psycopg itself,
and those that go together sent in one pipeline.

Django's cursors bind on the client, so PostgreSQL sees every statement as new text to parse
and plan. The runtime's hand-written statements (the table locked with its open hand, the
seats, the ledger's accounts, every action's inserts and updates, ...) run instead on
psycopg's own server-binding cursors of Django's connection: psycopg sends the values apart
from the text, and prepares a statement the first time a connection runs it
(``prepare_threshold`` 0 in cardroom/settings.py; Django's client-binding cursors never
prepare), then only executes it. psycopg keeps track of what it prepared, per connection, and
forgets it all at a rollback (a rolled-back migration may have changed what a statement
reads): a path that rolls back often prepares again each time (the clock's claim of a table
not due commits for that reason: cardroom/tables/runtime.py). ``together`` sends several
statements in one pipeline, one round trip, in order, handed to the server in one send
(accounts/sql/pipeline.py, with no cursor); their errors are raised at its end as Django's, as
``execute`` raises them. ``cursor`` gives a server-binding cursor for one statement at a
time: read its rows before the next.

These cursors dump every Python int as a bigint: psycopg otherwise picks smallint, integer or
bigint by each value, and prepares a statement again for each combination of its parameters'
types; PostgreSQL casts bigints to the columns' types. Where Django and the session are both in
UTC they read timestamps with psycopg's own loader (compiled, with psycopg[binary]) rather than
Django's Python one: the values are equal, with the same ``tzinfo``. Django's connection runs
the transaction: these statements are in whatever ``atomic`` the caller holds.

Elsewhere (SQLite) Django's cursor runs the same statements one by one.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper

from accounts.sql import pipeline

__all__ = ["cursor", "here", "together"]

Rows = list[tuple[Any, ...]]

#: Per Django connection (each thread has its own): its psycopg connection and the
#: server-binding cursor made for it, reused while that psycopg connection lasts.
_MADE: weakref.WeakKeyDictionary[Any, tuple[Any, Any]] = weakref.WeakKeyDictionary()


def here() -> Any:
    """The Django connection to the default database that this thread (and, where an event
    loop runs in it, this context) uses: ``connections`` finds it through asgiref's ``Local``
    at every use of ``connection``, a few microseconds each. Callers that make many statements
    take it once, for one piece of work, and never keep it beyond: which object it is depends
    on the thread and the context, and Django may replace it."""
    return connections[DEFAULT_DB_ALIAS]


def _bound(connection: Any) -> Any:
    """The server-binding cursor of this thread's PostgreSQL connection."""
    connection.ensure_connection()
    raw = connection.connection
    made = _MADE.get(connection)
    if made is None or made[0] is not raw:
        made = _MADE[connection] = (raw, _new_cursor(connection, raw))
    return made[1]


def _new_cursor(connection: Any, raw: Any) -> Any:
    import psycopg
    from psycopg.pq import Format

    bound = psycopg.Cursor(raw)
    types = psycopg.adapters.types
    bound.adapters.register_dumper(
        int, psycopg.adapters.get_dumper_by_oid(types["int8"].oid, Format.TEXT)
    )
    oid = types["timestamptz"].oid
    loader = psycopg.adapters.get_loader(oid, Format.TEXT)  # psycopg's own, Django's aside
    utc = connection.timezone is UTC and raw.info.parameter_status("TimeZone") == "UTC"
    if utc and loader is not None:
        bound.adapters.register_loader(oid, loader)
    return bound


@contextmanager
def cursor() -> Iterator[Any]:
    """Django's cursor (its errors, its query log), on PostgreSQL over a server-binding
    cursor whose statements psycopg prepares."""
    connection = here()
    if connection.vendor != "postgresql":
        with connection.cursor() as django_cursor:
            yield django_cursor
        return
    bound = _bound(connection)
    if connection.queries_logged:
        yield _LoggedCursor(bound, connection)
    else:
        yield connection.make_cursor(bound)  # not closed: kept for the connection's next


def together(
    statements: Sequence[tuple[str, Sequence[Any] | None]], *, rows: bool = True
) -> list[Rows]:
    """Run the statements (``%s`` placeholders, their values) in order, on PostgreSQL in one
    pipeline, and give each one's rows ([] for one that returns none; nothing at all with
    ``rows`` False). A statement runs once those before it have: one that waits for a lock
    sees, after it, what the lock's last holder committed. A statement given ``None`` for its
    values is sent as it is, never prepared (``BEGIN``, ``COMMIT``: PostgreSQL prepares no
    transaction control)."""
    if not statements:
        return []
    connection = here()
    if connection.vendor != "postgresql":
        found = []
        with connection.cursor() as django_cursor:
            for sql, params in statements:
                django_cursor.execute(sql, params or ())
                found.append(django_cursor.fetchall() if django_cursor.description else [])
        return found if rows else []
    context = _bound(connection)  # its adapters: the bigint dumper, the UTC loader
    connection.validate_no_broken_transaction()
    with _logged(connection, context, statements), connection.wrap_database_errors:
        found = pipeline.run(connection.connection, context, statements, rows=rows)
    return found if rows else []


class _LoggedCursor(CursorDebugWrapper):
    """Django's debug cursor, logging each statement's own text: Django would read it back
    from psycopg, which keeps none for a server-binding cursor (the log said None)."""

    def execute(self, sql: Any, params: Any = None) -> Any:
        with self.debug_sql(sql, params):
            return CursorWrapper.execute(self, sql, params)


@contextmanager
def _logged(
    connection: Any, bound: Any, statements: Sequence[tuple[str, Sequence[Any] | None]]
) -> Iterator[None]:
    """The pipeline as one entry of Django's query log, where it keeps one: one round trip."""
    if not connection.queries_logged:
        yield
        return
    text = "; ".join(sql for sql, _ in statements)
    params = [list(params or ()) for _, params in statements]
    with CursorDebugWrapper(bound, connection).debug_sql(text, params):
        yield
