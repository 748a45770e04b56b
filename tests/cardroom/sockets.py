"""The table sockets as a test drives them: a player's JSON connection (``Client``), a browser
page's socket (``Page``), and the clock passing a deadline from async code."""

from __future__ import annotations

import json
import re

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import user_create
from cardroom.asgi import application
from cardroom.models import Table
from cardroom.realtime.auth import token_create

ORIGIN = (b"origin", b"http://testserver")
#: How long a test waits for a connection or a frame it expects: generous, as it costs nothing
#: unless the frame never comes, and a loaded machine may take seconds to send one.
WAIT_SECONDS = 30.0


class Client:
    """One player's connection, keeping every frame it receives."""

    def __init__(self, table_id: int, token: str) -> None:
        self.communicator = WebsocketCommunicator(
            application,
            f"/ws/api/tables/{table_id}/",
            headers=[ORIGIN, (b"authorization", f"Bearer {token}".encode())],
        )
        self.frames: list[dict] = []
        self.next_id = 0

    async def connect(self) -> dict:
        """Open the socket; returns its first frame, the state (the recent chat lines, which
        follow it, are kept in ``frames``)."""
        connected, _ = await self.communicator.connect(timeout=WAIT_SECONDS)
        assert connected
        state = await self.receive()
        if state["type"] == "state":
            assert (await self.receive())["type"] == "chat_history"
        return state

    async def receive(self, timeout: float = WAIT_SECONDS) -> dict:
        frame = json.loads(await self.communicator.receive_from(timeout=timeout))
        self.frames.append(frame)
        return frame

    async def drain(self, table: Table | None = None) -> None:
        """Receive until quiet, and (given the table) until its latest version has arrived:
        under load a push may lag behind a moment's silence."""
        if table is not None:
            await table.arefresh_from_db()
            while max((f["version"] for f in self.frames if f["type"] == "state"), default=-1) < (
                table.version
            ):
                await self.receive()
        while not await self.communicator.receive_nothing(timeout=0.2):
            await self.receive()

    async def send(self, message) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        await self.communicator.send_to(text_data=text)

    async def act(self, **action) -> dict:
        self.next_id += 1
        await self.send({"type": "action", "id": self.next_id, "action": action})
        while True:
            frame = await self.receive()
            if frame["type"] in ("ack", "error") and frame.get("id") == self.next_id:
                return frame

    async def close(self) -> None:
        await self.communicator.disconnect()


async def make_clients(table: Table, names: list[str]) -> list[Client]:

    clients = []
    for name in names:
        user = await sync_to_async(user_create)(username=name)
        token = await sync_to_async(token_create)(user=user)
        client = Client(table.pk, token)
        await client.connect()
        clients.append(client)
    return clients


async def advance(table: Table) -> None:
    """Let the clock pass the table's deadline once."""
    from datetime import timedelta

    from cardroom.clock.clock import clock_sweep

    await table.arefresh_from_db()
    assert table.deadline is not None
    applied = await sync_to_async(clock_sweep)(now=table.deadline + timedelta(milliseconds=10))
    assert applied == 1


CARD = re.compile(r'data-card="([2-9TJQKA][cdhs])"')


class Page:
    """One browser page's socket: sends forms as htmx does, keeps every fragment."""

    def __init__(self, table_id: int, token: str) -> None:
        self.communicator = WebsocketCommunicator(
            application,
            f"/ws/tables/{table_id}/",
            headers=[ORIGIN, (b"authorization", f"Bearer {token}".encode())],
        )
        self.frames: list[str] = []

    async def open(self) -> None:
        connected, _ = await self.communicator.connect(timeout=WAIT_SECONDS)
        assert connected
        await self.settle()

    async def settle(self, table: Table | None = None) -> None:
        """Receive until quiet, and (given the table) until its latest version has arrived:
        under load a push may lag behind a moment's silence."""
        if table is not None:
            await table.arefresh_from_db()
            while self.version() < table.version:
                self.frames.append(await self.communicator.receive_from(timeout=WAIT_SECONDS))
        while not await self.communicator.receive_nothing(timeout=0.2):
            self.frames.append(await self.communicator.receive_from())

    def version(self) -> int:
        found = re.findall(r'data-version="(\d+)"', "".join(self.frames))
        return max(map(int, found), default=-1)

    async def submit(self, **fields) -> None:
        form = {key: str(value) for key, value in fields.items()}
        form["HEADERS"] = {"HX-Request": "true"}
        await self.communicator.send_to(text_data=json.dumps(form))
        await self.settle()

    def cards_seen(self) -> set[str]:
        return {card for frame in self.frames for card in CARD.findall(frame)}
