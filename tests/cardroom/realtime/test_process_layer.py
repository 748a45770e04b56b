"""The embedded default's channel layer (cardroom/realtime/layer.py) keeps Channels' contract."""

from __future__ import annotations

import asyncio

import pytest
from channels.exceptions import ChannelFull

from cardroom.realtime.layer import ProcessChannelLayer
from cardroom.realtime.overflow import overflow_count


async def test_a_group_message_reaches_every_member_with_its_snapshot_shared():
    layer = ProcessChannelLayer()
    channels = [await layer.new_channel() for _ in range(3)]
    for channel in channels[:2]:
        await layer.group_add("table-1", channel)
    snapshot = {"version": 4, "state": {"seats": [None, {"cards": ["As"]}]}}
    await layer.group_send("table-1", {"type": "table.version", "snapshot": snapshot})
    first, second = [await layer.receive(channel) for channel in channels[:2]]
    assert first == second == {"type": "table.version", "snapshot": snapshot}
    assert first is not second  # each its own message ...
    assert first["snapshot"] is second["snapshot"] is snapshot  # ... sharing the snapshot
    assert channels[2] not in layer.channels  # not a member: nothing queued


async def test_a_full_channel_drops_its_oldest_group_message_and_refuses_a_direct_one():
    layer = ProcessChannelLayer(capacity=1)
    channel = await layer.new_channel()
    await layer.group_add("table-1", channel)
    before = overflow_count()
    await layer.group_send("table-1", {"type": "one"})
    await layer.group_send("table-1", {"type": "two"})  # full: "one" goes (overflow.py)
    with pytest.raises(ChannelFull):
        await layer.send(channel, {"type": "three"})  # a sender that can be told is told
    assert overflow_count() - before == 2
    assert await layer.receive(channel) == {"type": "two"}


async def test_a_channel_that_is_not_read_holds_at_most_its_capacity_the_newest():
    layer = ProcessChannelLayer(capacity=3)
    slow, reading = await layer.new_channel(), await layer.new_channel()
    for channel in (slow, reading):
        await layer.group_add("table-1", channel)
    before = overflow_count()
    for version in range(1, 11):
        await layer.group_send("table-1", {"type": "table.version", "version": version})
        assert (await layer.receive(reading))["version"] == version
        assert layer.channels[slow].qsize() <= 3
    assert overflow_count() - before == 7
    kept = [(await layer.receive(slow))["version"] for _ in range(3)]
    assert kept == [8, 9, 10]
    # A receive that finds no queue (it went when emptied) makes the same bounded one: five
    # messages sent before the waiting receive runs again leave the newest three.
    waiting = asyncio.ensure_future(layer.receive(slow))
    await asyncio.sleep(0)
    for version in range(11, 16):
        await layer.group_send("table-1", {"type": "table.version", "version": version})
    assert layer.channels[slow].qsize() == 3
    assert (await waiting)["version"] == 13


async def test_expired_messages_still_go_with_their_channel_leaving_its_groups():
    layer = ProcessChannelLayer(expiry=-1)  # every message is expired as soon as it is sent
    gone, kept = await layer.new_channel(), await layer.new_channel()
    for channel in (gone, kept):
        await layer.group_add("table-1", channel)
    await layer.send(gone, {"type": "old"})
    layer._cleaned = 0.0  # the next scan is due
    layer._clean_expired()
    assert gone not in layer.groups["table-1"] and kept in layer.groups["table-1"]
    assert gone not in layer.channels
