"""The table page's socket as the game-at-the-table tests drive it (connect, post a form as
htmx does, drain), and catching connections up to the table's latest version."""

from __future__ import annotations

import json

from cardroom.models import Table
from games.cards import DECK
from tests.cardroom import sockets
from tests.cardroom.sockets import WAIT_SECONDS, Client


async def caught_up(table: Table, *connections: Client | Page) -> None:
    """Receive until every connection has the table's latest version: pushes after another
    player's action or the clock's may lag (through Redis they do)."""
    await table.arefresh_from_db()
    for connection in connections:
        while seen_version(connection) < table.version:
            await connection.receive(timeout=WAIT_SECONDS)
        await connection.drain()


def seen_version(connection: Client | sockets.Page) -> int:
    if isinstance(connection, sockets.Page):
        return connection.version()
    states = [frame["version"] for frame in connection.frames if frame["type"] == "state"]
    return max(states, default=-1)


class Page(sockets.Page):
    """One player's table page socket, driven frame by frame: HTML fragments in, htmx form
    posts out."""

    async def connect(self) -> None:
        connected, _ = await self.communicator.connect(timeout=WAIT_SECONDS)
        assert connected
        await self.receive()

    async def receive(self, timeout: float = WAIT_SECONDS) -> str:
        self.frames.append(await self.communicator.receive_from(timeout=timeout))
        return self.frames[-1]

    async def post(self, **form: str) -> None:
        """A form as htmx's ws-send posts it: its fields as text, and the request headers."""
        await self.communicator.send_to(text_data=json.dumps({**form, "HEADERS": {}}))
        await self.drain()

    async def drain(self) -> None:
        while not await self.communicator.receive_nothing(timeout=0.1):
            await self.receive()


def shown_cards(html: str) -> set[str]:
    return {str(card) for card in DECK if f'data-card="{card}"' in html}
