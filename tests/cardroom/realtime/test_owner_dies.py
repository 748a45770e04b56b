"""A table's owner killed mid-hand (kill -9), while a timeout is pending: another process takes
the table when the lease lapses, the hand resolves once, on time within the lease, and the
ledger and the journal are whole (cardroom/realtime/owners.py).

Two daphne processes on PostgreSQL and Redis, each with its clock. ann and cat sit through the
first process, which so owns the table; ben through the second. Everyone antes; in the declare
phase ben declares In (forwarded to the owner) and the owner is killed with the two others'
declares pending. The second process's clock must take the table once its lease lapses and
apply the declare timeout: ben sees the hand end, his next action is applied by his own process,
and the hand has one end. Collected only when ``REDIS_URL`` is set (CI's second pass), see
tests/conftest.py. Bounded: about 30 s.
"""

from __future__ import annotations

import asyncio
import time

import pytest
from django.core.management import call_command

from accounts.services import user_create
from cardroom.history.journal_audit import table_replay
from cardroom.models import Hand, HandEvent, Table
from cardroom.realtime.auth import token_create
from cardroom.realtime.owners import LEASE_SECONDS
from cardroom.tables.runtime import table_create
from tests.live import live_daphnes
from tests.remote_players import Player, legal

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

DECLARE_SECONDS = 3.0


async def seated(url: str, table_id: int, name: str, token: str) -> Player:
    import websockets

    socket = await websockets.connect(
        url.replace("http", "ws") + f"/ws/api/tables/{table_id}/",
        additional_headers={"Authorization": f"Bearer {token}", "Origin": url},
    )
    player = Player(socket, name)
    await player.until(lambda f: f["type"] == "state")
    assert (await player.act(kind="sit", buy_in=20_000))["type"] == "ack"
    return player


def test_the_owner_killed_mid_hand_another_process_resolves_the_hand_once():
    table = table_create(
        game="guts", preset="survivor", name="Owner dies",
        options={"ante": 100, "seats": 3, "decision_seconds": DECLARE_SECONDS,
                 "ante_seconds": 5, "showdown_seconds": 1},
    )  # fmt: skip
    tokens = {name: token_create(user=user_create(username=name)) for name in ("ann", "ben", "cat")}
    found: dict[str, float] = {}

    async def play(servers) -> None:
        first, second = servers
        ann = await seated(first.url, table.pk, "ann", tokens["ann"])
        owner = await asyncio.to_thread(lambda: Table.objects.get(pk=table.pk).owner)
        assert f".route.{first.process.pid}." in owner  # the first process to act took it
        ben = await seated(second.url, table.pk, "ben", tokens["ben"])  # forwarded
        cat = await seated(first.url, table.pk, "cat", tokens["cat"])
        players = [ann, ben, cat]
        for player in players:
            await player.until(lambda f: legal(f, "ante"))
            assert (await player.act(kind="ante"))["type"] == "ack"
        for player in players:
            await player.until(lambda f: legal(f, "declare"))
        assert (await ben.act(kind="declare", choice="in"))["type"] == "ack"
        first.process.kill()  # kill -9: no lease is given back, nothing is flushed
        first.process.wait(timeout=5)
        killed = time.monotonic()
        # The declare timeout (ann and cat mucked) comes from the second process's clock,
        # once the dead owner's lease has lapsed.
        await ben.until(lambda f: f["type"] == "state" and f["table"].get("phase") != "declare",
                        timeout=DECLARE_SECONDS + LEASE_SECONDS + 10)  # fmt: skip
        found["resolved_after"] = time.monotonic() - killed
        owner = await asyncio.to_thread(lambda: Table.objects.get(pk=table.pk).owner)
        assert f".route.{second.process.pid}." in owner
        # ben's own process applies his actions now.
        await ben.until(lambda f: legal(f, "sit_out") or legal(f, "ante"), timeout=15)
        assert (await ben.act(kind="sit_out"))["type"] == "ack"
        await ben.socket.close()

    with live_daphnes("owner-dies", 2) as servers:
        asyncio.run(play(servers))
    assert found["resolved_after"] <= DECLARE_SECONDS + LEASE_SECONDS + 3, found
    hand = Hand.objects.get(table=table, number=1)
    assert hand.ended is not None
    assert HandEvent.objects.filter(table=table, hand=hand, type="hand_ended").count() == 1
    call_command("audit_ledger")
    assert table_replay(table=Table.objects.get(pk=table.pk)).ok
