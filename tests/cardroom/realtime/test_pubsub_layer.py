"""The Redis pub/sub layer (cardroom/realtime/pubsub_layer.py) on a real Redis.

Its contract, checked through the layer's own methods and what Redis itself reports: messages
sent to a channel and to a group reach every process's members; a process is subscribed to a
group while it has a member in it, once however many it has; a burst of subscriptions shares
writes and a caller that gives up does not undo them; a channel's queue keeps the newest
``capacity`` messages and counts the rest; a cancelled receive takes nothing; a dropped
connection is subscribed again; a channel nobody waits on is dropped after ``expiry``; ``flush``
leaves nothing behind. Collected only when ``REDIS_URL`` is set (CI's second pass), see
tests/conftest.py.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis
from redis.asyncio.client import PubSub

from cardroom.realtime.overflow import overflow_count
from cardroom.realtime.pubsub_layer import CAPACITY, RedisPubSubLayer

pytestmark = pytest.mark.redis


def a_layer(**config) -> RedisPubSubLayer:
    """A layer of its own: the suite's workers (and other runs) share one Redis, a prefix apart;
    its connections are named for it, so a test can find them."""
    prefix = f"t{secrets.token_hex(4)}"
    host = {"address": os.environ["REDIS_URL"], "client_name": prefix}
    return RedisPubSubLayer(hosts=[host], prefix=prefix, **config)


@pytest.fixture
async def made() -> AsyncIterator[RedisPubSubLayer]:
    layer = a_layer()
    yield layer
    await layer.flush()


@pytest.fixture
async def other() -> AsyncIterator[RedisPubSubLayer]:
    """A second process's layer on the same prefix."""
    layer = RedisPubSubLayer(hosts=[os.environ["REDIS_URL"]], prefix="unused")
    yield layer
    await layer.flush()


@pytest.fixture
async def redis() -> AsyncIterator[aioredis.Redis]:
    client = aioredis.Redis.from_url(os.environ["REDIS_URL"])
    yield client
    await client.aclose()


async def subscribers(redis: aioredis.Redis, channel: str) -> int:
    """How many connections Redis counts on a Redis channel."""
    ((_, count),) = await redis.pubsub_numsub(channel)
    return int(count)


async def until_subscribers(redis: aioredis.Redis, channel: str, count: int) -> None:
    async with asyncio.timeout(10):
        while await subscribers(redis, channel) != count:
            await asyncio.sleep(0.05)


def group_channel(layer: RedisPubSubLayer, group: str) -> str:
    return f"{layer.prefix}:{group}"


async def test_a_channel_gets_its_messages_in_order_from_another_process(made, other):
    channel = await made.new_channel()
    for number in range(5):
        await other.send(channel, {"type": "x.y", "n": number})
    received = [await asyncio.wait_for(made.receive(channel), 5) for _ in range(5)]
    assert received == [{"type": "x.y", "n": number} for number in range(5)]


async def test_a_group_reaches_its_members_in_every_process_once_per_process(made, redis):
    second = RedisPubSubLayer(hosts=[os.environ["REDIS_URL"]], prefix=made.prefix)
    try:
        here = [await made.new_channel() for _ in range(3)]
        there = await second.new_channel()
        for channel in here:
            await made.group_add("table-1", channel)
        await second.group_add("table-1", there)
        await made.group_add("table-2", here[0])
        # One subscription per process, however many members it has.
        assert await subscribers(redis, group_channel(made, "table-1")) == 2
        await second.group_send("table-1", {"type": "table.version", "version": 4})
        for channel in here:
            assert await asyncio.wait_for(made.receive(channel), 5) == {
                "type": "table.version",
                "version": 4,
            }
        assert await asyncio.wait_for(second.receive(there), 5) == {
            "type": "table.version",
            "version": 4,
        }
        # Only the group's members got it.
        assert made.backlog("table-2") == {here[0]: 0}
    finally:
        await second.flush()


async def test_the_last_member_leaving_unsubscribes_the_process(made, redis):
    first, second = await made.new_channel(), await made.new_channel()
    await made.group_add("left", first)
    await made.group_add("left", second)
    name = group_channel(made, "left")
    await made.group_discard("left", first)
    assert await subscribers(redis, name) == 1
    await made.group_discard("left", first)  # not a member: nothing happens
    await made.group_discard("left", second)
    assert await subscribers(redis, name) == 0
    await made.group_send("left", {"type": "x.y"})
    await made.send(second, {"type": "after"})
    assert await asyncio.wait_for(made.receive(second), 5) == {"type": "after"}


