"""Driving a table from a test: the clock passing its deadline, and play up to a declare.

Shared by the table tests (a module of helpers, so that no test module imports another's).
"""

from __future__ import annotations

from datetime import timedelta

from cardroom.models import Table
from cardroom.tables.runtime import table_act, table_timeout


def run_clock(table: Table) -> None:
    """Let the clock pass the table's deadline (there must be one), and read the table again."""
    table.refresh_from_db()
    assert table.deadline is not None
    assert table_timeout(table_id=table.pk, now=table.deadline + timedelta(milliseconds=5))
    table.refresh_from_db()


def to_declare(table: Table, *, tries: int = 6) -> None:
    """Run the clock until the table asks for a declare (at most ``tries`` deadlines)."""
    for _ in range(tries):
        table.refresh_from_db()
        if table.state["phase"] == "declare":
            return
        run_clock(table)
    raise AssertionError(f"no declare: {table.state['phase']}")


def declare_all(table, players, choices=("in", "in", "out")) -> None:
    for player, choice in zip(players, choices, strict=True):
        table_act(table_id=table.pk, user=player, action={"kind": "declare", "choice": choice})


def play_to_declare(table: Table, players) -> None:
    """Run the clock once (the ante call opens) and ante for each player: the table asks for
    a declare."""
    run_clock(table)
    for player in players:
        table_act(table_id=table.pk, user=player, action={"kind": "ante"})
    table.refresh_from_db()
    assert table.state["phase"] == "declare"
