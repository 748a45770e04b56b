"""channels_redis's pub/sub layer, without the one lock every publish waited for.

channels_redis 4.3 gives each Redis host (here: each process's one connection to Redis) a single
``asyncio.Lock``, and takes it for every publish as well as for every subscribe. A publish is
one command on a pooled connection of its own: the lock guarded nothing there, yet it made all
of a process's group sends and all of its sockets' subscriptions go one at a time, each holding
the lock for a whole round trip to Redis. Under load that queue grew without bound: pushes came
later and later, and a socket opening during a burst (it subscribes three times before it is
accepted: its own channel, its table's group, its token's group) waited behind every queued
push until daphne's five-second handshake timeout closed it. That was the handshake that "never
opened" in docs/architecture.md's measurements.

Here a publish takes no lock, and subscriptions are written in batches by one task of the
shard: every socket waiting to subscribe (or unsubscribe) is served by one SUBSCRIBE (one
UNSUBSCRIBE) on the shared pub/sub connection, which is still written under the lock, so no two
writes interleave on it and ``flush`` still excludes them. A caller that is cancelled (a socket
closing while it waits) never cancels a write half done: it waits on the batch through
``asyncio.shield``. The receiving task is started again if it ever ended.

Each socket's queue of the messages waiting for it in this process holds at most ``capacity``
of them (``CHANNEL_LAYERS``' CONFIG, 100 when unset, as channels_redis's other layer), where
channels_redis's pub/sub layer ignored the setting and let a socket that fell behind grow the
process's memory without limit. It is channels_redis's own bounded queue (``BoundedQueue``, its
other layer's receive buffer), which drops the oldest message waiting to take a new one; each
drop is counted and logged (cardroom/realtime/overflow.py, which says why the oldest). Pub/sub
cannot refuse a sender as a list can: a message reaches a process after it was published.

Everything else (message format, groups in memory, the receive loop) is channels_redis's own.
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close

from cardroom.realtime.overflow import DroppingQueue

__all__ = ["CAPACITY", "RedisPubSubLayer"]

#: Messages a socket's queue holds when ``capacity`` is not configured (channels_redis's and
#: Channels' default for their other layers).
CAPACITY = 100


class _Shard(RedisSingleShardConnection):  # type: ignore[misc]
    """One Redis host's connections: publishes side by side, subscriptions in batches."""

    def __init__(self, host: Any, channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        self._receive_task: asyncio.Future[None] | None = None
        #: Channel -> whether it should be subscribed; the latest request for a channel wins.
        self._wanted: dict[str, bool] = {}
        #: Resolved once the batch holding the requests made since the last batch is written.
        self._next_batch: asyncio.Future[None] | None = None
        self._writer: asyncio.Task[None] | None = None

    async def publish(self, channel: str, message: bytes) -> None:
        self._ensure_redis()  # no await before the command: nothing can close it in between
        await self._redis.publish(channel, message)

    async def subscribe(self, channel: str) -> None:
        await self._request(channel, wanted=True)

    async def unsubscribe(self, channel: str) -> None:
        await self._request(channel, wanted=False)

    async def _request(self, channel: str, *, wanted: bool) -> None:
        self._wanted[channel] = wanted
        if self._next_batch is None:
            self._next_batch = asyncio.get_running_loop().create_future()
        batch = self._next_batch
        if self._writer is None or self._writer.done():
            self._writer = asyncio.ensure_future(self._write_batches())
        await asyncio.shield(batch)

    async def _write_batches(self) -> None:
        """Write what is wanted, batch after batch, until nothing more is asked."""
        while self._wanted:
            wanted, self._wanted = self._wanted, {}
            batch, self._next_batch = self._next_batch, None
            assert batch is not None
            try:
                async with self._lock:
                    self._ensure_redis()
                    self._ensure_receiver()
                    adding = [name for name, on in wanted.items()
                              if on and name not in self._subscribed_to]  # fmt: skip
                    dropping = [name for name, on in wanted.items()
                                if not on and name in self._subscribed_to]  # fmt: skip
                    if adding:
                        await self._pubsub.subscribe(*adding)
                        self._subscribed_to.update(adding)
                    if dropping:
                        await self._pubsub.unsubscribe(*dropping)
                        self._subscribed_to.difference_update(dropping)
            except BaseException as error:
                if not batch.done():
                    batch.set_exception(error)
                if isinstance(error, asyncio.CancelledError):
                    raise
            else:
                if not batch.done():
                    batch.set_result(None)

    def _receive_message(self, message: dict[str, Any] | None) -> None:
        """A group's message is decoded once for all of this process's sockets in the group
        (channels_redis decoded it once per socket: a table's version carries its whole
        snapshot, and decoding was 5-7 % of a server's busy time at 100 tables); each socket
        gets its own copy of the top level, the rest is shared and read-only (as in
        cardroom/realtime/layer.py)."""
        if message is None:
            return
        name, data = message["channel"], message["data"]
        if isinstance(name, bytes):
            name = name.decode()
        layer = self.channel_layer
        if name in layer.channels:
            layer.channels[name].put_nowait(data)
            return
        members = [layer.channels[channel] for channel in layer.groups.get(name, ())
                   if channel in layer.channels]  # fmt: skip
        if members:
            decoded = _Decoded(layer.channel_layer.deserialize(data))
            for queue in members:
                queue.put_nowait(decoded)

    def _ensure_receiver(self) -> None:
        # channels_redis starts the receiving task once; one that ended would leave every
        # socket of the process without messages while their handshakes still succeeded.
        if self._receive_task is None or self._receive_task.done():
            self._receive_task = asyncio.ensure_future(self._do_receiving())


class _Decoded(dict[str, Any]):
    """A group message already decoded by its shard (``RedisPubSubLayer.deserialize``)."""


class _LoopLayer(RedisPubSubLoopLayer):  # type: ignore[misc]
    def __init__(self, *args: Any, capacity: int = CAPACITY, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.capacity = capacity
        stock: list[Any] = self._shards
        self._shards: list[_Shard] = [_Shard(shard.host, self) for shard in stock]

    async def _subscribe_to_channel(self, channel: str) -> None:
        # channels_redis's, with a bounded queue where it made an unbounded one.
        self.channels[channel] = DroppingQueue(self.capacity, channel)
        await self._get_shard(channel).subscribe(channel)


class RedisPubSubLayer(RedisPubSubChannelLayer):  # type: ignore[misc]
    """``CHANNEL_LAYERS`` backend: channels_redis's pub/sub layer with the shards above."""

    def deserialize(self, message: bytes | _Decoded) -> dict[str, Any]:
        if isinstance(message, _Decoded):
            return dict(message)  # this socket's own top level
        decoded: dict[str, Any] = super().deserialize(message)
        return decoded

    def _get_layer(self) -> Any:
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer
