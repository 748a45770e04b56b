"""The server's load script: bots over the JSON protocol against a real server, bounded.

``python -m tests.load.load [--url URL] --tables 2 --players 3 --hands 5 [--json]``

It creates Survivor tables and players (with API tokens) in the configured database, starts a
server on loopback unless ``--url`` names one, and plays: each client antes and declares from its
own view, one seat per table lets every third declare time out, so the clock's delay is measured
too. Every loop is bounded in count and time; the script stops by itself. It prints the action
round trip (send to ack) and the timeout delay (deadline to the pushed result) as percentiles.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import time
from datetime import datetime
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")


def percentiles(values: list[float]) -> dict[str, float]:
    """p50, p95 and max in milliseconds (zeros when empty)."""
    if not values:
        return {"count": 0, "p50_ms": 0.0, "p95_ms": 0.0, "max_ms": 0.0}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
    return {
        "count": len(ordered),
        "p50_ms": round(statistics.median(ordered) * 1000, 1),
        "p95_ms": round(p95 * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
    }


class Bot:
    """One player's connection: acts from its own view, timing every round trip."""

    def __init__(self, socket: Any, name: str, lazy: bool) -> None:
        self.socket = socket
        self.name = name
        self.lazy = lazy
        self.round_trips: list[float] = []
        self.timeout_delays: list[float] = []
        self.hands = 0
        self.pending: dict[str, float] = {}
        self.next_id = 0
        self.deadline: datetime | None = None
        self.phase = ""

    async def act(self, **action: Any) -> None:
        self.next_id += 1
        ident = f"{self.name}-{self.next_id}"
        self.pending[ident] = time.monotonic()
        await self.socket.send(json.dumps({"type": "action", "id": ident, "action": action}))

    async def run(self, hands: int, stop_at: float) -> None:
        while self.hands < hands and time.monotonic() < stop_at:
            try:
                text = await asyncio.wait_for(self.socket.recv(), stop_at - time.monotonic())
            except TimeoutError:
                return
            frame = json.loads(text)
            if frame["type"] in ("ack", "error") and frame.get("id") in self.pending:
                self.round_trips.append(time.monotonic() - self.pending.pop(frame["id"]))
            if frame["type"] == "state":
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
            await self.act(kind="ante")
        elif "declare" in legal:
            if self.lazy and self.hands % 3 == 0:
                self.lazy_declared_never = True  # let the clock muck this one
                return
            cards = frame["you"]["cards"]
            ranks = sorted("23456789TJQKA".index(card[0]) for card in cards)
            pair = len(set(ranks)) < 3
            await self.act(kind="declare", choice="in" if pair or ranks[-1] >= 10 else "out")
        elif "top_up" in legal and table["seats"]:
            mine = next(s for s in table["seats"] if s.get("player") == self.name)
            if mine.get("stack", 0) < 1000:
                await self.act(kind="top_up", amount=5000)

    lazy_declared_never = False


def setup(tables: int, players: int) -> list[tuple[int, list[tuple[str, str]]]]:
    """Tables with their players' names and tokens, created in the configured database."""
    from accounts.services import user_create
    from cardroom.auth import token_create
    from cardroom.runtime import table_create

    stamp = int(time.time() * 1000) % 10**9
    made = []
    for number in range(tables):
        table = table_create(
            game="guts", preset="survivor", name=f"load {stamp}-{number}",
            options={"ante": 100, "seats": max(2, players), "showdown_seconds": 0.5,
                     "decision_seconds": 2, "ante_seconds": 2},
        )  # fmt: skip
        seated = []
        for index in range(players):
            user = user_create(username=f"load{stamp}t{number}p{index}")
            seated.append((user.username, token_create(user=user)))
        made.append((table.pk, seated))
    return made


async def play(url: str, plan: list[tuple[int, list[tuple[str, str]]]], hands: int,
               seconds: float) -> dict[str, Any]:  # fmt: skip
    import websockets

    bots: list[Bot] = []
    for table_id, seated in plan:
        for index, (name, token) in enumerate(seated):
            socket = await websockets.connect(
                url.replace("http", "ws") + f"/ws/api/tables/{table_id}/",
                additional_headers={"Authorization": f"Bearer {token}", "Origin": url},
            )
            bot = Bot(socket, name, lazy=index == 0)
            bots.append(bot)
            await bot.act(kind="sit", buy_in=20_000)
    started = time.monotonic()
    await asyncio.gather(*(bot.run(hands, started + seconds) for bot in bots))
    elapsed = time.monotonic() - started
    for bot in bots:
        await bot.socket.close()
    played = min(bot.hands for bot in bots)
    return {
        "tables": len(plan),
        "clients": len(bots),
        "hands_per_table": played,
        "seconds": round(elapsed, 2),
        "actions": sum(len(bot.round_trips) for bot in bots),
        "round_trip": percentiles([t for bot in bots for t in bot.round_trips]),
        "timeout_delay": percentiles([t for bot in bots for t in bot.timeout_delays]),
    }


def main(argv: list[str] | None = None) -> dict[str, Any]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="")
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=120.0, help="stop after this long")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if not (1 <= args.tables <= 50 and 2 <= args.players <= 10 and 1 <= args.hands <= 1000):
        parser.error("bounds: 1-50 tables, 2-10 players, 1-1000 hands")
    django.setup()
    plan = setup(args.tables, args.players)
    if args.url:
        result = asyncio.run(play(args.url, plan, args.hands, args.seconds))
    else:
        from tests.live import live_server

        with live_server("load") as url:
            result = asyncio.run(play(url, plan, args.hands, args.seconds))
    print(json.dumps(result) if args.json else json.dumps(result, indent=2))
    return result


if __name__ == "__main__":
    main()
