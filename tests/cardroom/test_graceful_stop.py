"""A server with the in-process clock stops within 5 s of SIGTERM, with sockets open or just
closed: a worker thread once waited forever on the stopped event loop for a broadcast, and the
interpreter waited for the worker."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import time

import pytest

from accounts.services import user_create
from cardroom.realtime.auth import token_create
from cardroom.tables.runtime import table_create
from tests.live import _wait_for_its_connections_to_close, collect_static, start_daphne

pytestmark = [pytest.mark.django_db(transaction=True)]

STOP_SECONDS = 5.0


async def play_a_while(url: str, table_id: int, tokens: list[str], *, close: bool) -> list:
    """Three players sit and ante through the server; the sockets are left open or closed."""
    import websockets

    sockets = []
    for index, token in enumerate(tokens):
        socket = await websockets.connect(
            url.replace("http", "ws") + f"/ws/api/tables/{table_id}/",
            additional_headers={"Authorization": f"Bearer {token}", "Origin": url},
        )
        sit = {"kind": "sit", "buy_in": 20_000}
        await socket.send(json.dumps({"type": "action", "id": index, "action": sit}))
        sockets.append(socket)
    await asyncio.gather(*(ante_until_dealt(socket) for socket in sockets))
    if close:
        for socket in sockets:
            await socket.close()
    return sockets


async def ante_until_dealt(socket, seconds: float = 10.0) -> None:
    """Answer the ante call until the cards are dealt (or the time is up)."""
    stop_at = time.monotonic() + seconds
    while (left := stop_at - time.monotonic()) > 0:
        try:
            frame = json.loads(await asyncio.wait_for(socket.recv(), left))
        except TimeoutError:
            return
        if frame.get("type") != "state":
            continue
        if frame["table"].get("phase") == "declare":
            return
        legal = {a["kind"] for a in (frame.get("you") or {}).get("legal_actions", [])}
        if "ante" in legal:
            await socket.send(json.dumps({"type": "action", "id": "a", "action": {"kind": "ante"}}))


@pytest.mark.parametrize("close", [False, True], ids=["sockets-open", "sockets-just-closed"])
def test_the_server_stops_soon_after_sigterm(close):
    table = table_create(
        game="guts", preset="survivor", name="Stop",
        options={"ante": 100, "seats": 4, "showdown_seconds": 0.5, "ante_seconds": 2,
                 "decision_seconds": 2},
    )  # fmt: skip
    tokens = [token_create(user=user_create(username=f"stop{i}")) for i in range(3)]
    collect_static()
    server = start_daphne("graceful-stop")
    url, process = server.url, server.process
    try:
        server.wait_until_serving()
        loop = asyncio.new_event_loop()
        sockets = loop.run_until_complete(play_a_while(url, table.pk, tokens, close=close))
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            pytest.fail("the server was still up 15 s after SIGTERM")
        took = time.monotonic() - started
        assert took < STOP_SECONDS, f"stopping took {took:.1f} s"
        for socket in sockets:
            loop.run_until_complete(socket.close())
        loop.close()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=5)
        _wait_for_its_connections_to_close()
