"""The channel layer over Redis pub/sub: Channels' layer contract, each socket's queue bounded.

Written against Channels' channel layer specification (``BaseChannelLayer``; extensions
``groups`` and ``flush``) and redis-py's public asyncio API, messages packed with msgpack.

- ``send`` publishes the message on the channel's own Redis channel; ``group_send`` publishes it
  once, on the group's. The publishes asked for while one round trip of them is under way go
  together in the next (one pipeline, in the order asked), and each caller returns when its
  own is done: a publish waits for no subscription, and at most for one round trip of others.
- ``new_channel`` names a channel of this process and subscribes to it; ``receive`` returns its
  messages in the order they reached the process. A receive that is cancelled takes nothing:
  the messages after it wait for the next receive.
- Groups are kept in memory, per process: the process is subscribed to a group's Redis channel
  while it has a member in it, and hands each message to its members there.
- Subscriptions and unsubscriptions are written by one task of the event loop, on the loop's one
  pub/sub connection: every request made while a write is under way goes in the next write,
  one SUBSCRIBE and one UNSUBSCRIBE for all of them, so a burst of sockets opening costs a few
  writes, never a queue of them. A caller cancelled while it waits leaves the write whole.
- A dropped connection is made again by redis-py, which subscribes it again to all it had;
  while Redis is away the reading task tries again every ``RETRY_SECONDS``.
- Delivery is at most once, as pub/sub's: what is published while a process is not connected
  never reaches it. Each channel's queue in the process holds at most ``capacity`` messages
  (``CHANNEL_LAYERS``' CONFIG, ``CAPACITY`` when unset), a new one taking the place of the oldest
  (cardroom/realtime/overflow.py counts and logs each, and says why the oldest): a sender cannot
  be refused, since a message reaches a process after it was published.
- A channel that nobody has waited on for ``expiry`` seconds (Channels' message expiry) since it
  was made or since its last receive was cancelled is dropped with its memberships and
  subscription: it belonged to a consumer that is gone (Channels cancels a consumer's receive
  when it ends). A receive that returned leaves its channel kept, however long the consumer
  takes over the message.
- Queues and connections belong to one event loop: each loop has its own, closed by ``flush`` or
  when the loop finishes its asynchronous generators (``asyncio.run`` does, before closing it).
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
import weakref
from collections.abc import AsyncGenerator
from typing import Any

import msgpack
from channels.layers import BaseChannelLayer
from django.core.exceptions import ImproperlyConfigured
from redis.asyncio import Redis

from cardroom.realtime.overflow import DroppingQueue

__all__ = ["CAPACITY", "RETRY_SECONDS", "RedisPubSubLayer"]

log = logging.getLogger(__name__)

#: Messages a channel's queue holds when ``capacity`` is not configured (Channels' default).
CAPACITY = 100
#: Seconds between two tries of the reading task while Redis cannot be reached.
RETRY_SECONDS = 1.0
#: The longest wait for a message before the reading task looks for idle channels (and redis-py
#: for a health check that is due).
READ_SECONDS = 1.0


class RedisPubSubLayer(BaseChannelLayer):  # type: ignore[misc]
    """``CHANNEL_LAYERS`` backend. ``hosts``: one Redis, a URL or ``{"address": URL, ...}``
    whose other keys go to ``redis.asyncio.Redis.from_url``; ``prefix`` keeps deployments (or
    test workers) sharing a Redis apart."""

    extensions = ["groups", "flush"]

    def __init__(
        self,
        hosts: list[str | dict[str, Any]] | None = None,
        prefix: str = "asgi",
        expiry: int = 60,
        capacity: int = CAPACITY,
        channel_capacity: dict[str, int] | None = None,
    ) -> None:
        super().__init__(expiry=expiry, capacity=capacity)
        self.channel_capacity = self.compile_capacities(channel_capacity or {})
        if not hosts or len(hosts) != 1:
            raise ImproperlyConfigured("RedisPubSubLayer takes exactly one Redis in 'hosts'")
        (host,) = hosts
        self.options = dict(host) if isinstance(host, dict) else {"address": host}
        self.address = self.options.pop("address")
        self.prefix = prefix
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Loop] = (
            weakref.WeakKeyDictionary()
        )

    async def _here(self) -> _Loop:
        loop = asyncio.get_running_loop()
        here = self._loops.get(loop)
        if here is None:
            here = self._loops[loop] = _Loop(self)
            await here.closer.__anext__()  # the loop closes it with its asynchronous generators
        return here

    def _group(self, group: str) -> str:
        # A channel's name cannot hold ":", so no group's Redis channel is a channel's.
        self.require_valid_group_name(group)
        return f"{self.prefix}:{group}"

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        await (await self._here()).publish(channel, msgpack.packb(message))

    async def new_channel(self, prefix: str = "specific.") -> str:
        channel = f"{self.prefix}.{prefix}{uuid.uuid4().hex}"
        await (await self._here()).open(channel)
        return channel

    async def receive(self, channel: str) -> dict[str, Any]:
        self.require_valid_channel_name(channel)
        here = await self._here()
        queue = here.queues.get(channel)
        if queue is None:
            queue = await here.open(channel)
        here.waiting[channel] = here.waiting.get(channel, 0) + 1
        here.idle.pop(channel, None)
        try:
            data = await queue.get()
        except BaseException:
            # Cancelled: the consumer may be gone. One that is only busy with the message it
            # got is not idle, however long that takes.
            if here.waiting[channel] == 1:
                here.idle[channel] = time.monotonic()
            raise
        finally:
            here.waiting[channel] -= 1
            if not here.waiting[channel]:
                del here.waiting[channel]
        message: dict[str, Any] = msgpack.unpackb(data)
        return message

    async def group_add(self, group: str, channel: str) -> None:
        name = self._group(group)
        self.require_valid_channel_name(channel)
        here = await self._here()
        if channel not in here.queues:
            raise ValueError(f"{channel!r} is not a channel of this process (new_channel)")
        here.groups.setdefault(name, set()).add(channel)
        here.memberships.setdefault(channel, set()).add(name)
        await here.change(name)

    async def group_discard(self, group: str, channel: str) -> None:
        name = self._group(group)
        self.require_valid_channel_name(channel)
        here = await self._here()
        if here.leave(name, channel):
            await here.change(name)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        await (await self._here()).publish(self._group(group), msgpack.packb(message))

    async def flush(self) -> None:
        """Drop this event loop's channels, groups and messages and close its connections; the
        layer goes on as new."""
        here = self._loops.pop(asyncio.get_running_loop(), None)
        if here is not None:
            await here.closer.aclose()

    close = flush

    def backlog(self, group: str) -> dict[str, int]:
        """How many messages wait for each of ``group``'s members in this event loop."""
        here = self._loops.get(asyncio.get_running_loop())
        if here is None:
            return {}
        members = here.groups.get(self._group(group), ())
        return {channel: here.queues[channel].qsize() for channel in members}


