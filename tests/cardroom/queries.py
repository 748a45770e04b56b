"""Counting the queries an action sends, and the live path's budgets of them (checked by
tests/cardroom/tables/test_query_budget.py; the limits' checks are held to them too)."""

from __future__ import annotations

from django.db import connection
from django.test.utils import CaptureQueriesContext

#: At most this many queries for an ordinary action, whatever the number of seats.
ORDINARY = 8
#: At most this many for an action that ends in a showdown.
SHOWDOWN = 20


def queries(run) -> int:
    """Queries ``run`` sends, not counting the savepoints of the test's own transaction."""
    with CaptureQueriesContext(connection) as captured:
        run()
    return sum(
        1
        for query in captured.captured_queries
        if not query["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))
    )