async def test_a_burst_of_subscriptions_shares_writes_and_all_receive(made, redis, monkeypatch):
    writes = []
    real = PubSub.subscribe

    async def counted(pubsub, *names, **handlers):
        writes.append(len(names))
        return await real(pubsub, *names, **handlers)

    monkeypatch.setattr(PubSub, "subscribe", counted)

    async def join(number: int) -> str:
        channel = await made.new_channel()
        await made.group_add(f"table-{number % 5}", channel)
        await made.group_add(f"token-{number}", channel)
        return channel

    channels = await asyncio.wait_for(asyncio.gather(*(join(n) for n in range(40))), 10)
    assert sum(writes) == 40 + 5 + 40
    assert len(writes) < 40
    assert await subscribers(redis, group_channel(made, "table-3")) == 1
    for number in range(5):
        await made.group_send(f"table-{number}", {"type": "v.n", "table": number})
    for index, channel in enumerate(channels):
        assert await asyncio.wait_for(made.receive(channel), 5) == {
            "type": "v.n",
            "table": index % 5,
        }


async def test_a_caller_that_gives_up_leaves_the_write_whole(made, redis):
    first, second = await made.new_channel(), await made.new_channel()
    leaving = asyncio.ensure_future(made.group_add("a", first))
    staying = asyncio.ensure_future(made.group_add("b", second))
    await asyncio.sleep(0)  # both are waiting for the write
    leaving.cancel()
    await asyncio.wait_for(staying, 5)
    with pytest.raises(asyncio.CancelledError):
        await leaving
    assert await subscribers(redis, group_channel(made, "b")) == 1
    assert await subscribers(redis, group_channel(made, "a")) == 1
    await made.group_send("b", {"type": "x.y", "to": "b"})
    assert await asyncio.wait_for(made.receive(second), 5) == {"type": "x.y", "to": "b"}


async def test_a_cancelled_receive_takes_nothing(made, other):
    channel = await made.new_channel()
    with pytest.raises(TimeoutError):
        await asyncio.wait_for(made.receive(channel), 0.2)
    await other.send(channel, {"type": "x.y", "n": 1})
    await other.send(channel, {"type": "x.y", "n": 2})
    assert (await asyncio.wait_for(made.receive(channel), 5))["n"] == 1
    assert (await asyncio.wait_for(made.receive(channel), 5))["n"] == 2


async def until_dropped(count: int, before: int) -> None:
    """Wait until the layer's reading task has dropped ``count`` messages since ``before``."""
    async with asyncio.timeout(10):
        while overflow_count() - before < count:
            await asyncio.sleep(0.02)


async def test_a_channel_that_is_not_read_keeps_the_newest_capacity_and_counts_the_rest():
    layer = a_layer(capacity=3)
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
        assert layer.backlog("busy") == {slow: 3, reading: 0}
        await asyncio.sleep(0.2)
        assert overflow_count() - before == 7
        kept = [(await layer.receive(slow))["version"] for _ in range(3)]
        assert kept == [8, 9, 10]
        # A channel's own messages are bounded the same way.
        for number in range(5):
            await layer.send(slow, {"type": "x.y", "n": number})
        await until_dropped(9, before)
        assert [(await layer.receive(slow))["n"] for _ in range(3)] == [2, 3, 4]
    finally:
        await layer.flush()


async def test_without_a_capacity_a_channel_keeps_channels_default(made):
    channel = await made.new_channel()
    before = overflow_count()
    for number in range(CAPACITY + 5):
        await made.send(channel, {"type": "x.y", "n": number})
    await until_dropped(5, before)
    assert (await made.receive(channel))["n"] == 5


async def test_a_killed_connection_is_subscribed_again(made, redis):
    channel = await made.new_channel()
    await made.group_add("kept", channel)
    name = group_channel(made, "kept")
    assert await subscribers(redis, name) == 1
    clients = await redis.client_list()
    ours = [client["id"] for client in clients if client.get("name") == made.prefix]
    assert ours
    for ident in ours:
        await redis.client_kill_filter(_id=ident)
    await until_subscribers(redis, name, 1)
    await until_subscribers(redis, channel, 1)
    await made.group_send("kept", {"type": "x.y", "n": 1})
    await made.send(channel, {"type": "x.y", "n": 2})
    assert (await asyncio.wait_for(made.receive(channel), 5))["n"] == 1
    assert (await asyncio.wait_for(made.receive(channel), 5))["n"] == 2


