"""A socket's token login stamps the token's ``last_used`` without holding up the handshake."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from accounts.services import user_create
from cardroom.models import ApiToken
from cardroom.realtime.auth import token_create
from cardroom.tables.runtime import table_create
from tests.cardroom.sockets import Client

pytestmark = [pytest.mark.django_db(transaction=True)]


async def test_a_token_login_over_a_socket_stamps_last_used(monkeypatch):
    import cardroom.realtime.token_stamps

    monkeypatch.setattr(cardroom.realtime.token_stamps, "STAMP_DELAY_SECONDS", 0.05)
    table = await sync_to_async(table_create)(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Stamp"
    )
    ann = await sync_to_async(user_create)(username="ann")
    client = Client(table.pk, await sync_to_async(token_create)(user=ann))
    assert (await client.connect())["type"] == "state"
    for _ in range(100):  # the stamp is written beside the handshake, not before it
        stamped = (await ApiToken.objects.aget(user=ann)).last_used
        if stamped is not None:
            break
        await asyncio.sleep(0.02)
    assert stamped is not None
    await client.close()


async def test_a_session_login_is_read_in_the_pool(monkeypatch):
    """The session's user is read off Channels' one database thread (SQLite's writers'), and
    not read at all when the socket has no session."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    import cardroom.realtime.auth
    from cardroom.realtime.auth import SessionAuthMiddleware

    ann = await sync_to_async(user_create)(username="ann")
    session = SessionStore()
    session[SESSION_KEY] = str(ann.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = ann.get_session_auth_hash()
    await sync_to_async(session.save)()
    asked: list[str] = []
    real = cardroom.realtime.auth.in_read_thread

    async def recorded(func, /, *args, **kwargs):
        asked.append(func.__name__)
        return await real(func, *args, **kwargs)

    monkeypatch.setattr(cardroom.realtime.auth, "in_read_thread", recorded)
    seen = {}

    async def app(scope, receive, send):
        seen["user"] = scope["user"]

    # Logged in; a cookie naming no session (read, and found to be no login); no cookie.
    stores = {"in": session, "unknown": SessionStore("no-such-session"), "none": SessionStore()}
    for name, stored in stores.items():
        await SessionAuthMiddleware(app)({"type": "websocket", "session": stored}, None, None)
        seen[name] = (seen["user"].is_authenticated, seen["user"].pk)
    assert seen["in"] == (True, ann.pk)
    assert seen["unknown"] == seen["none"] == (False, None)
    # The reads' pool, not Channels' one thread; with no session key, no read at all (a
    # bearer token's socket).
    assert asked == ["_session_login", "_session_login"]


async def test_the_stamps_of_handshakes_close_together_are_one_update(monkeypatch):
    import cardroom.realtime.token_stamps

    table = await sync_to_async(table_create)(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Stamps"
    )
    players = [await sync_to_async(user_create)(username=name) for name in ("ann", "ben", "cat")]
    writes: list[list[int]] = []
    real = cardroom.realtime.token_stamps.tokens_stamp

    def recorded(owed):
        real(owed)  # written before it is seen: on PostgreSQL this runs in the pool
        writes.append(sorted(owed))

    monkeypatch.setattr(cardroom.realtime.token_stamps, "tokens_stamp", recorded)
    # Room enough for three handshakes on a slow machine.
    monkeypatch.setattr(cardroom.realtime.token_stamps, "STAMP_DELAY_SECONDS", 2.0)
    clients = [Client(table.pk, await sync_to_async(token_create)(user=p)) for p in players]
    for client in clients:
        assert (await client.connect())["type"] == "state"
    for _ in range(250):
        if writes:
            break
        await asyncio.sleep(0.02)
    tokens = [token async for token in ApiToken.objects.order_by("pk")]
    assert writes == [[token.pk for token in tokens]]  # one write for the three
    assert all(token.last_used is not None for token in tokens)
    for client in clients:
        await client.close()


async def test_a_socket_keeps_its_session_and_the_servers_own_send():
    """The sockets' session middleware puts the session in the scope as Channels' does, and
    hands the application the server's own ``send``: a socket never sends the response that
    Channels' wrapper of ``send`` would save a session or set a cookie with."""
    from django.conf import settings
    from django.contrib.auth import SESSION_KEY

    from cardroom.realtime.auth import SocketSessions

    seen: dict[str, object] = {}

    async def application(scope, receive, send):
        seen.update(session=scope["session"], send=send)

    async def server_send(message):
        raise AssertionError("nothing is sent here")

    cookies = {settings.SESSION_COOKIE_NAME: "no-such-session"}
    scope = {"type": "websocket", "path": "/ws/tables/1/", "cookies": cookies, "headers": []}
    await SocketSessions(application)(scope, None, server_send)
    assert seen["send"] is server_send
    session = seen["session"]
    assert session.session_key == "no-such-session"  # the cookie's session, read when asked
    assert await sync_to_async(session.get)(SESSION_KEY) is None  # no login: no such session
    assert "session" not in scope  # the caller's scope is left as it was
