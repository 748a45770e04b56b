"""Sockets of one table that ask for its snapshot together share one read, never a started one."""

from __future__ import annotations

import asyncio
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from asgiref.sync import sync_to_async

import cardroom.realtime.snapshot_reads
from cardroom.realtime.snapshot_reads import shared_snapshot, shared_snapshot_and
from cardroom.tables.runtime import table_create


@pytest.fixture
def trips(monkeypatch) -> list[str]:
    """Each trip to a pool of threads (``_kept`` in cardroom/realtime/threads.py), counted."""
    from cardroom.realtime import threads

    made: list[str] = []
    real_kept = threads._kept

    def counted(work, arguments):
        made.append("trip")
        return real_kept(work, arguments)

    monkeypatch.setattr(threads, "_kept", counted)
    return made


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


@pytest.mark.django_db(transaction=True)
async def test_askers_own_reads_go_in_the_shared_trip_after_the_snapshot_each_to_its_asker(
    monkeypatch, trips
):
    """``shared_snapshot_and``: the askers of one read each have their own read made in the
    same trip to the pool, after the snapshot; an asker's failed read is that asker's alone."""
    table = await sync_to_async(new_table)()
    order: list[str] = []
    real = cardroom.realtime.snapshot_reads.snapshot_from_db

    def snapshot_first(row):
        order.append("snapshot")
        return real(row)

    monkeypatch.setattr(cardroom.realtime.snapshot_reads, "snapshot_from_db", snapshot_first)

    def own(name):
        def read():
            order.append(name)
            if name == "bad":
                raise LookupError(name)
            return name.upper()

        return read

    asked = [shared_snapshot_and(table.pk, own(name)) for name in ("ann", "bad", "cat")]
    ann, bad, cat = await asyncio.gather(*asked, return_exceptions=True)
    assert trips == ["trip"] and order == ["snapshot", "ann", "bad", "cat"]
    assert ann[1] == "ANN" and cat[1] == "CAT"
    assert ann[0] is cat[0] and ann[0]["id"] == table.pk
    assert isinstance(bad, LookupError)


@pytest.mark.django_db(transaction=True)
async def test_the_snapshots_error_reaches_every_asker_and_no_askers_read_is_made():
    from cardroom.models import Table

    made: list[str] = []
    asked = [shared_snapshot_and(10**6, lambda: made.append("read")) for _ in range(2)]
    outcomes = await asyncio.gather(*asked, return_exceptions=True)
    assert [type(outcome) for outcome in outcomes] == [Table.DoesNotExist] * 2
    assert made == []


@pytest.mark.django_db(transaction=True)
async def test_a_token_handshake_goes_to_the_pool_twice(monkeypatch, trips):
    """A program's socket opens with two trips to the reads' pool: its token, then the
    table's snapshot with the viewer's chat; no trip for a session it does not have."""
    from accounts.services import user_create
    from cardroom.realtime import token_stamps
    from cardroom.realtime.auth import token_create
    from tests.accounts.sockets import open_socket

    monkeypatch.setattr(token_stamps, "STAMP_DELAY_SECONDS", 30.0)  # not during the handshake
    table = await sync_to_async(new_table)()
    ann = await sync_to_async(user_create)(username="ann")
    token = await sync_to_async(token_create)(user=ann)
    socket, first = await open_socket(table.pk, token=token)  # asserts the chat's lines follow
    assert json.loads(first["text"])["type"] == "state"
    assert len(trips) == 2, trips
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_page_socket_with_a_session_goes_to_the_pool_twice(trips):
    """A browser's table page opens its socket with two trips to the reads' pool: the
    session's user with its two-factor check, then the snapshot with the viewer's chat and
    bankroll."""
    from django.test import Client as Browser

    from accounts.services import user_create
    from tests.accounts.sockets import open_socket, session_cookie

    table = await sync_to_async(new_table)()
    ann = await sync_to_async(user_create)(username="ann")
    browser = Browser()
    await sync_to_async(browser.force_login)(ann)
    cookie = await session_cookie(browser)
    socket, first = await open_socket(table.pk, cookie=cookie, page=True)
    assert first["type"] == "websocket.send" and "$1,000.00</a>" in first["text"]  # the bankroll
    assert len(trips) == 2, trips
    await socket.disconnect()
