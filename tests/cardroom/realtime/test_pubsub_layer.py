"""The Redis pub/sub layer (cardroom/realtime/pubsub_layer.py) on a real Redis.

channels_redis's own layer took one lock per process for every publish and every subscribe;
under load a socket's handshake waited behind every queued push until daphne dropped it. These
check what replaced the lock: a publish never waits for it, subscriptions of many sockets are
written together and reach Redis, the latest request for a channel wins, a cancelled socket
does not undo the others' subscriptions, and a receiving task that ended is started again. And
what channels_redis's pub/sub layer lacked: a socket's queue holds at most ``capacity``
messages, the newest (cardroom/realtime/overflow.py).
Collected only when ``REDIS_URL`` is set (CI's second pass), see tests/conftest.py.
"""

from __future__ import annotations

import asyncio
import os
import secrets

import pytest
import redis.asyncio as aioredis

from cardroom.realtime.overflow import overflow_count
from cardroom.realtime.pubsub_layer import RedisPubSubLayer

pytestmark = pytest.mark.redis


@pytest.fixture
async def made():
    """A layer of its own (the suite's workers share one Redis: a prefix apart), flushed after."""
    layer = RedisPubSubLayer(
        hosts=[{"address": os.environ["REDIS_URL"]}], prefix=f"t{secrets.token_hex(4)}"
    )
    yield layer
    await layer.flush()


def shard_of(made: RedisPubSubLayer):
    (shard,) = made._get_layer()._shards
    return shard


async def subscribers(made: RedisPubSubLayer, name: str) -> int:
    """How many connections Redis itself counts on ``name`` (a channel or a group)."""
    client = aioredis.Redis.from_url(os.environ["REDIS_URL"])
    try:
        loop_layer = made._get_layer()
        channel = loop_layer._get_group_channel_name(name) if "." not in name else name
        ((_, count),) = await client.pubsub_numsub(channel)
        return int(count)
    finally:
        await client.aclose()


async def test_a_publish_does_not_wait_for_the_subscription_lock(made):
    channel = await made.new_channel()
    await made.group_add("room", channel)
    shard = shard_of(made)
    async with shard._lock:  # as if a subscription were being written
        # channels_redis's publish took this lock: it would wait here forever.
        await asyncio.wait_for(made.group_send("room", {"type": "x.y", "n": 1}), 2)
    message = await asyncio.wait_for(made.receive(channel), 5)
    assert message == {"type": "x.y", "n": 1}


async def test_many_sockets_subscribing_at_once_share_a_write_and_all_receive(made):
    shard = shard_of(made)
    writes = []
    real = shard._write_batches

    async def counted():
        writes.append(1)
        await real()

    shard._write_batches = counted

    async def join(number: int) -> str:
        channel = await made.new_channel()
        await made.group_add(f"table-{number % 5}", channel)
        await made.group_add(f"token-{number}", channel)
        return channel

    channels = await asyncio.wait_for(asyncio.gather(*(join(n) for n in range(40))), 10)
    # 120 subscriptions; the first write starts at once and the rest wait for it together.
    assert len(writes) < 40
    assert await subscribers(made, "table-3") == 1  # one per process, not per socket
    for number in range(5):
        await made.group_send(f"table-{number}", {"type": "v.n", "table": number})
    for index, channel in enumerate(channels):
        message = await asyncio.wait_for(made.receive(channel), 5)
        assert message == {"type": "v.n", "table": index % 5}


async def test_the_latest_request_for_a_channel_wins_and_discard_unsubscribes(made):
    channel = await made.new_channel()
    await made.group_add("left", channel)
    assert await subscribers(made, "left") == 1
    # Discarded and added again in one batch: still subscribed.
    await asyncio.gather(made.group_discard("left", channel), made.group_add("left", channel))
    assert await subscribers(made, "left") == 1
    await made.group_discard("left", channel)
    assert await subscribers(made, "left") == 0
    await made.group_send("left", {"type": "x.y"})
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(made.receive(channel), 0.5)


