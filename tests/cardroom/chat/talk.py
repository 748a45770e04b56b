"""Players at a table with their sockets, for the chat's tests."""

from __future__ import annotations

from asgiref.sync import sync_to_async

from accounts.services import user_create
from cardroom.models import Table
from cardroom.realtime.auth import token_create
from cardroom.tables.runtime import table_act
from tests.cardroom.sockets import WAIT_SECONDS, Client, Page


async def player(name: str, *, display_name: str = ""):
    user = await sync_to_async(user_create)(username=name)
    if display_name:
        user.display_name = display_name
        await user.asave(update_fields=["display_name"])
    return user


async def sit(table: Table, user) -> None:
    action = {"kind": "sit", "buy_in": 20_000}
    await sync_to_async(table_act)(table_id=table.pk, user=user, action=action)


async def api(table: Table, user) -> Client:
    """The player's JSON socket, connected, with its opening frames received."""
    client = Client(table.pk, await sync_to_async(token_create)(user=user))
    await client.connect()
    await client.drain()
    return client


async def page(table: Table, user) -> Page:
    """The player's page socket, open, with its opening fragments received."""
    opened = Page(table.pk, await sync_to_async(token_create)(user=user))
    await opened.open()
    return opened


async def say(client: Client, text, **extra) -> dict:
    """Send a chat line and return the first chat or error frame that answers it."""
    await client.send({"type": "chat", "text": text, **extra})
    while True:
        frame = await client.receive()
        if frame["type"] in ("chat", "error"):
            return frame


def of_type(client: Client, kind: str) -> list[dict]:
    return [frame for frame in client.frames if frame["type"] == kind]


async def page_until(opened: Page, text: str) -> str:
    """The first fragment the page got that holds ``text``, waiting for it if need be (a
    moment's quiet is no proof on a loaded machine)."""
    while True:
        for frame in opened.frames:
            if text in frame:
                return frame
        opened.frames.append(await opened.communicator.receive_from(timeout=WAIT_SECONDS))


async def heard(client: Client, text: str) -> dict:
    """The ``chat`` frame of ``text`` on this socket, waiting for it if need be."""
    while True:
        for frame in client.frames:
            if frame["type"] == "chat" and frame["text"] == text:
                return frame
        await client.receive()
