"""Two server processes share one table through PostgreSQL and Redis, and a round completes.

Players are connected to both processes; every action taken on one must reach the players on
the other through the Redis channel layer, and the clock runs in both processes at once.
Collected only when ``REDIS_URL`` is set (CI's second pass), see tests/conftest.py.
"""

from __future__ import annotations

import asyncio

import pytest
from django.core.management import call_command

from accounts.services import user_create
from cardroom.models import Hand
from cardroom.realtime.auth import token_create
from cardroom.tables.runtime import table_create
from tests.live import live_server
from tests.remote_players import Player, legal

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


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
