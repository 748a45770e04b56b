"""Two server processes share one table through PostgreSQL and Redis, and a round completes.

Players are connected to both processes; every action taken on one must reach the players on
the other through the Redis channel layer, and the clock runs in both processes at once.
Collected only when ``REDIS_URL`` is set (CI's second pass), see tests/conftest.py.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from django.core.management import call_command

from accounts.services import user_create
from cardroom.models import Hand
from cardroom.realtime.auth import token_create
from cardroom.tables.runtime import table_create
from tests.live import live_server

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


class Player:
    def __init__(self, socket, name: str) -> None:
        self.socket = socket
        self.name = name
        self.frames: list[dict] = []
        self.next_id = 0

    async def until(self, test, timeout: float = 15.0) -> dict:
        async def wait() -> dict:
            while True:
                frame = json.loads(await self.socket.recv())
                self.frames.append(frame)
                if test(frame):
                    return frame

        return await asyncio.wait_for(wait(), timeout)

    async def act(self, **action) -> dict:
        self.next_id += 1
        ident = f"{self.name}-{self.next_id}"
        await self.socket.send(json.dumps({"type": "action", "id": ident, "action": action}))
        return await self.until(lambda f: f.get("id") == ident)


def legal(frame: dict, kind: str) -> bool:
    you = frame.get("you") or {}
    return frame.get("type") == "state" and any(
        a["kind"] == kind for a in you.get("legal_actions", [])
    )


def test_two_server_processes_share_one_table():
    import websockets

    table = table_create(
        game="guts", preset="monte_carlo",
        options={"ante": 100, "seats": 4, "showdown_seconds": 1}, name="Two servers",
    )  # fmt: skip
    tokens = {name: token_create(user=user_create(username=name)) for name in ("ann", "ben", "cat")}

    async def play(urls: list[str]) -> None:
        players = []
        for index, (name, token) in enumerate(tokens.items()):
            url = urls[index % 2].replace("http", "ws") + f"/ws/api/tables/{table.pk}/"
            socket = await websockets.connect(
                url,
                additional_headers={"Authorization": f"Bearer {token}", "Origin": urls[0]},
            )
            player = Player(socket, name)
            await player.until(lambda f: f["type"] == "state")
            players.append(player)
        for player in players:
            assert (await player.act(kind="sit", buy_in=20_000))["type"] == "ack"
        for player in players:  # the clock (in either process) opens the ante call
            await player.until(lambda f: legal(f, "ante"))
            assert (await player.act(kind="ante"))["type"] == "ack"
        for player in players:
            await player.until(lambda f: legal(f, "declare"))
        for player, choice in zip(players, ("in", "in", "out"), strict=True):
            assert (await player.act(kind="declare", choice=choice))["type"] == "ack"
        for player in players:  # ben, on the second server, sees ann's hand shown
            await player.until(
                lambda f: f.get("type") == "state"
                and any(s.get("choice") == "in" and "cards" in s for s in f["table"]["seats"]
                        if s.get("player") == "ann")
            )  # fmt: skip
        for player in players:
            await player.socket.close()

    with live_server("two-a") as first, live_server("two-b") as second:
        asyncio.run(play([first, second]))
    hand = Hand.objects.get(table=table, number=1)
    assert hand.ended is not None
    call_command("audit_ledger")
