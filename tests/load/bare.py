"""The bare broadcast: Channels' group fan-out alone (cardroom/realtime/bench.py), as a yardstick.

As many sockets as the game phase had clients, spread over the same server processes in the
same order, in groups as large as its tables. One member of each group asks the server for
bursts of group messages (never more in flight than the layer holds) and every member counts
what reaches it. Deliveries per second here
against state frames per second there says how much of the channel layer's capacity the full
stack gets. Bounded: ``burst`` messages per group, ``seconds`` at most.

That run goes as fast as the layer takes, so it saturates the machine: the servers' CPU in it
is what the scheduler leaves them beside the client and Redis, nearly the same in every run,
and its cost per delivery moves with how many deliveries the client reads in that time. With
``pace`` it asks for messages one at a time round the groups, at that rate instead: the
transport's cost at the game's own rate of frames, on a machine as loaded as the game left it.
"""

from __future__ import annotations

import asyncio
import json
import math
import time
from collections.abc import Callable
from typing import Any

BURST = 2000
#: The close code websockets gives a connection whose closing handshake did not complete.
ABNORMAL_CLOSURE = 1006
SECONDS = 5.0
#: Group messages asked for and not yet read by every member of their group, at most, in all.
#: A full channel drops a group message rather than wait, and channels_redis queues all of a
#: process's incoming messages under one key of capacity 100 (the in-memory layer, each
#: channel's 100): under that, nothing is lost, and the rate is what the layer delivers.
WINDOW = 80
#: Messages asked for at a time by one group (fewer when many groups share the window).
CHUNK = 20
#: A member that has had nothing for this long has had all it will get.
IDLE_SECONDS = 2.0
#: Handshakes at once: daphne's listen backlog is 50.
CONNECTING = 40
#: How often a paced run asks for the messages that have come due.
PACE_TICK_SECONDS = 0.01
#: How long a paced run's members read after its last ask, for the messages still on the way.
PACE_DRAIN_SECONDS = 0.5


async def open_socket(
    url: str, path: str, headers: dict[str, str] | None = None, **options: Any
) -> Any:
    import websockets

    return await websockets.connect(
        url.replace("http", "ws", 1) + path,
        additional_headers={"Origin": url, **(headers or {})},
        open_timeout=30,
        **options,
    )


class Flight:
    """Messages asked for, and those read by every member of their group, over all groups."""

    def __init__(self) -> None:
        self.asked = 0
        self.landed = 0
        self.moved = asyncio.Event()


class Group:
    """One group's sockets (the first asks for the bursts) and what each has read."""

    def __init__(self, name: str, sockets: list[Any], flight: Flight) -> None:
        self.name = name
        self.sockets = sockets
        self.flight = flight
        self.received = [0] * len(sockets)
        self.asked = 0
        self.landed = 0  # read by every member
        self.last = 0.0
        self.dropped = 0

    async def ask(self, count: int) -> None:
        await self.sockets[0].send(json.dumps({"burst": count, "group": self.name}))
        self.asked += count
        self.flight.asked += count

    async def read(self, index: int, burst: int, deadline: float) -> None:
        import websockets

        try:
            while self.received[index] < burst:
                wait = deadline - time.monotonic()
                if self.received[index]:
                    wait = min(wait, IDLE_SECONDS)
                try:
                    await asyncio.wait_for(self.sockets[index].recv(), max(0.0, wait))
                except TimeoutError:
                    return
                self.received[index] += 1
                self.last = time.monotonic()
                if (landed := min(self.received)) > self.landed:
                    self.flight.landed += landed - self.landed
                    self.landed = landed
                    self.flight.moved.set()
        except websockets.ConnectionClosed:
            self.dropped += 1


