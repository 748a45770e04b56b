"""Real transactions and threads at one table: on PostgreSQL the table's row lock decides (and
an action that waited for it re-reads the row as the other left it), on SQLite the writers
queue."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from cardroom.models import Hand, Table
from cardroom.tables.runtime import table_act, table_create, table_timeout
from tests.threads import run_in_threads

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


def due_tables(make_player, count: int) -> tuple[list[Table], datetime]:
    """Tables of two seated players each, and a moment when all their pauses are due."""
    tables = []
    for number in range(count):
        table = table_create(
            game="guts", preset="survivor", options={"ante": 100, "seats": 3}, name=f"Due {number}"
        )
        for index in range(2):
            player = make_player(f"t{number}p{index}")
            table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
        table.refresh_from_db()
        tables.append(table)
    return tables, max(table.deadline for table in tables) + timedelta(milliseconds=10)


def test_the_clocks_workers_apply_every_due_timeout_once(make_player):
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    from cardroom.clock.clock import CLOCK_WORKERS, clock_sweep

    tables, later = due_tables(make_player, 6)
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


def test_each_due_table_is_a_turn_of_its_own_where_writes_go(make_player):
    """On SQLite the server runs each turn in its one write thread, so the players' actions
    that arrive during a sweep go between its timeouts, not after all of them."""
    from cardroom.clock.clock import ClockThread, clock_sweep

    tables, later = due_tables(make_player, 3)
    turns: list[tuple[str, tuple]] = []

    def turn(work, *args):
        turns.append((work.__name__, args[:1]))
        return work(*args)

    assert clock_sweep(now=later, turn=turn) == 3
    assert turns == [("_time_out", (table.pk,)) for table in tables]  # by deadline
    for table in tables:
        before = table.version
        table.refresh_from_db()
        assert table.version == before + 1 and table.state["phase"] == "ante"
    turns.clear()
    ClockThread().tick(turn)  # nothing is due: the slower sweeps are turns too
    assert [name for name, _ in turns] == ["bots_sweep", "levels_sweep", "_presence_sweeps"]


def test_the_clocks_claim_passes_over_a_table_another_transaction_holds(make_player):
    """The clock's read of a due table is its claim: not yet due, nothing; held by a player's
    action or another clock (PostgreSQL), passed over at once rather than waited for, and
    applied once the holder is done."""
    import threading

    from django.db import connection, transaction

    (table,), later = due_tables(make_player, 1)
    before = table.version
    assert table_timeout(table_id=table.pk, now=later - timedelta(seconds=5), claim=True) is None
    if connection.vendor == "postgresql":
        locked, release = threading.Event(), threading.Event()

        def hold() -> None:
            try:
                with transaction.atomic():
                    Table.objects.select_for_update().get(pk=table.pk)
                    locked.set()
                    release.wait(10)
            finally:
                connection.close()

        holder = threading.Thread(target=hold)
        holder.start()
        try:
            assert locked.wait(10)
            started = datetime.now()
            assert table_timeout(table_id=table.pk, now=later, claim=True) is None
            assert datetime.now() - started < timedelta(seconds=5)  # not a wait for the lock
        finally:
            release.set()
            holder.join(10)
    outcome = table_timeout(table_id=table.pk, now=later, claim=True)
    assert outcome is not None and outcome.version == before + 1
    assert table_timeout(table_id=table.pk, now=later, claim=True) is None  # applied once
