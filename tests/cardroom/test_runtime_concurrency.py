"""Real transactions and threads at one table: on PostgreSQL the table's row lock decides (and
an action that waited for it re-reads the row as the other left it), on SQLite the writers
queue."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cardroom.models import Hand, Table
from cardroom.tables.runtime import table_act, table_create, table_timeout
from tests.accounts.test_ledger_concurrency import run_in_threads

pytestmark = pytest.mark.django_db(transaction=True)


def test_antes_at_once_open_one_hand_and_deal_it(make_player):
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Together"
    )
    players = [make_player(f"p{i}") for i in range(5)]
    for player in players:
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    table.refresh_from_db()
    assert table_timeout(table_id=table.pk, now=table.deadline + timedelta(milliseconds=10))
    results = run_in_threads(
        len(players),
        lambda i: table_act(table_id=table.pk, user=players[i], action={"kind": "ante"}),
    )
    assert not [r for r in results if isinstance(r, Exception)], results
    # Each ante after the first waited for the one before; none may open a hand of its own.
    hands = list(Hand.objects.filter(table=table))
    assert [(hand.number, hand.ended) for hand in hands] == [(1, None)]
    table = Table.objects.get(pk=table.pk)
    assert (table.open_hand_id, table.open_hand_dealt) == (hands[0].pk, True)
    assert table.state["phase"] == "declare"


def test_the_clocks_workers_apply_every_due_timeout_once(make_player):
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    from cardroom.tables.clock import CLOCK_WORKERS, clock_sweep

    tables = []
    for number in range(6):
        table = table_create(
            game="guts", preset="survivor", options={"ante": 100, "seats": 3}, name=f"Due {number}"
        )
        for index in range(2):
            player = make_player(f"t{number}p{index}")
            table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
        table.refresh_from_db()
        tables.append(table)
    later = max(table.deadline for table in tables) + timedelta(milliseconds=10)
    # SQLite has one writer: the server gives it no workers; here one checks the mechanics.
    workers = CLOCK_WORKERS if connection.vendor == "postgresql" else 1
    with ThreadPoolExecutor(workers) as pool:
        assert clock_sweep(now=later, pool=pool) == len(tables)
        assert clock_sweep(now=later, pool=pool) == 0  # nothing is due twice
    for table in tables:
        before = table.version
        table.refresh_from_db()
        assert table.version == before + 1
        assert table.state["phase"] == "ante"
