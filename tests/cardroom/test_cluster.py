"""The deployment's shape on one machine: nginx in front of two daphne processes (deploy/).

deploy/cluster.py, which ``make cluster`` runs, starts them on the test database and Redis.
nginx routes each table's WebSockets to one process by a hash of the table's id
(deploy/nginx/cardroom.conf), so the process that owns a table holds its sockets:
- tables land on both processes, and every socket of one table (its JSON protocol and its page)
  on the same one, as each process's log shows; a hand is played at a table on each process;
- when a table's process is killed mid-hand, its players reconnect through nginx to the other,
  which takes the table once the dead owner's lease lapses: the hand resolves once and the
  players go on.
tests/cardroom/realtime/test_two_servers.py plays a table whose players are on two processes
(no nginx), which still works: placement is for speed, not correctness.
Collected only when ``REDIS_URL`` is set (CI's second pass), see tests/conftest.py. Bounded:
25 s to start each cluster, at most 20 s and 30 s to play, seconds to stop.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Callable

import pytest
from django.core.management import call_command

from accounts.services import user_create
from cardroom.history.journal_audit import table_replay
from cardroom.models import Hand, HandEvent, Table
from cardroom.realtime.auth import token_create
from cardroom.realtime.owners import LEASE_SECONDS
from cardroom.tables.runtime import table_create
from tests.conftest import CI
from tests.live import LiveCluster, accepting, live_cluster, nginx_binary
from tests.remote_players import Player, legal

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]

DECLARE_SECONDS = 3.0


@pytest.fixture(autouse=True)
def _nginx() -> None:
    if nginx_binary() is None:
        reason = "nginx is not installed (apt-get install nginx; .ci/run installs it)"
        if CI:
            pytest.fail(reason)
        pytest.skip(reason)


def accepted(cluster: LiveCluster, path: str) -> dict[int, int]:
    """How many WebSockets to ``path`` each daphne process has accepted, from its log."""
    line = f'"WSCONNECT {path}"'
    return {port: log.read_text().count(line) for port, log in cluster.logs.items()}


async def served_by(cluster: LiveCluster, path: str, before: dict[int, int]) -> int:
    """The port of the one process whose count of ``path``'s sockets grew since ``before``.
    daphne logs a connection as it opens, before its first frame; sockets open one at a time."""
    while not (grown := [port for port, n in accepted(cluster, path).items() if n > before[port]]):
        await asyncio.sleep(0.05)
    assert len(grown) == 1, grown
    return grown[0]


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
    return player, await served_by(cluster, path, before)


def api(table: Table) -> str:
    return f"/ws/api/tables/{table.pk}/"


def shows_cards_of(name: str) -> Callable[[dict], bool]:
    return lambda frame: (
        frame.get("type") == "state"
        and any(
            seat.get("player") == name and seat.get("choice") == "in" and "cards" in seat
            for seat in frame["table"]["seats"]
        )
    )


def survivor(name: str, **options: int | float) -> Table:
    return table_create(
        game="guts", preset="survivor", name=name,
        options={"ante": 100, "seats": 4, "showdown_seconds": 1, **options},
    )  # fmt: skip


async def hand_of_two(players: list[Player]) -> None:
    """Both sit, ante and declare In; each sees the other's cards at the showdown."""
    for player in players:
        assert (await player.act(kind="sit", buy_in=20_000))["type"] == "ack"
    for player in players:  # the clock opens the ante call after the pause
        await player.until(lambda f: legal(f, "ante"))
        assert (await player.act(kind="ante"))["type"] == "ack"
    for player in players:
        await player.until(lambda f: legal(f, "declare"))
    for player in players:
        assert (await player.act(kind="declare", choice="in"))["type"] == "ack"
    for player, other in zip(players, reversed(players), strict=True):
        await player.until(shows_cards_of(other.name))


