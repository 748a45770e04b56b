"""Opening table sockets from a given address, with a token or a session cookie, for the
account tests (Channels' communicator sets no client address of its own)."""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from cardroom.asgi import application
from cardroom.tables.runtime import table_create

ORIGIN = (b"origin", b"http://testserver")


def from_address(address: str) -> Any:
    """The site's ASGI application, as reached from ``address``."""

    async def app(scope: dict[str, Any], receive: Any, send: Any) -> Any:
        return await application({**scope, "client": [address, 40000]}, receive, send)

    return app


async def a_table() -> int:
    table = await sync_to_async(table_create)(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Sockets"
    )
    return table.pk


async def open_socket(
    table_id: int,
    *,
    token: str | None = None,
    cookie: str | None = None,
    address: str = "10.0.0.1",
    page: bool = False,
) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    """Connect, and return the communicator with its first output after the accept (the
    chat's lines that follow a state are read and left out)."""
    headers = [ORIGIN]
    if token is not None:
        headers.append((b"authorization", f"Bearer {token}".encode()))
    if cookie is not None:
        headers.append((b"cookie", cookie.encode()))
    path = f"/ws/tables/{table_id}/" if page else f"/ws/api/tables/{table_id}/"
    communicator = WebsocketCommunicator(from_address(address), path, headers=headers)
    connected, _ = await communicator.connect(timeout=5)
    assert connected
    first = await communicator.receive_output(5)
    if first["type"] == "websocket.send":
        # After the state, the table chat's recent lines (docs/protocol.md, "Table chat").
        chat = await communicator.receive_output(5)
        assert "chat_history" in chat["text"] or 'id="chat-lines"' in chat["text"], chat
    return communicator, first


async def session_cookie(client: Client) -> str:
    """The cookie header of a logged-in test client's session."""

    def read() -> str:
        return (
            f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
        )

    return await sync_to_async(read)()
