"""A Survivor table whose players sat and whose first ante call the clock has answered: the
table the action-queue and owner tests apply their antes to."""

from __future__ import annotations

from datetime import timedelta

from cardroom.models import Table
from cardroom.tables.runtime import table_act, table_create, table_timeout


def survivor(players: list, name: str = "Survivor") -> Table:
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name=name
    )
    for player in players:
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    table.refresh_from_db()
    assert table_timeout(table_id=table.pk, now=table.deadline + timedelta(milliseconds=10))
    table.refresh_from_db()
    return table