def test_each_tables_sockets_go_to_one_process_and_both_processes_serve_tables():
    tokens = {name: token_create(user=user_create(username=name)) for name in ("ann", "ben")}
    tables: dict[int, Table] = {}  # one table each process serves, by its port

    async def play(cluster: LiveCluster) -> None:
        import websockets

        # Tables until one lands on each process: nginx's hash gives each process 44-56 % of
        # the tables (docs/deploy.md), so all of 24 on one is a chance of about 2 in a million.
        for number in range(24):
            table = await asyncio.to_thread(survivor, f"Table {number}")
            player, port = await connect(cluster, api(table), "ann", tokens["ann"])
            await player.socket.close()
            tables.setdefault(port, table)
            if len(tables) == len(cluster.logs):
                break
        assert sorted(tables) == sorted(cluster.logs), tables
        hands = []
        for port, table in tables.items():
            players = []
            for name, token in tokens.items():
                player, served = await connect(cluster, api(table), name, token)
                assert served == port, (table.pk, name, served, port)
                players.append(player)
            # The table's page hashes alike: its socket goes to the same process.
            page = f"/ws/tables/{table.pk}/"
            before = accepted(cluster, page)
            async with websockets.connect(
                cluster.url.replace("http", "ws", 1) + page, origin=cluster.url
            ):
                assert await served_by(cluster, page, before) == port
            hands.append(hand_of_two(players))
        await asyncio.gather(*hands)  # a hand at each process's table, at once

    with live_cluster("cluster", clock="separate") as cluster:
        asyncio.run(asyncio.wait_for(play(cluster), timeout=20))
    assert not [port for port in cluster.ports if accepting(port)], "a process outlived the test"
    for table in tables.values():
        assert Hand.objects.get(table=table, number=1).ended is not None
    call_command("audit_ledger")


def test_when_a_tables_process_is_killed_its_players_go_on_through_the_other():
    table = survivor("Killed behind nginx", decision_seconds=DECLARE_SECONDS, ante_seconds=5)
    tokens = {name: token_create(user=user_create(username=name)) for name in ("ann", "ben")}
    found: dict[str, float] = {}

    async def play(cluster: LiveCluster) -> None:
        players, served = [], set()
        for name, token in tokens.items():
            player, port = await connect(cluster, api(table), name, token)
            players.append(player)
            served.add(port)
        (killed,) = served  # both on the table's process
        for player in players:
            assert (await player.act(kind="sit", buy_in=20_000))["type"] == "ack"
        for player in players:
            await player.until(lambda f: legal(f, "ante"))
            assert (await player.act(kind="ante"))["type"] == "ack"
        for player in players:
            await player.until(lambda f: legal(f, "declare"))
        os.kill(cluster.pid(killed), signal.SIGKILL)  # no lease given back, nothing flushed
        found["killed_at"] = time.monotonic()
        for player in players:  # nginx closes their sockets as the process's end
            await asyncio.wait_for(player.socket.wait_closed(), timeout=5)
        # They reconnect, as browsers do: nginx passes them to the process that is up, and
        # the state they get back is the hand they were in, their cards and all.
        again = []
        for name, token in tokens.items():
            player, port = await connect(cluster, api(table), name, token)
            assert port != killed, (name, port)
            (state,) = player.frames
            assert state["table"]["phase"] == "declare" and len(state["you"]["cards"]) == 3
            again.append(player)
        # Nobody declared: once the dead owner's lease lapses, the live process's clock
        # applies the declare timeout, and the players act through it again.
        wait = DECLARE_SECONDS + LEASE_SECONDS + 10
        for player in again:
            await player.until(lambda f: f["type"] == "state" and f["table"]["phase"] != "declare",
                               timeout=wait)  # fmt: skip
        found["resolved_after"] = time.monotonic() - found["killed_at"]
        alive = next(port for port in cluster.logs if port != killed)
        owner = await asyncio.to_thread(lambda: Table.objects.get(pk=table.pk).owner)
        assert f".route.{cluster.pid(alive)}." in owner, owner
        for player in again:
            await player.until(lambda f: legal(f, "sit_out"))
            assert (await player.act(kind="sit_out"))["type"] == "ack"
            await player.socket.close()

    with live_cluster("cluster-kill", restart_seconds=60) as cluster:
        asyncio.run(asyncio.wait_for(play(cluster), timeout=30))
    assert found["resolved_after"] <= DECLARE_SECONDS + LEASE_SECONDS + 3, found
    hand = Hand.objects.get(table=table, number=1)
    assert hand.ended is not None
    assert HandEvent.objects.filter(table=table, hand=hand, type="hand_ended").count() == 1
    call_command("audit_ledger")
    assert table_replay(table=Table.objects.get(pk=table.pk)).ok
