"""Group sends handed to the server's loop are bounded (cardroom/realtime/broadcast.py)."""

from __future__ import annotations

import asyncio

from cardroom.realtime import broadcast


class SlowLayer:
    """A channel layer whose sends wait until released, counting those under way."""

    def __init__(self) -> None:
        self.under_way = self.most = 0
        self.sent: list[int] = []
        self.release = asyncio.Event()

    async def group_send(self, group: str, message: dict) -> None:
        self.under_way += 1
        self.most = max(self.most, self.under_way)
        await self.release.wait()
        self.sent.append(message["version"])
        self.under_way -= 1


async def test_at_most_so_many_sends_are_under_way_and_none_is_lost():
    layer = SlowLayer()
    count = broadcast.SENDING_AT_ONCE * 3
    sends = [
        asyncio.ensure_future(broadcast._send(layer, "table-1", {"version": n}))
        for n in range(count)
    ]
    for _ in range(20):
        await asyncio.sleep(0)
    assert layer.most == broadcast.SENDING_AT_ONCE
    layer.release.set()
    await asyncio.gather(*sends)
    assert sorted(layer.sent) == list(range(count))
    # First come, first sent: the earliest sends went before any that waited.
    assert sorted(layer.sent[: broadcast.SENDING_AT_ONCE]) == list(range(broadcast.SENDING_AT_ONCE))