async def test_a_channel_left_by_its_consumer_is_dropped_after_expiry(redis):
    layer = a_layer(expiry=1)
    try:
        kept, busy, gone, unread = [await layer.new_channel() for _ in range(4)]
        for channel in (kept, busy, gone):
            await layer.group_add("room", channel)
        await layer.group_add("alone", gone)
        waiting = asyncio.ensure_future(layer.receive(kept))
        # A consumer busy with its message (longer than the expiry) is not gone.
        await layer.send(busy, {"type": "x.y"})
        assert await asyncio.wait_for(layer.receive(busy), 5) == {"type": "x.y"}
        with pytest.raises(TimeoutError):  # a consumer that ended
            await asyncio.wait_for(layer.receive(gone), 0.1)
        await until_subscribers(redis, gone, 0)
        await until_subscribers(redis, unread, 0)  # made and never received on
        await until_subscribers(redis, group_channel(layer, "alone"), 0)
        assert layer.backlog("room") == {kept: 0, busy: 0}
        assert await subscribers(redis, busy) == 1
        assert await subscribers(redis, group_channel(layer, "room")) == 1
        await layer.group_send("room", {"type": "x.y"})
        assert await asyncio.wait_for(waiting, 5) == {"type": "x.y"}
        assert await asyncio.wait_for(layer.receive(busy), 5) == {"type": "x.y"}
    finally:
        await layer.flush()


async def test_flush_leaves_nothing_subscribed_and_the_layer_goes_on(made, redis):
    channel = await made.new_channel()
    await made.group_add("flushed", channel)
    await made.send(channel, {"type": "x.y"})
    await made.flush()
    assert await subscribers(redis, channel) == 0
    assert await subscribers(redis, group_channel(made, "flushed")) == 0
    assert made.backlog("flushed") == {}
    again = await made.new_channel()
    await made.group_add("flushed", again)
    await made.group_send("flushed", {"type": "x.y", "n": 3})
    assert await asyncio.wait_for(made.receive(again), 5) == {"type": "x.y", "n": 3}


async def test_bad_names_and_foreign_channels_are_refused(made):
    channel = await made.new_channel()
    with pytest.raises(TypeError):
        await made.group_add("no spaces", channel)
    with pytest.raises(ValueError, match="not a channel of this process"):
        await made.group_add("room", "elsewhere.specific.abc")
    with pytest.raises(TypeError):
        await made.send("no:colons", {"type": "x.y"})


async def test_publishes_asked_for_together_share_round_trips_in_order(made, monkeypatch):
    from redis.asyncio.client import Pipeline

    trips: list[int] = []
    real = Pipeline.execute

    async def counted(pipe, *args, **kwargs):
        trips.append(len(pipe.command_stack))
        return await real(pipe, *args, **kwargs)

    monkeypatch.setattr(Pipeline, "execute", counted)
    channel = await made.new_channel()
    await made.group_add("table-9", channel)
    sends = [made.group_send("table-9", {"type": "v.n", "n": n}) for n in range(30)]
    await asyncio.wait_for(asyncio.gather(*sends), 5)
    assert sum(trips) == 30 and len(trips) <= 2  # the first alone at most, the rest together
    received = [await asyncio.wait_for(made.receive(channel), 5) for _ in range(30)]
    assert received == [{"type": "v.n", "n": n} for n in range(30)]


async def test_a_failed_round_trip_reaches_its_callers_and_the_next_goes(made, monkeypatch):
    from redis.asyncio.client import Pipeline

    real = Pipeline.execute
    failing = [True]

    async def flaky(pipe, *args, **kwargs):
        if failing.pop() if failing else False:
            raise ConnectionError("Redis went away")
        return await real(pipe, *args, **kwargs)

    monkeypatch.setattr(Pipeline, "execute", flaky)
    channel = await made.new_channel()
    with pytest.raises(ConnectionError):
        await made.send(channel, {"type": "lost"})
    await made.send(channel, {"type": "kept"})
    assert await asyncio.wait_for(made.receive(channel), 5) == {"type": "kept"}


async def test_publishes_left_unsent_by_a_flush_fail_their_callers_without_cancelling_them():
    layer = a_layer()
    channel = await layer.new_channel()
    sending = [asyncio.ensure_future(layer.send(channel, {"type": "x", "n": n})) for n in range(3)]
    await asyncio.sleep(0)  # asked for, not yet sent
    await layer.flush()
    results = await asyncio.gather(*sending, return_exceptions=True)
    assert all(isinstance(result, ConnectionError) for result in results)
    assert not any(task.cancelled() for task in sending)