def _closed(done: asyncio.Future[None]) -> None:
    """Publishes that will not be sent: their callers get an error (a failed publish, as a
    lost connection), not a cancellation they did not ask for."""
    if not done.done():
        done.set_exception(ConnectionError("the channel layer was closed"))


class _Loop:
    """One event loop's connections, channels and groups."""

    def __init__(self, layer: RedisPubSubLayer) -> None:
        self.layer = layer
        self.redis = Redis.from_url(layer.address, **layer.options)
        self.pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        self.queues: dict[str, DroppingQueue] = {}
        #: A group's Redis channel -> its members here; a channel -> the groups it is in.
        self.groups: dict[str, set[str]] = {}
        self.memberships: dict[str, set[str]] = {}
        #: Receives waiting on a channel; since when nobody has waited on one.
        self.waiting: dict[str, int] = {}
        self.idle: dict[str, float] = {}
        self.swept = time.monotonic()
        #: Redis channels subscribed to; those whose subscription may have to change.
        self.subscribed: set[str] = set()
        self.changed: set[str] = set()
        #: Resolved when the write holding the changes asked for since the last write is done.
        self.next_write: asyncio.Future[None] | None = None
        self.writer: asyncio.Task[None] | None = None
        self.reader: asyncio.Task[None] | None = None
        #: The publishes asked for since the last round trip began, and when they are done.
        self.outgoing: tuple[list[tuple[str, bytes]], asyncio.Future[None]] | None = None
        self.sender: asyncio.Task[None] | None = None
        self.closer = self._closing()

    async def _closing(self) -> AsyncGenerator[None, None]:
        try:
            yield
        finally:
            await self.close()

    async def close(self) -> None:
        tasks = [task for task in (self.reader, self.writer, self.sender) if task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if self.next_write is not None:
            self.next_write.cancel()
        if self.outgoing is not None:
            _closed(self.outgoing[1])
            self.outgoing = None
        self.queues, self.groups, self.memberships = {}, {}, {}
        await self.pubsub.aclose()  # type: ignore[no-untyped-call]  # redis-py leaves it bare
        await self.redis.aclose()

    async def publish(self, name: str, data: bytes) -> None:
        """Publish ``data`` on the Redis channel ``name`` with the others asked for meanwhile.
        Under load a process publishes hundreds of messages a second (every version, every
        forwarded action and its answer); one at a time, each took a pooled connection, a
        send and a read of its own through redis-py's command path."""
        if self.outgoing is None:
            done = asyncio.get_running_loop().create_future()
            # Retrieved here: its callers may all have given up.
            done.add_done_callback(lambda future: future.cancelled() or future.exception())
            self.outgoing = ([], done)
        batch, done = self.outgoing
        batch.append((name, data))
        if self.sender is None or self.sender.done():
            self.sender = asyncio.create_task(self._send())
        await asyncio.shield(done)

    async def _send(self) -> None:
        while self.outgoing is not None:
            (batch, done), self.outgoing = self.outgoing, None
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for name, data in batch:
                        pipe.publish(name, data)
                    await pipe.execute()
            except asyncio.CancelledError:
                _closed(done)  # the loop's state is being closed: not its callers' cancelling
                raise
            except Exception as error:
                done.set_exception(error)
            else:
                done.set_result(None)

    async def open(self, channel: str) -> DroppingQueue:
        queue = self.queues[channel] = DroppingQueue(self.layer.get_capacity(channel), channel)
        self.idle[channel] = time.monotonic()
        await self.change(channel)
        return queue

    def leave(self, name: str, channel: str) -> bool:
        """Take ``channel`` out of the group ``name``; whether the group has no member left."""
        members = self.groups.get(name)
        if members is None or channel not in members:
            return False
        members.discard(channel)
        groups = self.memberships[channel]
        groups.discard(name)
        if not groups:
            del self.memberships[channel]
        if members:
            return False
        del self.groups[name]
        return True

    async def change(self, name: str) -> None:
        """Subscribe to ``name`` or unsubscribe from it, as it is wanted, in the next write."""
        await asyncio.shield(self._ask(name))

    def _ask(self, name: str) -> asyncio.Future[None]:
        self.changed.add(name)
        if self.next_write is None:
            self.next_write = asyncio.get_running_loop().create_future()
            # Retrieved here: a request from the sweep is not awaited by anyone.
            self.next_write.add_done_callback(lambda done: done.cancelled() or done.exception())
        if self.writer is None or self.writer.done():
            self.writer = asyncio.create_task(self._write())
        return self.next_write

    async def _write(self) -> None:
        while self.changed:
            names, self.changed = self.changed, set()
            done, self.next_write = self.next_write, None
            assert done is not None
            try:
                wanted = {name for name in names if name in self.queues or name in self.groups}
                adding = wanted - self.subscribed
                dropping = (names - wanted) & self.subscribed
                if adding:
                    await self.pubsub.subscribe(*adding)
                    self.subscribed |= adding
                if dropping:
                    await self.pubsub.unsubscribe(*dropping)
                    self.subscribed -= dropping
                if self.reader is None or self.reader.done():
                    self.reader = asyncio.create_task(self._read())
            except asyncio.CancelledError:
                done.cancel()  # the loop's state is being closed: its callers stop too
                raise
            except Exception as error:
                done.set_exception(error)
            else:
                done.set_result(None)

    async def _read(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(
                    ignore_subscribe_messages=True, timeout=READ_SECONDS
                )
                if message is not None:
                    self._deliver(message["channel"].decode(), message["data"])
                if time.monotonic() - self.swept >= READ_SECONDS:
                    self._sweep()
            except Exception:
                # Redis away (redis-py reconnects and subscribes again at the next read), or a
                # bug: either way this process's sockets still need the task.
                log.warning("Redis pub/sub read failed; trying again", exc_info=True)
                await asyncio.sleep(RETRY_SECONDS)

    def _deliver(self, name: str, data: bytes) -> None:
        queue = self.queues.get(name)
        if queue is not None:
            queue.put_nowait(data)
        for channel in self.groups.get(name, ()):
            self.queues[channel].put_nowait(data)

    def _sweep(self) -> None:
        """Drop the channels left idle (the module's docstring) for ``expiry`` seconds."""
        self.swept = now = time.monotonic()
        for channel, since in list(self.idle.items()):
            if now - since >= self.layer.expiry:
                del self.idle[channel], self.queues[channel]
                for name in list(self.memberships.get(channel, ())):
                    if self.leave(name, channel):
                        self._ask(name)
                self._ask(channel)
