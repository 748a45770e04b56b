"""Presence that survives crashes, and sockets that stay fresh when pushes are lost.

A seat's connection count is only believed while some process renews its lease: the count of
a process killed with sockets open expires by itself, and any other process's clock then sits
the player out after the grace. A socket that missed a push is repaired by its process's next
freshness round.
"""

from __future__ import annotations

import asyncio
import json
import time
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from cardroom.clock.clock import presence_sweep
from cardroom.models import Seat
from cardroom.realtime import freshness
from cardroom.tables.runtime import table_act


@pytest.mark.django_db
def test_a_count_left_by_a_dead_process_expires_and_the_player_is_sat_out(survivor_table, seated):
    ann = seated[0]
    # A process counted ann's socket, renewed her lease once, then died (kill -9): nothing
    # ever decrements the count.
    renewed = timezone.now() - timedelta(seconds=1)
    Seat.objects.filter(user=ann, left__isnull=True).update(
        connections=1, last_seen=renewed, lease_until=renewed + freshness.LEASE
    )
    assert presence_sweep() == 0  # the lease still holds
    later = renewed + freshness.LEASE + timedelta(seconds=1)
    assert presence_sweep(now=later) == 1  # the lease ran out: disconnected, away since then
    seat = Seat.objects.get(user=ann, left__isnull=True)
    assert (seat.connections, seat.last_seen) == (0, renewed + freshness.LEASE)
    grace = timedelta(seconds=61)
    assert presence_sweep(now=seat.last_seen + grace) == 1  # sat out after the grace
    survivor_table.refresh_from_db()
    assert survivor_table.state["seats"][0]["sitting_out"] is True


@pytest.mark.django_db
def test_a_renewed_lease_keeps_a_connected_player_in(survivor_table, seated):
    ann = seated[0]
    now = timezone.now()
    Seat.objects.filter(user=ann, left__isnull=True).update(
        connections=1, last_seen=now, lease_until=now + freshness.LEASE
    )
    assert presence_sweep(now=now + freshness.LEASE / 2) == 0
    assert Seat.objects.get(user=ann, left__isnull=True).connections == 1


@pytest.mark.django_db(transaction=True)
async def test_a_socket_that_missed_a_push_is_repaired_and_its_lease_renewed(monkeypatch):
    import cardroom.realtime.broadcast
    from accounts.services import user_create
    from cardroom.realtime.auth import token_create
    from cardroom.tables.runtime import table_create
    from tests.cardroom.sockets import Client

    table = await sync_to_async(table_create)(
        game="guts", preset="survivor", options={"ante": 100, "seats": 4}, name="Fresh"
    )
    ann = await sync_to_async(user_create)(username="ann")
    ben = await sync_to_async(user_create)(username="ben")
    client = Client(table.pk, await sync_to_async(token_create)(user=ann))
    await client.connect()
    assert (await client.act(kind="sit", buy_in=20_000))["type"] == "ack"
    await client.drain(table)
    # Redis is away for a moment: the next version's push never arrives.
    monkeypatch.setattr(cardroom.realtime.broadcast, "send_to_group", lambda group, message: None)
    await sync_to_async(table_act)(
        table_id=table.pk, user=ben, action={"kind": "sit", "buy_in": 20_000}
    )
    await table.arefresh_from_db()
    assert await client.communicator.receive_nothing(timeout=0.3)
    before = timezone.now()
    # A socket that took a version a moment ago is not read again: a push may be on its way.
    assert await freshness.freshness_round() == 0
    assert await client.communicator.receive_nothing(timeout=freshness.QUIET_SECONDS)
    assert await freshness.freshness_round() == 1
    frame = await client.receive()
    assert (frame["type"], frame["version"]) == ("state", table.version)
    seat = await Seat.objects.aget(user=ann, left__isnull=True)
    assert seat.lease_until >= before + freshness.LEASE - timedelta(seconds=1)
    await client.close()


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_a_silent_socket_stays_open_on_redis():
    """redis-py's read timeout once equalled channels_redis's blocking pop (5 s), and every
    quiet socket was closed with 1011 after about 5 s. Silent for 12 s here: more than twice
    that, and past one of the freshness rounds (every 10 s) that may send it a repair."""
    import websockets

    from accounts.services import user_create
    from cardroom.realtime.auth import token_create
    from cardroom.tables.runtime import table_create
    from tests.live import live_server

    table = table_create(game="guts", preset="survivor", options={"ante": 100}, name="Quiet")
    token = token_create(user=user_create(username="quiet"))

    async def stay_silent(url: str) -> None:
        async with websockets.connect(
            url.replace("http", "ws") + f"/ws/api/tables/{table.pk}/",
            additional_headers={"Authorization": f"Bearer {token}", "Origin": url},
        ) as socket:
            assert json.loads(await socket.recv())["type"] == "state"
            until = time.monotonic() + 12
            while (left := until - time.monotonic()) > 0:
                try:  # only the freshness round's repairs may arrive, if anything
                    await asyncio.wait_for(socket.recv(), left)
                except TimeoutError:
                    break
            await socket.send(json.dumps({"type": "sync"}))
            assert json.loads(await asyncio.wait_for(socket.recv(), 10))["type"] == "state"

    with live_server("quiet") as url:
        asyncio.run(stay_silent(url))