async def ask_all(groups: list[Group], flight: Flight, burst: int, deadline: float) -> None:
    """Each group's burst, a chunk at a time round the groups, within the WINDOW."""
    chunk = max(1, min(CHUNK, WINDOW // len(groups)))
    while waiting := [group for group in groups if group.asked < burst]:
        for group in waiting:
            while flight.asked - flight.landed + chunk > WINDOW:
                flight.moved.clear()
                wait = min(IDLE_SECONDS, deadline - time.monotonic())
                try:
                    await asyncio.wait_for(flight.moved.wait(), max(0.0, wait))
                except TimeoutError:
                    return  # the time is up, or a message was lost after all
            if time.monotonic() >= deadline:
                return
            await group.ask(min(chunk, burst - group.asked))


async def ask_paced(
    groups: list[Group], pace: float, burst: int, started: float, deadline: float
) -> None:
    """One message at a time round the groups, ``pace`` a second in all, until the deadline
    or each group's ``burst``: a paced run never has more in flight than the pace sends in the
    time a message takes to land, far below the WINDOW."""
    asked, total = 0, burst * len(groups)
    while (now := time.monotonic()) < deadline and asked < total:
        for _ in range(min(int(pace * (now - started)) + 1, total) - asked):
            await groups[asked % len(groups)].ask(1)
            asked += 1
        await asyncio.sleep(PACE_TICK_SECONDS)


def server_for(socket: int, group: int, servers: int, by_group: bool) -> int:
    """Which of ``servers`` the ``socket``-th socket, a member of the ``group``-th group (a
    table's players, or a bare broadcast's group), opens on: socket k on server k mod N, so a
    group's members are spread; ``by_group``: every member of group n on server n mod N, as a
    balancer that routes by table would place them.

    >>> [server_for(k, k // 3, 2, False) for k in range(6)]
    [0, 1, 0, 1, 0, 1]
    >>> [server_for(k, k // 3, 2, True) for k in range(6)]
    [0, 0, 0, 1, 1, 1]
    """
    return (group if by_group else socket) % servers


async def broadcast(
    urls: list[str],
    groups: int,
    size: int,
    *,
    burst: int = BURST,
    seconds: float = SECONDS,
    cpu: Callable[[], float | None] | None = None,
    by_group: bool = False,
    pace: float | None = None,
    route: str = "broadcast",
) -> dict[str, Any]:
    """Deliveries per second of ``burst`` messages to each of ``groups`` groups of ``size``;
    with ``pace``, of group messages asked for at that rate (a second, over all the groups)
    for ``seconds``, each group's at most ``burst``.

    Socket k on server k mod N, as the game phase places its players; ``by_group``: the
    sockets of the n-th group all on server n mod N, as the game's ``--by-table`` places them.

    ``cpu``: the servers' CPU seconds so far (None where unknown); read once every socket is
    open and again when the last delivery has been read, so ``server_cpu_seconds`` is the
    servers' cost of the deliveries alone, without the handshakes.

    ``route``: ``broadcast``, Channels' own dispatch, or ``lean``, without its thread hop per
    message, as the table sockets dispatch (cardroom/realtime/bench.py)."""
    stamp = f"{time.time_ns() % 10**12}"
    gate = asyncio.Semaphore(CONNECTING)

    async def join(number: int, name: str) -> Any:
        server = urls[server_for(number, number // size, len(urls), by_group)]
        async with gate:
            # No cap on the frames a socket holds unread (a run bounds them: a burst a
            # group): with websockets' cap, a socket left with more than it holds at the
            # deadline stops reading, never reads the server's answer to its close, and
            # waits out its close timeout (10 s a socket).
            return await open_socket(server, f"/ws/bench/{route}/?group={name}", max_queue=None)

    names = [f"bench-{stamp}-{group}" for group in range(groups)]
    sockets = await asyncio.gather(*(join(k, names[k // size]) for k in range(groups * size)))
    cpu_before = cpu() if cpu is not None else None
    flight = Flight()
    made = [Group(name, sockets[number * size : (number + 1) * size], flight)
            for number, name in enumerate(names)]  # fmt: skip
    started = time.monotonic()
    deadline = started + seconds
    if pace is None:
        asking = ask_all(made, flight, burst, deadline)
    else:
        burst = min(burst, math.ceil(pace * seconds / groups))
        asking = ask_paced(made, pace, burst, started, deadline)
        deadline += PACE_DRAIN_SECONDS
    await asyncio.gather(
        asking, *(group.read(index, burst, deadline) for group in made for index in range(size))
    )
    cpu_after = cpu() if cpu is not None else None
    await asyncio.gather(*(socket.close() for socket in sockets))
    # A close the server never answered (websockets gave up after its timeout: 1006).
    unanswered = sum(socket.close_code == ABNORMAL_CLOSURE for socket in sockets)
    delivered = sum(sum(group.received) for group in made)
    elapsed = max((group.last for group in made), default=0.0) - started
    spent = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    return {
        "deliveries": delivered,
        "expected": groups * size * burst,
        "pace": pace,
        "seconds": round(max(0.0, elapsed), 2),
        "per_s": round(delivered / elapsed, 1) if elapsed > 0 else 0.0,
        "dropped": sum(group.dropped for group in made),
        "unanswered_closes": unanswered,
        "server_cpu_seconds": None if spent is None else round(spent, 3),
        # The transport's floor: the servers' CPU for one group message reaching one socket.
        "server_cpu_ms_per_delivery": (
            round(1000 * spent / delivered, 4) if spent is not None and delivered else None
        ),
    }
