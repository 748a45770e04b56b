"""The deployment's shape on one machine: nginx in front of two daphne processes (deploy/).

deploy/cluster.py, which ``make cluster`` runs, starts them on the test database and Redis,
with the clock alone under ``runclock`` (test_two_servers.py has the clock in each process).
Two players play a hand of Survivor Guts through nginx, each served by a different daphne
process, as each process's log shows, and each sees the other's cards at the showdown.
Collected only when ``REDIS_URL`` is set (CI's second pass), see tests/conftest.py. Bounded:
25 s to start, 20 s to play, seconds to stop.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
from django.core.management import call_command

from accounts.services import user_create
from cardroom.models import Hand
from cardroom.realtime.auth import token_create
from cardroom.tables.runtime import table_create
from tests.conftest import CI
from tests.live import LiveCluster, accepting, live_cluster, nginx_binary
from tests.remote_players import Player, legal

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def accepted(cluster: LiveCluster, path: str) -> dict[int, int]:
    """How many WebSockets to ``path`` each daphne process has accepted, from its log."""
    line = f'"WSCONNECT {path}"'
    return {port: log.read_text().count(line) for port, log in cluster.logs.items()}


async def connect(cluster: LiveCluster, path: str, name: str, token: str) -> tuple[Player, int]:
    """A player connected through nginx, and the port of the daphne process serving them."""
    import websockets

    before = accepted(cluster, path)
    socket = await websockets.connect(
        cluster.url.replace("http", "ws", 1) + path,
        additional_headers={"Authorization": f"Bearer {token}", "Origin": cluster.url},
    )
    player = Player(socket, name)
    await player.until(lambda f: f["type"] == "state")
    # daphne logs the connection as it opens, before this first state; players connect one at
    # a time, so exactly one process's count has grown.
    while not (grown := [port for port, n in accepted(cluster, path).items() if n > before[port]]):
        await asyncio.sleep(0.05)
    assert len(grown) == 1, grown
    return player, grown[0]


def shows_cards_of(name: str) -> Callable[[dict], bool]:
    return lambda frame: (
        frame.get("type") == "state"
        and any(
            seat.get("player") == name and seat.get("choice") == "in" and "cards" in seat
            for seat in frame["table"]["seats"]
        )
    )


def test_a_hand_through_nginx_with_its_players_on_two_processes():
    if nginx_binary() is None:
        reason = "nginx is not installed (apt-get install nginx; .ci/run installs it)"
        if CI:
            pytest.fail(reason)
        pytest.skip(reason)
    table = table_create(
        game="guts", preset="survivor",
        options={"ante": 100, "seats": 4, "showdown_seconds": 1}, name="Behind nginx",
    )  # fmt: skip
    tokens = {name: token_create(user=user_create(username=name)) for name in ("ann", "ben")}
    path = f"/ws/api/tables/{table.pk}/"

    async def play(cluster: LiveCluster) -> dict[str, int]:
        players, served = [], {}
        # nginx gives a new connection to the process holding the fewest (least_conn), so
        # with ann's socket open on one process, ben's goes to the other: no luck involved.
        for name, token in tokens.items():
            player, served[name] = await connect(cluster, path, name, token)
            players.append(player)
        for player in players:
            assert (await player.act(kind="sit", buy_in=20_000))["type"] == "ack"
        for player in players:  # runclock opens the ante call after the pause
            await player.until(lambda f: legal(f, "ante"))
            assert (await player.act(kind="ante"))["type"] == "ack"
        for player in players:
            await player.until(lambda f: legal(f, "declare"))
        for player in players:
            assert (await player.act(kind="declare", choice="in"))["type"] == "ack"
        # Both In: the hand is shown and settled, and each player's process pushes the
        # other's cards, whichever process took the declare that ended it.
        for player, other in zip(players, reversed(players), strict=True):
            await player.until(shows_cards_of(other.name))
        for player in players:
            await player.socket.close()
        return served

    with live_cluster("cluster", clock="separate") as cluster:
        served = asyncio.run(asyncio.wait_for(play(cluster), timeout=20))
    assert sorted(served.values()) == sorted(cluster.logs), served
    assert not [port for port in cluster.ports if accepting(port)], "a process outlived the test"
    hand = Hand.objects.get(table=table, number=1)
    assert hand.ended is not None
    call_command("audit_ledger")
