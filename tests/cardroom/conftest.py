"""Fixtures for the table runtime: a Survivor table and seated players."""

from __future__ import annotations

import pytest

from cardroom.tables.runtime import table_act, table_create


@pytest.fixture
def survivor_table(db):
    return table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Survivor $1"
    )


@pytest.fixture
def three_five_seven(db):
    """A classic 3-5-7 table (legs, antes every deal), $1 ante, four seats."""
    return table_create(
        game="classic_guts", preset="three_five_seven", options={"ante": 100, "seats": 4},
        name="3-5-7",
    )  # fmt: skip


@pytest.fixture
def seated(survivor_table, make_player):
    """Three players seated at the Survivor table with $200 each."""
    players = [make_player(name) for name in ("ann", "ben", "cat")]
    for player in players:
        table_act(table_id=survivor_table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    return players


@pytest.fixture(autouse=True)
def every_table_replays(request):
    """After every test that used the database: each table's journal replays through the
    games package to its recorded hands and state (docs/architecture.md, "Hand history")."""
    yield
    if "django_db_setup" not in request.fixturenames and not request.node.get_closest_marker(
        "django_db"
    ):
        return
    from cardroom.history.journal_audit import table_replay
    from cardroom.models import Table

    failures = [r for r in (table_replay(table=t) for t in Table.objects.all()) if not r.ok]
    assert not failures, failures
