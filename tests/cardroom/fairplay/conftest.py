"""The fair play tests build seats, hands and payments straight in the database (builders.py):
they have no journal, so the cardroom's check that every table replays from its journal does
not apply to them and is turned off here."""

import pytest

from cardroom.tables.runtime import table_create


@pytest.fixture(autouse=True)
def every_table_replays():
    """Overrides tests/cardroom/conftest.py's: these tables' hands were not played."""
    return


@pytest.fixture
def tables(db):
    return [
        table_create(
            game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name=f"T{n}"
        )
        for n in (1, 2)
    ]


@pytest.fixture
def people(make_player):
    return {name: make_player(name) for name in ("ann", "ben", "cat", "dan", "eve")}
