"""PostgreSQL's timestamps are read by psycopg's compiled loader, with Django's values."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from zoneinfo import ZoneInfo

import pytest
from django.db import connection

from cardroom.models import Table
from cardroom.storage.timestamps import use_compiled_loader
from cardroom.tables.runtime import table_create


def compiled_loader_available() -> bool:
    """psycopg[binary] (the project's dependency): its compiled loader exists to be used."""
    from psycopg import adapters
    from psycopg.pq import Format

    compiled = adapters.get_loader(adapters.types["timestamptz"].oid, Format.TEXT)
    return compiled is not None and not compiled.__module__.startswith("psycopg.types")


def timestamptz_loader():
    from psycopg import adapters
    from psycopg.pq import Format

    oid = adapters.types["timestamptz"].oid
    return connection.connection.adapters.get_loader(oid, Format.TEXT)


@pytest.mark.django_db
def test_timestamps_read_back_as_written_in_utc():
    table = table_create(game="guts", preset="survivor", options={"ante": 100}, name="T")
    moment = datetime(2026, 12, 1, 21, 0, 0, 123456, tzinfo=UTC)
    Table.objects.filter(pk=table.pk).update(deadline=moment)
    read = Table.objects.get(pk=table.pk).deadline
    assert read == moment and read.tzinfo is UTC
    if connection.vendor == "postgresql":
        loader = timestamptz_loader()
        swapped = loader.__name__ == "UtcTimestamptzLoader"
        assert swapped == compiled_loader_available() and loader.timezone is UTC
        with connection.cursor() as cursor:
            # An offset of another zone, the far past, and a fraction: as Django reads them.
            cursor.execute(
                "SELECT '2020-01-01 10:00:00.5+05'::timestamptz, '0001-01-01 00:00+00'::timestamptz"
            )
            first, far = cursor.fetchone()
        assert first == datetime(2020, 1, 1, 5, 0, 0, 500000, tzinfo=UTC)
        assert first.tzinfo is UTC and far == datetime(1, 1, 1, tzinfo=UTC)


def test_a_connection_not_in_utc_keeps_djangos_loader():
    """Another zone, in Django's settings or in the session, or another database, is left as
    Django set it up."""
    touched: list[object] = []

    def connection_in(zone: str) -> SimpleNamespace:
        return SimpleNamespace(
            adapters=SimpleNamespace(register_loader=lambda *args: touched.append(args)),
            info=SimpleNamespace(parameter_status=lambda name: zone),
        )

    oslo = ZoneInfo("Europe/Oslo")
    use_compiled_loader(None, SimpleNamespace(vendor="postgresql", timezone=oslo,
                                              connection=connection_in("UTC")))  # fmt: skip
    use_compiled_loader(None, SimpleNamespace(vendor="postgresql", timezone=UTC,
                                              connection=connection_in("Europe/Oslo")))  # fmt: skip
    use_compiled_loader(None, SimpleNamespace(vendor="sqlite", timezone=UTC,
                                              connection=connection_in("UTC")))  # fmt: skip
    assert touched == []
    # The same call on a PostgreSQL session in UTC does register it: the cases above are
    # refused for their zone, not for the fake.
    use_compiled_loader(None, SimpleNamespace(vendor="postgresql", timezone=UTC,
                                              connection=connection_in("UTC")))  # fmt: skip
    expected = ["timestamptz"] if compiled_loader_available() else []
    assert [name for name, _ in touched] == expected
