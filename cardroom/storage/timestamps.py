"""PostgreSQL's timestamps read by psycopg's compiled loader, not Django's Python one.

Django reads every ``timestamptz`` through its own loader, a subclass of psycopg's pure-Python
loader that pins the result's time zone, so psycopg's compiled loader (psycopg[binary]) is never
used. Each action reads a dozen timestamps or more (the seats' joins, leases and last sightings,
the players' limits, the table's deadline, the open hand), and py-spy put that loader at about
6 % of an action's time on PostgreSQL.

The compiled loader gives the session's time zone to what it reads. Django sets the session to
UTC, and psycopg names UTC ``datetime.timezone.utc``, as Django's loader does; so where both are
UTC the values are the same objects' equals, with the same ``tzinfo``. Only then is it swapped:
a connection in any other zone keeps Django's loader.
"""

from __future__ import annotations

from datetime import UTC
from functools import cache
from typing import Any

__all__ = ["use_compiled_loader"]


def use_compiled_loader(sender: Any, connection: Any, **kwargs: Any) -> None:
    """``connection_created``: on a psycopg 3 connection in UTC, read timestamps in C."""
    if connection.vendor != "postgresql" or connection.timezone is not UTC:
        return
    from psycopg import adapters
    from psycopg.pq import Format

    raw = connection.connection
    oid = adapters.types["timestamptz"].oid
    compiled = adapters.get_loader(oid, Format.TEXT)
    if compiled is None or compiled.__module__.startswith("psycopg.types"):
        return  # the pure-Python build: nothing faster to use
    if raw.info.parameter_status("TimeZone") != "UTC":
        return
    raw.adapters.register_loader("timestamptz", _loader_class(compiled))


@cache
def _loader_class(compiled: type) -> type:
    """A loader whose ``load`` is the compiled loader's own (psycopg's compiled classes take
    no subclass), with the ``timezone`` attribute Django's cursors check: they register their
    own loader again when it differs from the session's."""
    from psycopg.adapt import Loader

    class UtcTimestamptzLoader(Loader):
        timezone = UTC

        def __init__(self, oid: int, context: Any = None) -> None:
            super().__init__(oid, context)
            # An attribute, not a method: psycopg calls it for each value with no Python
            # frame in between.
            self.load = compiled(oid, context).load  # type: ignore[method-assign]

        def load(self, data: Any) -> Any:  # replaced in __init__; psycopg asks for a method
            raise NotImplementedError

    return UtcTimestamptzLoader
