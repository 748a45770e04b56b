"""Sockets of one table that ask for its snapshot together share one read, never a started one."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async

import cardroom.realtime.snapshot_reads
from cardroom.realtime.snapshot_reads import shared_snapshot
from cardroom.tables.runtime import table_create


def new_table():
    return table_create(game="guts", preset="survivor", options={"ante": 100}, name="Shared")


@pytest.mark.django_db(transaction=True)
async def test_asks_before_the_read_starts_share_it_and_later_asks_do_not(monkeypatch):
    table = await sync_to_async(new_table)()
    loop = asyncio.get_running_loop()
    pool = ThreadPoolExecutor(1)  # one thread, held below: the reads asked wait to start
    loop.set_default_executor(pool)
    reads: list[int] = []
    inside, leave = threading.Event(), threading.Event()
    real = cardroom.realtime.snapshot_reads.snapshot_from_db

    def counted(row):
        reads.append(row.pk)
        inside.set()
        leave.wait(5)
        return real(row)

    monkeypatch.setattr(cardroom.realtime.snapshot_reads, "snapshot_from_db", counted)
    held = threading.Event()
    blocker = loop.run_in_executor(None, held.wait, 5)
    first = [asyncio.ensure_future(shared_snapshot(table.pk)) for _ in range(3)]
    await asyncio.sleep(0.05)
    assert reads == []  # asked, not started: the pool's one thread is held
    held.set()
    await blocker
    while not inside.is_set():  # the shared read has started and is inside the database
        await asyncio.sleep(0.01)
    late = asyncio.ensure_future(shared_snapshot(table.pk))  # asked after that start
    leave.set()
    snapshots = await asyncio.gather(*first)
    assert snapshots[0] is snapshots[1] is snapshots[2]
    assert snapshots[0]["id"] == table.pk and snapshots[0]["version"] == table.version
    later = await late
    assert later is not snapshots[0] and later["version"] == table.version
    assert reads == [table.pk, table.pk]  # one read for the three, one of its own for the late
    pool.shutdown(wait=False)


@pytest.mark.django_db(transaction=True)
async def test_every_asker_gets_the_reads_error_and_a_closed_socket_cancels_nobody():
    from cardroom.models import Table

    missing = asyncio.gather(shared_snapshot(10**6), shared_snapshot(10**6), return_exceptions=True)
    assert [type(outcome) for outcome in await missing] == [Table.DoesNotExist] * 2
    table = await sync_to_async(new_table)()
    gone = asyncio.ensure_future(shared_snapshot(table.pk))
    stays = asyncio.ensure_future(shared_snapshot(table.pk))
    await asyncio.sleep(0)
    gone.cancel()  # its socket closed while it waited
    assert (await stays)["id"] == table.pk
    with pytest.raises(asyncio.CancelledError):
        await gone