async def test_a_cancelled_socket_leaves_the_others_subscribed(made):
    first, second = await made.new_channel(), await made.new_channel()
    shard = shard_of(made)
    async with shard._lock:  # hold the write back while one caller gives up
        leaving = asyncio.ensure_future(made.group_add("a", first))
        staying = asyncio.ensure_future(made.group_add("b", second))
        await asyncio.sleep(0.05)
        leaving.cancel()
    await asyncio.wait_for(staying, 5)
    with pytest.raises(asyncio.CancelledError):
        await leaving
    assert await subscribers(made, "b") == 1
    await made.group_send("b", {"type": "x.y", "to": "b"})
    assert await asyncio.wait_for(made.receive(second), 5) == {"type": "x.y", "to": "b"}


async def test_a_receiving_task_that_ended_is_started_again(made):
    channel = await made.new_channel()
    shard = shard_of(made)
    shard._receive_task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await shard._receive_task
    await made.group_add("again", channel)  # a subscription starts it again
    assert not shard._receive_task.done()
    await made.group_send("again", {"type": "x.y"})
    assert await asyncio.wait_for(made.receive(channel), 5) == {"type": "x.y"}


async def test_a_group_message_is_decoded_once_per_process_and_each_socket_owns_its_copy(
    made, monkeypatch
):
    channels = [await made.new_channel() for _ in range(3)]
    for channel in channels:
        await made.group_add("shared", channel)
    decoded = []
    real = type(made._serializer).deserialize

    def counted(serializer, message):
        decoded.append(message)
        return real(serializer, message)

    monkeypatch.setattr(type(made._serializer), "deserialize", counted)
    await made.group_send("shared", {"type": "table.version", "snapshot": {"seats": [1]}})
    received = [await asyncio.wait_for(made.receive(c), 5) for c in channels]
    assert len(decoded) == 1
    assert all(r == {"type": "table.version", "snapshot": {"seats": [1]}} for r in received)
    received[0]["type"] = "changed"  # one socket's own top level
    assert received[1]["type"] == "table.version"
    # A socket's own channel still gets its message as before.
    await made.send(channels[2], {"type": "x.y"})
    assert await asyncio.wait_for(made.receive(channels[2]), 5) == {"type": "x.y"}


async def until_dropped(count: int, before: int) -> None:
    """Wait until the shard's receiving task has dropped ``count`` messages since ``before``."""
    async with asyncio.timeout(10):
        while overflow_count() - before < count:
            await asyncio.sleep(0.02)


async def test_a_socket_that_does_not_read_holds_at_most_capacity_the_newest():
    layer = RedisPubSubLayer(
        hosts=[{"address": os.environ["REDIS_URL"]}], prefix=f"t{secrets.token_hex(4)}", capacity=3
    )
    try:
        slow, reading = await layer.new_channel(), await layer.new_channel()
        for channel in (slow, reading):
            await layer.group_add("busy", channel)
        before = overflow_count()
        for version in range(1, 11):
            await layer.group_send("busy", {"type": "table.version", "version": version})
            message = await asyncio.wait_for(layer.receive(reading), 5)
            assert message["version"] == version
        await until_dropped(7, before)
        queue = layer._get_layer().channels[slow]
        assert queue.qsize() == 3
        await asyncio.sleep(0.2)
        assert overflow_count() - before == 7
        kept = [(await layer.receive(slow))["version"] for _ in range(3)]
        assert kept == [8, 9, 10]
        # A socket's own channel is bounded the same way.
        for number in range(5):
            await layer.send(slow, {"type": "x.y", "n": number})
        await until_dropped(9, before)
        assert [(await layer.receive(slow))["n"] for _ in range(3)] == [2, 3, 4]
    finally:
        await layer.flush()


async def test_without_a_capacity_a_queue_holds_channels_redis_default(made):
    channel = await made.new_channel()
    assert made._get_layer().channels[channel].maxsize == 100
