"""The server's benchmark: bots over the JSON protocol against real servers, bounded.

``python -m tests.load.load [--processes N | --url URL[,URL...]] --tables 5 --players 5
--hands 6 [--decision-seconds 4 --ante-seconds 4 --showdown-seconds 1] [--stagger 0]
[--spread | --by-table] [--bare-seconds 5] [--json]``

It creates Survivor tables and players (with API tokens) in the configured database, starts N
daphne processes on loopback unless ``--url`` names servers (started with CARDROOM_BENCH=1),
and puts each table's players on one of them, the n-th table's on the n-th process mod N, and
each group of the bare broadcast likewise, as the deployment's nginx routes a table's sockets
(docs/deploy.md; nginx's hash balances the tables less evenly). ``--spread`` puts client k on
process k mod N instead, so a table's players sit on different processes (``--by-table``, the
default, is kept for the scripts that name it). Each client antes
and declares from its own view; one player in three lets every other declare time out, so the
clock's lateness is measured too. By default every table's
players sit at the same moment, once all the room's sockets are open, so with equal timers
the tables deal in step and each phase
reaches the servers as one burst from all of them; ``--stagger S`` spreads the tables' first
sits evenly over S seconds instead, as tables that filled at their own moments deal (the two
measure different things: docs/performance.md, "Tables in step"). Once the tables have stopped
(the bots sit out as they go), the same number of sockets in groups of the same size measure a
bare Channels group broadcast (tests/load/bare.py): the yardstick for the full stack's state
frames per second; then the same again, paced at the game's own rate of frames; then the
saturated one again, dispatched as the table sockets are (``bare_lean``). Every loop
is bounded in count and time; the script stops by itself.

Reported: the action round trip (send to ack) and the timeout lateness (deadline to the pushed
result), as percentiles, and the round trip once every player sat (``round_trip_seated``: the
room's play without its opening) and by the second each was sent (``round_trip_by_second``);
state frames per second (received by all clients); bare deliveries per second and the ratio of
the two; sockets the server dropped or that would not open (must
be 0); error frames by code; the syncs the bots sent (after a refusal, or when nothing came
long after a deadline: the sign of group messages a full channel dropped); how far apart the
tables' first sits were sent (``sits_spread_seconds``: about ``--stagger``); the client's own CPU
time in the game, since it shares the machine with its servers; and the servers' CPU in the
game, in all and per hand dealt, and against the transport's floor: ``cost_vs_bare``, the CPU
per hand over (state frames per hand × the bare broadcast's server CPU per delivery, measured
in the same run) (servers it started only); ``server_cpu_ms_per_hand_seated`` and
``cost_vs_bare_seated``, the same while the whole room was seated and playing, from the last
sit answered to the first table's last hand (``seated_window``: its CPU seconds, hands and
frames), a hand in play without the players' arrivals and departures; ``cost_vs_bare_paced``,
the CPU per hand against the floor of the bare broadcast paced at the game's rate of frames
(``bare_paced``), which, unlike the saturated run's, does not move with how fast the client
reads; ``cost_vs_bare_lean``, against the floor without Channels' thread hop before each
message (``bare_lean``, ``bare_lean_cpu_ms_per_delivery``), which the table sockets skip: the
stricter yardstick, as the stock floor pays a hop they do not. In step (no
``--stagger``), ``phase_ms_per_table``: for the ante and the declare, the time from the first
hand's phase's first action sent to its last answered, over all tables, divided by the tables;
None when staggered. In step the tables sit once the room's sockets are open, so the phases
start together (``sits_spread_seconds`` about 0); staggered, a table sits at its moment or once
its sockets are open, whichever is later. ``sockets_open_seconds``: how long the room's sockets
took to open; in step, ``server_cpu_ms_per_handshake``: the servers' CPU until then, per socket
opened (the handshakes' cost; None when staggered).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import statistics
import time
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import django

from tests.load import bare

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
ROOT = Path(__file__).resolve().parents[2]
Plan = list[tuple[int, list[tuple[str, str]]]]
#: A bot that has heard nothing this long after a deadline asks for the state.
STALE_SECONDS = 2.0
#: How long the game's tables may take to stop before the bare broadcast starts anyway.
SETTLE_SECONDS = 15.0


def seated_round_trips(bots: list[Bot]) -> dict[str, float]:
    """The percentiles of the round trips sent once the last sit of the room was answered
    (none when some bot never sat)."""
    sat = [bot.sat_at for bot in bots]
    if not sat or any(moment is None for moment in sat):
        return percentiles([])
    seated = max(moment for moment in sat if moment is not None)
    return percentiles(
        [took for bot in bots for sent, _, took in bot.sent_kind_took if sent >= seated]
    )


def room_count(tables: dict[int, list[Bot]]) -> tuple[int, int]:
    """Hands played so far (each table's, as the bot that saw most of them counts it) and
    state frames received, over the room."""
    hands = sum(max((bot.hands for bot in mates), default=0) for mates in tables.values())
    return hands, sum(bot.state_frames for mates in tables.values() for bot in mates)


async def seated_window(
    tables: dict[int, list[Bot]], players: int, hands: int
) -> dict[str, float] | None:
    """The servers' CPU, the hands played and the state frames received while the whole room
    was in play: from the moment every player's sit was answered to the moment the first table
    played its last hand, so that no socket opened, sat, sat out or closed meanwhile. None if
    the room never sat whole, or a server's CPU cannot be read. Cancelled with the game."""
    bots = [bot for mates in tables.values() for bot in mates]
    while len(bots) < players or any(bot.sat_at is None and not bot.dropped for bot in bots):
        await asyncio.sleep(0.05)
        bots = [bot for mates in tables.values() for bot in mates]
    cpu, (played, frames) = children_cpu_seconds(), room_count(tables)
    while not any(mates[0].table_done(hands) for mates in tables.values() if mates):
        await asyncio.sleep(0.05)
    after, (played_after, frames_after) = children_cpu_seconds(), room_count(tables)
    if cpu is None or after is None:
        return None
    return {"cpu_seconds": after - cpu, "hands": played_after - played,
            "state_frames": frames_after - frames}  # fmt: skip


def percentiles(values: list[float]) -> dict[str, float]:
    """p50, p95, p99 and max in milliseconds (zeros when empty)."""
    if not values:
        return {"count": 0, "p50_ms": 0.0, "p95_ms": 0.0, "p99_ms": 0.0, "max_ms": 0.0}
    ordered = sorted(values)

    def rank(share: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000, 1)

    return {
        "count": len(ordered),
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p95_ms": rank(0.95),
        "p99_ms": rank(0.99),
        "max_ms": round(ordered[-1] * 1000, 1),
    }


#: The phases every table goes through each hand, whose clearing time in step is reported.
PHASES = ("ante", "declare")


def phase_clearing(answered: list[tuple[str, int, float, float]], tables: int) -> dict[str, float]:
    """For each of PHASES, the time from the first hand's phase's first action sent (at any
    table) to its last one answered, divided by the tables, in milliseconds: with every table
    in step, one table's share of the time the servers take to clear the phase (the first
    hand's ante phase also holds the tail of the sits before it). Only the first hand counts:
    the tables sat together, and each hand's timers then start from its own table's last
    moves, so later hands drift apart by their round trips. The lazy players' timeouts are
    not actions.

    >>> phase_clearing([("ante", 0, 0.0, 0.2), ("ante", 0, 0.01, 0.4), ("ante", 1, 5.0, 5.3)], 2)
    {'ante': 200.0}
    """
    first: dict[str, tuple[float, float]] = {}
    for kind, hand, sent, answered_at in answered:
        if hand == 0:
            start, end = first.get(kind, (sent, answered_at))
            first[kind] = (min(start, sent), max(end, answered_at))
    return {
        kind: round((first[kind][1] - first[kind][0]) * 1000 / max(1, tables), 2)
        for kind in PHASES
        if kind in first
    }


def by_second(sent_kind_took: list[tuple[float, str, float]]) -> list[dict[str, Any]]:
    """The round trips by the second they were sent, counted from the first action sent (a
    sit): for each second, how many, their p50 and p99, and how many of them were sits. The
    opening (handshakes and sits) and the play after it, told apart second by second.

    >>> by_second([(10.0, "sit", 0.2), (10.5, "sit", 0.1), (11.2, "ante", 0.01)])
    [{'second': 0, 'count': 2, 'p50_ms': 150.0, 'p99_ms': 200.0, 'sits': 2}, \
{'second': 1, 'count': 1, 'p50_ms': 10.0, 'p99_ms': 10.0, 'sits': 0}]
    """
    if not sent_kind_took:
        return []
    start = min(sent for sent, _, _ in sent_kind_took)
    seconds: dict[int, list[tuple[str, float]]] = {}
    for sent, kind, took in sent_kind_took:
        seconds.setdefault(int(sent - start), []).append((kind, took))
    rows = []
    for second in sorted(seconds):
        spread = percentiles([value for _, value in seconds[second]])
        rows.append(
            {
                "second": second,
                "count": spread["count"],
                "p50_ms": spread["p50_ms"],
                "p99_ms": spread["p99_ms"],
                "sits": sum(kind == "sit" for kind, _ in seconds[second]),
            }
        )
    return rows


def declare_choice(cards: list[str]) -> str:
    """A bot's declare: in with a pair or a ten or better, else out."""
    ranks = sorted("23456789TJQKA".index(card[0]) for card in cards)
    return "in" if len(set(ranks)) < len(ranks) or ranks[-1] >= 10 else "out"


class Bot:
    """One player's connection: acts from its own view, timing every round trip."""

    def __init__(self, socket: Any, name: str, lazy: bool) -> None:
        self.socket = socket
        self.name = name
        self.lazy = lazy
        self.kinds: dict[str, str] = {}
        #: Each answered action: (when it was sent, its kind, its round trip).
        self.sent_kind_took: list[tuple[float, str, float]] = []
        #: When this bot's sit was answered (``time.monotonic()``).
        self.sat_at: float | None = None
        #: Each acknowledged ante and declare: (kind, the hand it was for, sent, answered).
        self.answered: list[tuple[str, int, float, float]] = []
        self.hands_of: dict[str, int] = {}
        self.timeout_delays: list[float] = []
        self.errors: Counter[str] = Counter()
        self.state_frames = 0
        self.dropped = False
        self.hands = 0
        self.pending: dict[str, float] = {}
        self.next_id = 0
        self.deadline: datetime | None = None
        self.phase = ""
        self.mates: list[Bot] = [self]
        self.syncs = 0
        self.synced_for: datetime | None = None

    async def act(self, **action: Any) -> None:
        self.next_id += 1
        ident = f"{self.name}-{self.next_id}"
        self.pending[ident] = time.monotonic()
        self.kinds[ident] = action["kind"]
        self.hands_of[ident] = self.hands
        await self.socket.send(json.dumps({"type": "action", "id": ident, "action": action}))

    def table_done(self, hands: int) -> bool:
        """Every connected player at this table has played ``hands``: a bot that stopped
        earlier would stop acting, and the others would wait on its timeouts."""
        return min((bot.hands for bot in self.mates if not bot.dropped), default=hands) >= hands

    async def run(self, hands: int, stop_at: float) -> None:
        import websockets

        try:
            while not self.table_done(hands) and (now := time.monotonic()) < stop_at:
                try:
                    text = await asyncio.wait_for(self.socket.recv(), min(1.0, stop_at - now))
                except TimeoutError:
                    await self.sync_if_stale()
                    continue
                await self.on_frame(json.loads(text))
        except websockets.ConnectionClosed:
            self.dropped = True  # the server closed it: nothing here ever does

    async def sync(self) -> None:
        self.syncs += 1
        await self.socket.send(json.dumps({"type": "sync"}))

    async def sync_if_stale(self) -> None:
        """Ask for the state once when the deadline is long gone and nothing came: a version
        the channel layer dropped (a full channel drops) would leave this bot waiting."""
        deadline = self.deadline
        if deadline is None or deadline == self.synced_for:
            return
        if (datetime.now(deadline.tzinfo) - deadline).total_seconds() > STALE_SECONDS:
            self.synced_for = deadline
            await self.sync()

    async def on_frame(self, frame: dict[str, Any]) -> None:
        if frame["type"] in ("ack", "error") and frame.get("id") in self.pending:
            now = time.monotonic()
            sent = self.pending.pop(frame["id"])
            took = now - sent
            kind = self.kinds.pop(frame["id"], "?")
            self.sent_kind_took.append((sent, kind, took))
            if kind == "sit" and frame["type"] == "ack" and self.sat_at is None:
                self.sat_at = now
            hand = self.hands_of.pop(frame["id"], 0)
            if frame["type"] == "ack" and kind in PHASES:
                self.answered.append((kind, hand, sent, now))
        if frame["type"] == "error":
            self.errors[frame.get("code", "?")] += 1
            if frame.get("code") == "refused":
                await self.sync()  # as the protocol asks: this bot's view was out of date
        if frame["type"] == "state":
            self.state_frames += 1
            await self.on_state(frame)

    async def on_state(self, frame: dict[str, Any]) -> None:
        table = frame["table"]
        phase = table.get("phase", "")
        if self.phase == "declare" and phase != "declare":
            self.hands += 1
            if self.deadline is not None and self.lazy_declared_never:
                delay = (datetime.now(self.deadline.tzinfo) - self.deadline).total_seconds()
                self.timeout_delays.append(max(0.0, delay))
        self.phase = phase
        deadline = table.get("deadline")
        self.deadline = datetime.fromisoformat(deadline) if deadline else None
        legal = {a["kind"] for a in (frame.get("you") or {}).get("legal_actions", [])}
        self.lazy_declared_never = False
        if "ante" in legal:
            await self.once(kind="ante")
        elif "declare" in legal:
            if self.lazy and self.hands % 2 == 0:
                self.lazy_declared_never = True  # let the clock muck this one
                return
            await self.once(kind="declare", choice=declare_choice(frame["you"]["cards"]))
        elif "sit_in" in legal:  # sat out by the clock after a missed ante
            await self.once(kind="sit_in")
        elif "top_up" in legal and table["seats"]:
            mine = next(s for s in table["seats"] if s.get("player") == self.name)
            if mine.get("stack", 0) < 1000:
                await self.once(kind="top_up", amount=5000)

    lazy_declared_never = False
    acted: tuple[str, str, datetime | None] = ("", "", None)

    async def once(self, **action: Any) -> None:
        """Act once per decision: every other player's move pushes a frame that still offers
        this one until it is applied, and sending it again would only be refused."""
        decision = (action["kind"], self.phase, self.deadline)
        if decision != self.acted:
            self.acted = decision
            await self.act(**action)


def setup(tables: int, players: int, timers: dict[str, float]) -> Plan:
    """Tables with their players' names and tokens, created in the configured database."""
    from accounts.services import user_create
    from cardroom.realtime.auth import token_create
    from cardroom.tables.runtime import table_create

    stamp = int(time.time() * 1000) % 10**9
    made = []
    for number in range(tables):
        table = table_create(
            game="guts", preset="survivor", name=f"load {stamp}-{number}",
            options={"ante": 100, "seats": max(2, players), **timers},
        )  # fmt: skip
        seated = []
        for index in range(players):
            user = user_create(username=f"load{stamp}t{number}p{index}")
            seated.append((user.username, token_create(user=user)))
        made.append((table.pk, seated))
    return made


def sit_delays(tables: int, stagger: float) -> list[float]:
    """When each table's players sit, in seconds from the start: all at once (0, the default),
    or spread evenly over ``stagger`` seconds, as a room's tables fill at their own moments."""
    return [index * stagger / tables for index in range(tables)]


async def play(
    urls: list[str],
    plan: Plan,
    hands: int,
    seconds: float,
    stagger: float = 0.0,
    by_table: bool = True,
) -> dict[str, Any]:
    """The game phase: the players of the n-th table all on server n mod N; without
    ``by_table``, client k on server k mod N, so a table's players are spread."""
    import websockets

    gate = asyncio.Semaphore(bare.CONNECTING)
    tables: dict[int, list[Bot]] = {table_id: [] for table_id, _ in plan}
    started = time.monotonic()

    delays = dict(zip(tables, sit_delays(len(plan), stagger), strict=True))
    sat: dict[int, float] = {}  #: when each table's first sit was sent, from the start

    opened = succeeded = 0
    room_open = asyncio.Event()
    # The servers' CPU from the start until every socket is open: in step, nothing else is
    # sent meanwhile, so it is the handshakes' cost (with the servers' idle work).
    cpu_at_start = children_cpu_seconds()
    open_at: dict[str, float | None] = {}

    async def join(url: str, table_id: int, name: str, token: str, lazy: bool) -> Bot:
        """Open, sit and play. Staggered, a table sits at its moment or as soon as its
        sockets are open, whichever is later; in step, every table sits at once when the
        whole room's sockets are open (else the handshakes would spread the sits)."""
        nonlocal opened, succeeded
        try:
            async with gate:
                path = f"/ws/api/tables/{table_id}/"
                socket = await bare.open_socket(url, path, {"Authorization": f"Bearer {token}"})
            succeeded += 1
        finally:
            opened += 1
            if opened == len(players):
                room_open.set()
                open_at.update(seconds=time.monotonic() - started, cpu=children_cpu_seconds())
        bot = Bot(socket, name, lazy)
        bot.mates = tables[table_id]
        bot.mates.append(bot)
        if not stagger:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(
                    room_open.wait(), max(0.0, started + seconds - time.monotonic())
                )
        await asyncio.sleep(max(0.0, started + delays[table_id] - time.monotonic()))
        sat.setdefault(table_id, time.monotonic() - started)
        try:
            await bot.act(kind="sit", buy_in=20_000)
        except websockets.ConnectionClosed:
            bot.dropped = True
            return bot
        await bot.run(hands, started + seconds)
        return bot

    players = [(table_id, index, *player) for table_id, seated in plan
               for index, player in enumerate(seated)]  # fmt: skip
    place = {table_id: number for number, (table_id, _) in enumerate(plan)}
    window = asyncio.create_task(seated_window(tables, len(players), hands))
    joined = await asyncio.gather(
        *(join(urls[bare.server_for(k, place[table_id], len(urls), by_table)], table_id, name,
               token, lazy=index % 3 == 0)
          for k, (table_id, index, name, token) in enumerate(players)),
        return_exceptions=True,
    )  # fmt: skip
    for outcome in joined:  # a socket that would not open is counted; anything else is a bug
        if isinstance(outcome, BaseException) and not isinstance(
            outcome, OSError | TimeoutError | websockets.WebSocketException
        ):
            raise outcome
    bots = [bot for mates in tables.values() for bot in mates]
    elapsed = time.monotonic() - started
    seated = window.result() if window.done() else None
    window.cancel()
    for bot in bots:  # no more hands for these seats, so the tables stop soon (see settle)
        with contextlib.suppress(websockets.ConnectionClosed):
            await bot.socket.send(
                json.dumps({"type": "action", "id": "done", "action": {"kind": "sit_out"}})
            )
    # All at once: a socket that stopped reading with frames still coming may wait out its
    # close timeout (tests/load/bare.py says why), and one after another those waits add up.
    await asyncio.gather(*(bot.socket.close() for bot in bots))
    frames = sum(bot.state_frames for bot in bots)
    answered = [row for bot in bots for row in bot.sent_kind_took]
    return {
        "tables": len(plan),
        "clients": len(bots),
        "hands_per_table": min((bot.hands for bot in bots), default=0),
        "seconds": round(elapsed, 2),
        "actions": len(answered),
        # Hands dealt in all: each table's count, as the bot that saw most of them counts it.
        "hands": sum(max((bot.hands for bot in mates), default=0) for mates in tables.values()),
        "round_trip": percentiles([took for _, _, took in answered]),
        "round_trip_by_kind": {
            kind: percentiles([took for _, of, took in answered if of == kind])
            for kind in sorted({kind for _, kind, _ in answered})
        },
        # Once every player of the room sat: the room's play without its opening (every
        # socket's handshake and sit), which the whole run's percentiles include.
        "round_trip_seated": seated_round_trips(bots),
        "timeout_delay": percentiles([t for bot in bots for t in bot.timeout_delays]),
        # Second by second from the first sit: where the opening ends and the play begins.
        "round_trip_by_second": by_second(answered),
        # In step (no --stagger) the time the servers take to clear one phase, per table.
        "phase_ms_per_table": (
            phase_clearing([row for bot in bots for row in bot.answered], len(plan))
            if not stagger
            else None
        ),
        "syncs": sum(bot.syncs for bot in bots),
        # How long every socket of the room took to open, and in step the servers' CPU per
        # handshake (staggered, the first sits overlap the handshakes: None).
        "sockets_open_seconds": round(open_at.get("seconds") or 0.0, 2),
        "server_cpu_ms_per_handshake": handshake_cpu_ms(
            cpu_at_start, open_at.get("cpu"), succeeded, stagger
        ),
        # From the first table's first sit to the last table's: about --stagger, or ~0.
        "sits_spread_seconds": round(max(sat.values()) - min(sat.values()), 2) if sat else 0.0,
        "state_frames": frames,
        "state_frames_per_s": round(frames / elapsed, 1) if elapsed > 0 else 0.0,
        "dropped_sockets": len(players) - len(bots) + sum(bot.dropped for bot in bots),
        "errors": dict(sum((bot.errors for bot in bots), Counter())),
        # The servers' CPU, hands and frames while the whole room was seated and playing.
        "seated_window": seated,
    }


async def settle(plan: Plan) -> float:
    """Wait, at most SETTLE_SECONDS, until the game's tables stop: their bots gone, the clock
    plays out their hands for a few seconds, work the bare broadcast should not share."""
    from asgiref.sync import sync_to_async
    from django.db import connection

    from cardroom.models import Table

    ids = [table_id for table_id, _ in plan]

    def ticking() -> bool:
        try:
            return Table.objects.filter(pk__in=ids, deadline__isnull=False).exists()
        finally:
            connection.close()  # this thread's own: nothing may hold the database after

    started = time.monotonic()
    while time.monotonic() - started < SETTLE_SECONDS and await sync_to_async(ticking)():
        await asyncio.sleep(0.25)
    return round(time.monotonic() - started, 2)


def teardown(plan: Plan) -> int:
    """Close the game's tables (cashing their players out), so a run leaves no seated, away
    players behind for the next run's clock to sit out and stand up; how many closed."""
    from cardroom.tables.control import table_close
    from games.engine import IllegalAction

    closed = 0
    for table_id, _ in plan:
        with contextlib.suppress(IllegalAction):  # closed already
            table_close(table_id=table_id)
            closed += 1
    return closed


async def measure(urls: list[str], plan: Plan, args: argparse.Namespace) -> dict[str, Any]:
    """The game, then right after it the bare broadcast over as many sockets."""
    cpu, servers, database = time.process_time(), children_cpu_seconds(), database_cpu_seconds()
    game = await play(urls, plan, args.hands, args.seconds, args.stagger, args.by_table)
    result = {
        "processes": len(urls),
        "stagger_seconds": args.stagger,
        "by_table": args.by_table,
        **game,
    }
    # The load's own share of the machine, which its servers share too.
    result["client_cpu_seconds"] = round(time.process_time() - cpu, 2)
    # The servers' CPU in the game alone: steadier from run to run than the percentiles, which
    # move with whatever else the machine runs; None for servers given with --url.
    if servers is not None and (after := children_cpu_seconds()) is not None:
        result["server_cpu_seconds"] = round(after - servers, 2)
        result["server_cpu_ms_per_hand"] = ms_per_hand(after - servers, result["hands"])
    # PostgreSQL's share beside them, where it runs on this machine: a change that moves work
    # from the servers to the database shows here.
    result["database_cpu_seconds"] = result["database_cpu_ms_per_hand"] = None
    if database is not None and (after := database_cpu_seconds()) is not None:
        result["database_cpu_seconds"] = round(after - database, 2)
        result["database_cpu_ms_per_hand"] = ms_per_hand(after - database, result["hands"])
    seated = result["seated_window"]
    result["server_cpu_ms_per_hand_seated"] = (
        ms_per_hand(seated["cpu_seconds"], seated["hands"])
        if seated and servers is not None
        else None
    )
    result["settle_seconds"] = await settle(plan)
    # A server given with --url and started without CARDROOM_BENCH=1 has no bench route.
    broadcast = await bare_or_error(urls, len(plan), args)
    result["bare_broadcast"] = broadcast
    result["bare_broadcast_per_s"] = broadcast["per_s"]
    result["dropped_sockets"] += broadcast["dropped"]
    # The same fan-out at the game's own rate of frames: the floor at the game's load.
    paced: dict[str, Any] = {"error": "no bare broadcast to pace"}
    if "error" not in broadcast and result["state_frames_per_s"]:
        paced = await bare_or_error(
            urls, len(plan), args, pace=result["state_frames_per_s"] / args.players
        )
        result["dropped_sockets"] += paced["dropped"]
    result["bare_paced"] = paced
    # And the fan-out as the table sockets dispatch it, without Channels' thread hop per message.
    lean: dict[str, Any] = {"error": "no bare broadcast"}
    if "error" not in broadcast:
        lean = await bare_or_error(urls, len(plan), args, route="lean")
        result["dropped_sockets"] += lean["dropped"]
    result["bare_lean"] = lean
    per_s = broadcast["per_s"]
    result["ratio"] = float(f"{result['state_frames_per_s'] / per_s:.4g}") if per_s else None
    result.update(cost_vs_bare(result))
    return result


async def bare_or_error(
    urls: list[str],
    groups: int,
    args: argparse.Namespace,
    pace: float | None = None,
    route: str = "broadcast",
) -> dict[str, Any]:
    """``bare.broadcast`` over the game's groups and servers; where it cannot run, its error,
    so that the game's figures are reported all the same."""
    import websockets

    try:
        return await bare.broadcast(
            urls, groups, args.players, cpu=children_cpu_seconds, by_group=args.by_table,
            pace=pace, route=route, seconds=args.bare_seconds,
        )  # fmt: skip
    except (OSError, TimeoutError, websockets.WebSocketException) as error:
        return {"error": f"{type(error).__name__}: {error}", "per_s": 0.0, "dropped": 0}


def cost_vs_bare(result: dict[str, Any]) -> dict[str, Any]:
    """The servers' CPU per hand against the transport's floor for the frames a hand sends:
    ``cost_vs_bare`` = CPU ms per hand / (state frames per hand × the bare broadcast's CPU ms
    per delivery, from the same run). 1 would be a server whose whole cost is Channels' own
    fan-out of the frames; None when a figure is missing (servers given with --url).
    ``cost_vs_bare_paced``: the same against the bare broadcast paced at the game's rate of
    frames, whose floor does not move with how fast the load's client reads.
    ``cost_vs_bare_lean``: against the saturated broadcast dispatched as the table sockets are,
    without Channels' thread hop before each message, which the stock floor pays and they do
    not: the stricter yardstick."""
    hands = result.get("hands") or 0
    frames_per_hand = result["state_frames"] / hands if hands else None
    floor = result["bare_broadcast"].get("server_cpu_ms_per_delivery")
    per_hand = result.get("server_cpu_ms_per_hand")
    known = frames_per_hand and floor and per_hand
    # The same once the room sat and before it began to leave: a hand in play, without the
    # players' arrivals and departures, which a run of few hands a table weighs heavily.
    seated = result.get("seated_window") or {}
    seated_hands = seated.get("hands") or 0
    seated_frames = seated["state_frames"] / seated_hands if seated_hands else None
    seated_cpu = result.get("server_cpu_ms_per_hand_seated")
    seated_known = seated_frames and floor and seated_cpu
    # Against the floor at the game's own rate too (the bare broadcast paced, tests/load/bare.py).
    paced = (result.get("bare_paced") or {}).get("server_cpu_ms_per_delivery")
    paced_known = frames_per_hand and paced and per_hand
    lean = (result.get("bare_lean") or {}).get("server_cpu_ms_per_delivery")
    lean_known = frames_per_hand and lean and per_hand
    return {
        "state_frames_per_hand": round(frames_per_hand, 1) if frames_per_hand else None,
        "bare_cpu_ms_per_delivery": floor,
        "cost_vs_bare": round(per_hand / (frames_per_hand * floor), 2) if known else None,
        "cost_vs_bare_seated": (
            round(seated_cpu / (seated_frames * floor), 2) if seated_known else None
        ),
        "bare_paced_cpu_ms_per_delivery": paced,
        "cost_vs_bare_paced": (
            round(per_hand / (frames_per_hand * paced), 2) if paced_known else None
        ),
        "bare_lean_cpu_ms_per_delivery": lean,
        "cost_vs_bare_lean": round(per_hand / (frames_per_hand * lean), 2) if lean_known else None,
    }


def handshake_cpu_ms(
    before: float | None, after: float | None, sockets: int, stagger: float
) -> float | None:
    """The servers' CPU per socket opened, in milliseconds: in step only (staggered, the
    first sits are sent while the last sockets open), and None without the servers' CPU or
    an open socket."""
    if stagger or before is None or after is None or not sockets:
        return None
    return round(1000 * (after - before) / sockets, 2)


def children_cpu_seconds() -> float | None:
    """CPU seconds (user and system) used so far by this process's children: the servers it
    started. Read from /proc (Linux); None where there is none, or no child."""
    proc = Path("/proc")
    if not proc.is_dir():
        return None
    ticks, total, found = os.sysconf("SC_CLK_TCK"), 0, False
    for stat in proc.glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue  # gone meanwhile
        # After the command's name: state, parent, ... user time is field 14, system 15.
        if int(fields[1]) == os.getpid():
            total, found = total + int(fields[11]) + int(fields[12]), True
    return total / ticks if found else None


def ms_per_hand(seconds: float, hands: int) -> float | None:
    """CPU seconds over the hands dealt, in milliseconds a hand (None before any hand)."""
    return round(1000 * seconds / hands, 1) if hands else None


#: Where the database counts as on this machine.
LOOPBACK = frozenset({"localhost", "127.0.0.1", "::1"})


def database_cpu_seconds() -> float | None:
    """CPU seconds (user and system) used so far by the PostgreSQL server the run writes to,
    where it runs on this machine: its processes' own, and those of its processes that have
    ended, which the server's first process counts as its children's. Read from /proc (Linux);
    None for another database, one elsewhere, or where /proc does not show it. Every database
    of that server counts, the run's and any other's."""
    from django.db import connection

    host = connection.settings_dict.get("HOST") or "localhost"
    proc = Path("/proc")
    if connection.vendor != "postgresql" or host not in LOOPBACK or not proc.is_dir():
        return None
    ticks, found = os.sysconf("SC_CLK_TCK"), {}
    for stat in proc.glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue  # gone meanwhile
        name, fields = text[text.find("(") + 1 : text.rfind(")")], text.rsplit(")", 1)[1].split()
        if name == "postgres":
            found[int(stat.parent.name)] = (int(fields[1]), [int(field) for field in fields[11:15]])
    if not found:
        return None
    total = 0
    for parent, (user, system, children_user, children_system) in found.values():
        total += user + system
        if parent not in found:  # the server's first process: its ended children's CPU too
            total += children_user + children_system
    return total / ticks


def summary(result: dict[str, Any]) -> str:
    """One line for a person."""
    errors = ", ".join(f"{code} {n}" for code, n in sorted(result["errors"].items())) or "none"
    processes = result["processes"]
    return (
        f"{result['tables']} tables, {result['clients']} clients on {processes} "
        f"process{'es' if processes > 1 else ''}, {result['hands_per_table']} hands per table in "
        f"{result['seconds']} s: round trip p50 {result['round_trip']['p50_ms']} ms, "
        f"p99 {result['round_trip']['p99_ms']} ms (once all sat: "
        f"{result['round_trip_seated']['p99_ms']} ms); timeout lateness p99 "
        f"{result['timeout_delay']['p99_ms']} ms; {result['state_frames_per_s']} state frames/s"
        f" vs {result['bare_broadcast_per_s']} bare broadcast deliveries/s (ratio "
        f"{result['ratio']}); server CPU {result.get('server_cpu_ms_per_hand')} ms a hand, "
        f"{result.get('cost_vs_bare')} times the bare broadcast's cost of its "
        f"{result.get('state_frames_per_hand')} frames (once all sat: "
        f"{result.get('server_cpu_ms_per_hand_seated')} ms, {result.get('cost_vs_bare_seated')}"
        f" times; {result.get('cost_vs_bare_paced')} times the same paced at the game's rate; "
        f"{result.get('cost_vs_bare_lean')} times the floor without Channels' hop a message); "
        + (
            f"PostgreSQL CPU {database} ms a hand; "
            if (database := result.get("database_cpu_ms_per_hand")) is not None
            else ""
        )
        + f"{result['dropped_sockets']} dropped sockets; errors: {errors}"
    )


def secret_key_env() -> dict[str, str]:
    """Outside the tests and DEBUG the settings refuse to start without a secret key: unless
    the environment or the key file (as cardroom/settings.py reads them) has one, one key
    generated here, the same for every process."""
    if os.environ.get("DJANGO_SECRET_KEY"):
        return {}
    path = Path(os.environ.get("CARDROOM_SECRET_KEY_FILE") or ROOT / ".local" / "secret_key")
    if path.exists() and path.read_text().strip():
        return {}
    return {"DJANGO_SECRET_KEY": secrets.token_urlsafe(50)}


def unshared() -> str | None:
    """Why several server processes cannot run on this configuration, or None."""
    from django.conf import settings
    from django.db import connection

    missing = []
    if connection.vendor != "postgresql":
        missing.append("DATABASE_URL (PostgreSQL)")
    if not settings.REDIS_URL:
        missing.append("REDIS_URL")
    if not missing:
        return None
    return (
        "several processes need a database and a channel layer they share; the embedded "
        "default (SQLite and the in-memory layer) serves one process only. Missing: "
        f"{' and '.join(missing)}; for example DATABASE_URL=postgres://postgres@127.0.0.1:5432/"
        "cardroom REDIS_URL=redis://127.0.0.1:6379/0, or --processes 1"
    )


def parse(argv: list[str] | None) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--url", default="", help="servers to use (comma-separated), not start")
    parser.add_argument("--processes", type=int, default=1, help="daphne processes to start")
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--decision-seconds", type=float, default=4.0)
    parser.add_argument("--ante-seconds", type=float, default=4.0)
    parser.add_argument("--showdown-seconds", type=float, default=1.0)
    parser.add_argument("--seconds", type=float, default=120.0, help="stop the game this soon")
    parser.add_argument(
        "--bare-seconds",
        type=float,
        default=bare.SECONDS,
        help="each bare broadcast's bound in seconds (default: %(default)s)",
    )
    parser.add_argument(
        "--stagger",
        type=float,
        default=0.0,
        help="spread the tables' first sits over this many seconds (default: all at once)",
    )
    placement = parser.add_mutually_exclusive_group()
    placement.add_argument(
        "--by-table",
        action="store_true",
        help="each table's players on one server, as the deployment's nginx routes them "
        "(the default; the flag is kept for the scripts that pass it)",
    )
    placement.add_argument(
        "--spread",
        action="store_true",
        help="client k on server k mod N instead, so a table's players are spread",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not (1 <= args.tables <= 200 and 2 <= args.players <= 10 and 1 <= args.hands <= 1000):
        parser.error("bounds: 1-200 tables, 2-10 players, 1-1000 hands")
    if not (1 <= args.processes <= 16 and 0 < args.seconds <= 3600):
        parser.error("bounds: 1-16 processes, at most 3600 seconds")
    timers = (args.decision_seconds, args.ante_seconds, args.showdown_seconds)
    if not 0 <= args.stagger <= args.seconds:
        parser.error("bounds: --stagger from 0 to --seconds")
    if not all(0.1 <= timer <= 600 for timer in timers):
        parser.error("bounds: table timers from 0.1 to 600 seconds")
    if args.url and args.processes != 1:
        parser.error("--processes starts servers; with --url, list theirs comma-separated")
    args.by_table = not args.spread
    return parser, args


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser, args = parse(argv)
    from django.conf import settings

    if not settings.configured:  # run as a script: this process loads the settings too
        os.environ.update(secret_key_env())
    django.setup()
    if args.processes > 1 and (why := unshared()):
        parser.error(f"--processes {args.processes}: {why}")
    timers = {
        "decision_seconds": args.decision_seconds,
        "ante_seconds": args.ante_seconds,
        "showdown_seconds": args.showdown_seconds,
    }
    plan = setup(args.tables, args.players, timers)
    if args.url:
        urls = [url.rstrip("/") for url in args.url.split(",") if url]
        result = asyncio.run(measure(urls, plan, args))
    else:
        from tests.live import live_servers

        env = {"CARDROOM_BENCH": "1", **secret_key_env()}
        with live_servers("load", args.processes, env) as urls:
            result = asyncio.run(measure(urls, plan, args))
    result["tables_closed"] = teardown(plan)
    if args.json:
        print(json.dumps(result))
    else:
        print(json.dumps(result, indent=2))
        print(summary(result))
    return result


if __name__ == "__main__":
    main()
