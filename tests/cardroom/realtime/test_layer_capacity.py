"""A socket that falls behind costs a bounded queue in the channel layer, whichever layer the
settings chose (the process layer; the Redis pub/sub layer when REDIS_URL is set): its oldest
messages are dropped, counted and logged at a bounded rate (cardroom/realtime/overflow.py), and
its client still ends on the table's current state, by the socket's own read after the gap and
by ``sync``."""

from __future__ import annotations

import asyncio
import copy
import json
import logging

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from accounts.models import User
from cardroom.models import Table
from cardroom.realtime import overflow
from cardroom.realtime.auth import token_create
from cardroom.realtime.consumers import TableApiConsumer, _TableConsumer
from cardroom.realtime.pubsub_layer import RedisPubSubLayer
from cardroom.tables.runtime import table_act
from tests.accounts.sockets import a_table, open_socket

CAPACITY = 4


def test_drops_are_counted_each_and_logged_at_most_once_a_period(monkeypatch, caplog):
    now = [500.0]
    monkeypatch.setattr(overflow, "clock", lambda: now[0])
    monkeypatch.setattr(overflow, "_logged_at", None)  # as in a process that never logged
    monkeypatch.setattr(overflow, "_unlogged", 0)
    before = overflow.overflow_count()
    with caplog.at_level(logging.WARNING, logger="cardroom.realtime.overflow"):
        for _ in range(50):
            overflow.overflowed("specific.a")
        now[0] += overflow.LOG_EVERY_SECONDS - 0.1
        overflow.overflowed("specific.b")
        now[0] += 0.1
        overflow.overflowed("specific.c")
    assert overflow.overflow_count() - before == 52
    lines = [record.getMessage() for record in caplog.records]
    assert len(lines) == 2
    assert lines[0].startswith("1 channel layer message(s)") and "specific.a" in lines[0]
    assert lines[1].startswith("51 channel layer message(s)") and "specific.c" in lines[1]


def queued(group: str) -> int:
    """How many messages wait in the queue of this process's one socket in ``group``, on
    either layer (none when the process layer dropped the emptied queue)."""
    layer = get_channel_layer()
    if isinstance(layer, RedisPubSubLayer):
        (count,) = layer.backlog(group).values()
        return count
    (name,) = layer.groups.get(group, ())
    queue = layer.channels.get(name)
    return queue.qsize() if queue is not None else 0


def state_frames(outputs: list[dict]) -> list[dict]:
    frames = [json.loads(output["text"]) for output in outputs if output.get("text")]
    return [frame for frame in frames if frame["type"] == "state"]


async def until_quiet(socket) -> list[dict]:
    seen = []
    while not await socket.receive_nothing(0.5):
        seen.append(await socket.receive_output(5))
    return seen


def busy_table(table_id: int, user: User, versions: int) -> None:
    """``versions`` new versions of the table: a sit, then sitting out and in."""
    table_act(table_id=table_id, user=user, action={"kind": "sit", "buy_in": 20_000})
    out_and_in(table_id, user, versions - 1)


def out_and_in(table_id: int, user: User, versions: int) -> None:
    """``versions`` new versions of a table ``user`` sits at (and in)."""
    for number in range(versions):
        kind = "sit_out" if number % 2 == 0 else "sit_in"
        table_act(table_id=table_id, user=user, action={"kind": kind})


@pytest.mark.django_db(transaction=True)
async def test_a_socket_that_stops_reading_keeps_a_bounded_queue_and_catches_up(
    settings, monkeypatch, alice, bob
):
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    layers["default"].setdefault("CONFIG", {})["capacity"] = CAPACITY
    settings.CHANNEL_LAYERS = layers
    # A socket with a channel of its own in the table's group (the page's kind): one the
    # process's hub feeds has none (cardroom/realtime/fanout.py).
    monkeypatch.setattr(TableApiConsumer, "fed", False)
    # The socket's consumer takes its first version, then stops there until released: the
    # next ones wait in its queue in the layer.
    stalled, released = asyncio.Event(), asyncio.Event()
    real = _TableConsumer.table_version

    async def slow(self, event):
        stalled.set()
        await released.wait()
        await real(self, event)

    monkeypatch.setattr(_TableConsumer, "table_version", slow)
    table = await a_table()
    token = await sync_to_async(token_create)(user=alice)
    socket, first = await open_socket(table, token=token)
    assert json.loads(first["text"])["version"] == 0
    before = overflow.overflow_count()

    await sync_to_async(busy_table)(table, bob, 13)
    await asyncio.wait_for(stalled.wait(), 10)
    # Each of the 13 versions is taken by the stalled consumer (one), waits in the queue, or
    # was dropped and counted. Which ones depends on how the burst arrived: Redis hands it over
    # at once, and concurrent publishes may reach it out of order (the layers' own tests
    # check which messages a queue keeps).
    group = f"table-{table}"
    async with asyncio.timeout(10):
        while 1 + queued(group) + overflow.overflow_count() - before < 13:
            await asyncio.sleep(0.02)
    assert queued(group) <= CAPACITY
    await asyncio.sleep(0.2)  # all arrived: nothing more is dropped
    assert 1 + queued(group) + overflow.overflow_count() - before == 13

    released.set()
    frames = state_frames(await until_quiet(socket))
    versions = [frame["version"] for frame in frames]
    assert versions == sorted(set(versions)) and len(versions) < 13  # the client saw a gap
    # The client asks for the state and is on the current one (a gap's own read got there
    # already when the newest version was among those kept).
    await socket.send_to(text_data=json.dumps({"type": "sync"}))
    (synced,) = state_frames(await until_quiet(socket))
    assert synced["version"] == (await Table.objects.aget(pk=table)).version == 13
    if versions[-1] == 13:
        assert synced == frames[-1]
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_version_after_a_gap_is_read_whole_and_the_next_one_built_from_its_snapshot(
    monkeypatch, alice, bob
):
    """A version the socket never got may have carried what later snapshots leave out (the
    recent hands, a bankroll): after a gap the socket reads the state from the database."""
    from cardroom.realtime import broadcast

    lost = {2}
    real_send = broadcast.send_to_group

    def losing(group, message):
        if message["version"] not in lost:
            real_send(group, message)

    monkeypatch.setattr(broadcast, "send_to_group", losing)
    reads = []
    real_read = _TableConsumer.read_snapshot

    async def counted(self):
        snapshot = await real_read(self)
        reads.append(snapshot["version"])
        return snapshot

    real_opening = _TableConsumer.read_opening

    async def counted_opening(self):  # the socket's first read, with its chat's
        snapshot, chat = await real_opening(self)
        reads.append(snapshot["version"])
        return snapshot, chat

    monkeypatch.setattr(_TableConsumer, "read_snapshot", counted)
    monkeypatch.setattr(_TableConsumer, "read_opening", counted_opening)
    table = await a_table()
    token = await sync_to_async(token_create)(user=alice)
    socket, _ = await open_socket(table, token=token)
    assert reads == [0]
    await sync_to_async(busy_table)(table, bob, 1)
    assert [frame["version"] for frame in state_frames(await until_quiet(socket))] == [1]
    assert reads == [0]  # built from the version's snapshot
    await sync_to_async(out_and_in)(table, bob, 2)
    assert [frame["version"] for frame in state_frames(await until_quiet(socket))] == [3]
    assert reads == [0, 3]  # version 2 never came: 3 was read whole
    await socket.disconnect()
