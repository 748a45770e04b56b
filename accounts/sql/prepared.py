"""The runtime's hand-written statements as prepared statements of each PostgreSQL connection.

Sampled with perf under the 100-table benchmark (docs/performance.md), PostgreSQL spent about
a quarter of the machine, and of its own time about 40 % parsing, analysing and planning the
same few statements again on every action (the table locked with its open hand, the seats with
their players and limits, the ledger's accounts, the inserts and updates of every action):
Django's cursors bind on the client, so PostgreSQL never sees a statement twice. Here each such
statement is prepared once per connection (``PREPARE``, in the same text as its first
``EXECUTE``, so no round trip is added) and then only executed, with its values quoted by
psycopg exactly as its own execute would quote them, so PostgreSQL plans each such statement
once per connection (docs/performance.md has what it saves).

Prepared statements outlive a rolled-back transaction (PostgreSQL does not undo ``PREPARE``),
so a connection remembers only those of texts that ran without error; after an error it cannot
tell which of that text's statements were prepared, so its next text first drops them all
(``DEALLOCATE ALL``) and prepares again what it uses; so does a connection's first text. A
migration that changes the type of a column these statements read makes each connection's
next read of it fail once ("cached plan must not change result type"), then start afresh.
A connection binding on the server has no ``mogrify``: callers then run their statements as
before. Elsewhere (SQLite) nothing here is used.
"""

from __future__ import annotations

import hashlib
import weakref
from collections.abc import Sequence
from typing import Any

from accounts.sql.literals import literals

__all__ = ["Prepared", "execute_prepared", "statement_name"]

#: Per psycopg connection: the names prepared on it; none (or None) while that is unknown: a
#: connection not seen yet, or one whose last text failed.
_PREPARED: weakref.WeakKeyDictionary[Any, set[str] | None] = weakref.WeakKeyDictionary()
_NAMES: dict[tuple[str, str], str] = {}


def statement_name(label: str, sql: str) -> str:
    """A name for ``sql`` that says what it is (``label``) and changes with its text."""
    key = (label, sql)
    if (name := _NAMES.get(key)) is None:
        digest = hashlib.blake2s(sql.encode(), digest_size=6).hexdigest()
        # PostgreSQL cuts identifiers at 63 bytes: the label gives way, never the digest.
        name = _NAMES[key] = f"cardroom_{label[:40]}_{digest}"
    return name


def _numbered(sql: str) -> str:
    """``%s`` placeholders as ``$1``, ``$2``, ... (the statements here hold no other ``%``)."""
    assert "%%" not in sql and "%(" not in sql, sql
    parts = sql.split("%s")
    return "".join(f"{part}${index}" for index, part in enumerate(parts[:-1], 1)) + parts[-1]


class Prepared:
    """The statements of one text sent to one connection: ``execute`` gives each one's
    ``EXECUTE`` (quoted now), ``text`` the whole text with the ``PREPARE`` it still needs, and
    ``sent`` records them once that text ran without error (``failed`` otherwise)."""

    def __init__(self, cursor: Any) -> None:
        """``cursor``: Django's cursor; ``usable`` says whether its driver quotes on the
        client (psycopg's ``mogrify``)."""
        self._psycopg = cursor.cursor
        self._mogrify = getattr(self._psycopg, "mogrify", None)
        #: Whether values may be quoted here (accounts/sql/literals.py) rather than by
        #: psycopg: text is quoted as standard-conforming strings read it.
        self._literals = self._mogrify is not None and (
            self._psycopg.connection.info.parameter_status("standard_conforming_strings") == "on"
        )
        self._needed: dict[str, str] = {}
        self._preamble = 0

    @property
    def usable(self) -> bool:
        return self._mogrify is not None

    def execute(self, label: str, sql: str, params: Sequence[Any]) -> str:
        """``EXECUTE`` of ``sql`` (``%s`` placeholders) with ``params`` quoted by psycopg."""
        assert self._mogrify is not None
        name = statement_name(label, sql)
        self._needed.setdefault(name, sql)
        if not params:
            return f"EXECUTE {name}"
        if self._literals and (written := literals(params)) is not None:
            return f"EXECUTE {name}({', '.join(written)})"
        text: str = self._mogrify(f"EXECUTE {name}({', '.join(['%s'] * len(params))})", params)
        return text

    def text(self, executes: Sequence[str]) -> str:
        """The text that runs ``executes`` in order, preparing first what this connection
        has not prepared yet."""
        # A connection not seen yet may still hold statements (a pooler that hands on a
        # session without resetting it): it starts from nothing too.
        prepared = _PREPARED.get(self._psycopg.connection)
        head = [] if prepared is not None else ["DEALLOCATE ALL"]
        known = prepared or set()
        head += [
            f"PREPARE {name} AS {_numbered(sql)}"
            for name, sql in self._needed.items()
            if name not in known
        ]
        self._preamble = len(head)
        return "; ".join([*head, *executes])

    def run(self, cursor: Any, executes: Sequence[str]) -> None:
        """Send ``executes`` through Django's ``cursor`` (``text``), record the outcome, and
        leave the cursor at the first execute's result."""
        try:
            cursor.execute(self.text(executes))
        except Exception:
            self.failed()
            raise
        self.sent()
        for _ in range(self._preamble):
            cursor.nextset()

    def sent(self) -> None:
        """The text ran: its statements are prepared on this connection."""
        connection = self._psycopg.connection
        prepared = _PREPARED.get(connection) or set()  # after DEALLOCATE ALL: these alone
        prepared.update(self._needed)
        _PREPARED[connection] = prepared

    def failed(self) -> None:
        """The text failed somewhere: which of its ``PREPARE`` ran is unknown."""
        _PREPARED[self._psycopg.connection] = None


def execute_prepared(cursor: Any, label: str, sql: str, params: Sequence[Any]) -> None:
    """Django's ``cursor.execute(sql, params)``, as a prepared statement where the driver
    quotes on the client (PostgreSQL); the cursor is left at its result."""
    prepared = Prepared(cursor)
    if not prepared.usable:
        cursor.execute(sql, params)
        return
    with cursor.db.wrap_database_errors:  # psycopg's errors as Django's, as execute's
        executes = [prepared.execute(label, sql, params)]
    prepared.run(cursor, executes)
