"""JSON sockets fed by their process's hub (cardroom/realtime/fanout.py).

The process joins a table's group once, whatever the number of its sockets there, and leaves
it with its last; each socket gets every version, in order, and the answer to its own action
before the state that action made, as with a channel of its own; a socket that must read the
table after a gap does it without holding up the others.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from accounts.services import user_create
from cardroom.realtime import fanout
from cardroom.realtime.auth import token_create
from cardroom.realtime.chat_socket import chat_group
from cardroom.realtime.consumers import TableApiConsumer
from cardroom.tables.runtime import table_act
from tests.accounts.sockets import a_table, open_socket

pytestmark = pytest.mark.django_db(transaction=True)


def members(group: str) -> set[str]:
    """This process's channels in ``group``, on either layer."""
    layer = get_channel_layer()
    here = getattr(layer, "_loops", {}).get(asyncio.get_running_loop())
    if here is not None:  # the Redis pub/sub layer: its groups by their Redis name
        return set(here.groups.get(layer._group(group), ()))
    return set(layer.groups.get(group, {}))


async def frames_until_quiet(socket) -> list[dict]:
    seen = []
    while not await socket.receive_nothing(0.3):
        output = await socket.receive_output(5)
        if output.get("text"):
            seen.append(json.loads(output["text"]))
    return seen


async def test_one_membership_per_process_and_every_version_in_order_for_each_socket():
    table = await a_table()
    users = [await sync_to_async(user_create)(username=name) for name in ("ann", "ben", "cat")]
    # Watchers' sockets: a player's own would count itself on the seat taken, a version more.
    watchers = [await sync_to_async(user_create)(username=name) for name in ("wes", "val")]
    tokens = [await sync_to_async(token_create)(user=user) for user in watchers]
    first, _ = await open_socket(table, token=tokens[0])
    second, _ = await open_socket(table, token=tokens[1])
    (hub,) = members(f"table-{table}")
    assert hub.startswith("hub.") or ".hub." in hub
    for user in users:
        await sync_to_async(table_act)(
            table_id=table, user=user, action={"kind": "sit", "buy_in": 20_000}
        )
    for socket in (first, second):
        versions = [f["version"] for f in await frames_until_quiet(socket) if f["type"] == "state"]
        assert versions == [1, 2, 3]
    await first.disconnect()
    assert members(f"table-{table}") == {hub}
    await second.disconnect()
    assert members(f"table-{table}") == set()


async def test_a_socket_s_answer_comes_before_the_state_its_action_made():
    table = await a_table()
    ann = await sync_to_async(user_create)(username="ann")
    socket, _ = await open_socket(table, token=await sync_to_async(token_create)(user=ann))
    await socket.send_to(
        text_data=json.dumps(
            {"type": "action", "id": 7, "action": {"kind": "sit", "buy_in": 20_000}}
        )
    )
    frames = await frames_until_quiet(socket)
    assert [frame["type"] for frame in frames[:2]] == ["ack", "state"], frames
    assert frames[1]["version"] == 1
    await socket.disconnect()


async def test_a_read_after_a_gap_holds_up_no_other_socket(monkeypatch):
    table = await a_table()
    users = [await sync_to_async(user_create)(username=name) for name in ("ann", "ben", "wes")]
    tokens = [await sync_to_async(token_create)(user=user) for user in users]
    slow, _ = await open_socket(table, token=tokens[0])
    # A watcher's socket: ben's own would count itself on his seat, a version more.
    quick, _ = await open_socket(table, token=tokens[2])
    sockets = list(fanout._hubs[asyncio.get_running_loop()].fed[f"table-{table}"])
    stuck = next(socket for socket in sockets if socket.user_id == users[0].pk)
    released = asyncio.Event()
    real = TableApiConsumer.read_snapshot

    async def read_slowly(self):
        if self is stuck:
            await released.wait()
        return await real(self)

    monkeypatch.setattr(TableApiConsumer, "read_snapshot", read_slowly)
    stuck.version = -5  # as if versions were lost: the next one is a gap, read afresh
    await sync_to_async(table_act)(
        table_id=table, user=users[1], action={"kind": "sit", "buy_in": 20_000}
    )
    await sync_to_async(table_act)(table_id=table, user=users[1], action={"kind": "sit_out"})
    quick_versions = [f["version"] for f in await frames_until_quiet(quick) if f["type"] == "state"]
    assert quick_versions == [1, 2]  # not held up by the other socket's read
    assert await slow.receive_nothing(0.2)
    released.set()
    slow_versions = [f["version"] for f in await frames_until_quiet(slow) if f["type"] == "state"]
    assert slow_versions == [2]  # read whole, the newest; none older after it
    await slow.disconnect()
    await quick.disconnect()


async def test_a_version_that_comes_while_the_chat_is_read_follows_the_chat_history(monkeypatch):
    """The protocol's order on connect (docs/protocol.md): the state, the chat's recent lines,
    then any newer state, even when the hub brings that version while the chat is read."""
    table = await a_table()
    ann = await sync_to_async(user_create)(username="ann")
    # A watcher's socket: ann's own would count itself on her seat, a version more.
    wes = await sync_to_async(user_create)(username="wes")
    real = TableApiConsumer.chat_open
    delivered = asyncio.Event()

    async def open_while_a_version_comes(self, read):
        if not delivered.is_set():
            await sync_to_async(table_act)(
                table_id=table, user=ann, action={"kind": "sit", "buy_in": 20_000}
            )
            await asyncio.sleep(0.3)  # time for the hub to hand the version to this socket
            delivered.set()
        await real(self, read)

    monkeypatch.setattr(TableApiConsumer, "chat_open", open_while_a_version_comes)
    token = await sync_to_async(token_create)(user=wes)
    socket, first = await open_socket(table, token=token)  # asserts the chat comes second
    assert json.loads(first["text"])["version"] == 0
    after = await frames_until_quiet(socket)
    assert [(f["type"], f.get("version")) for f in after] == [("state", 1)]
    await socket.disconnect()


async def test_a_socket_to_no_table_is_closed_and_leaves_no_membership_behind():
    """The handshake learns that a table is missing from its first read, made after joining
    the table's group: the socket is closed with 4404 before any frame, and its close takes
    the process out of the group again."""
    user = await sync_to_async(user_create)(username="ann")
    token = await sync_to_async(token_create)(user=user)
    missing = await a_table() + 1000
    socket, first = await open_socket(missing, token=token)
    assert first == {"type": "websocket.close", "code": 4404}
    hub = await fanout._hub()
    assert f"table-{missing}" in hub.fed  # joined before the read, as every socket is
    await socket.disconnect()
    assert f"table-{missing}" not in hub.fed
    assert members(f"table-{missing}") == set()


async def test_a_socket_whose_first_read_fails_is_closed_as_a_server_error_and_cleaned_up(
    monkeypatch,
):
    """A database error on the handshake's first read closes the socket with 1011 (a client
    retries) rather than failing the handshake: the socket's disconnect then leaves the
    table's group and takes its login out of the open ones."""
    from django.db import DatabaseError

    from cardroom.realtime import consumers, logins

    table = await a_table()
    user = await sync_to_async(user_create)(username="ann")
    token = await sync_to_async(token_create)(user=user)

    async def failing(table_id: int, also: object) -> dict:
        raise DatabaseError("the database went away")

    monkeypatch.setattr(consumers, "shared_snapshot_and", failing)
    socket, first = await open_socket(table, token=token)
    assert first["type"] == "websocket.close" and first["code"] == 1011
    hub = await fanout._hub()
    await socket.disconnect()
    assert f"table-{table}" not in hub.fed
    assert members(f"table-{table}") == set()
    assert not +logins._open.get(asyncio.get_running_loop(), Counter())


async def test_lines_said_while_a_socket_opens_follow_its_chat_history_without_the_muted(
    monkeypatch,
):
    """The hub hands a socket the table's chat lines from the moment it is fed: those said while
    it opens (here after its recent lines were read, before they are sent) wait for its recent
    lines, and a line of a player its viewer muted never comes."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer
    from django.utils import timezone

    from cardroom.chat import line_say, mute_add

    table = await a_table()
    ann, ben, cat = [await sync_to_async(user_create)(username=n) for n in ("ann", "ben", "cat")]
    for user in (ben, cat):
        await sync_to_async(table_act)(
            table_id=table, user=user, action={"kind": "sit", "buy_in": 20_000}
        )
    await sync_to_async(mute_add)(muter=ann, name="ben")
    real = TableApiConsumer.chat_read
    group = f"table-{table}"

    def read_then_lines_come(self):
        read = real(self)
        for user, text in ((ben, "from ben"), (cat, "from cat")):
            line = line_say(table_id=table, user=user, text=text, now=timezone.now())
            async_to_sync(get_channel_layer().group_send)(
                group, {"type": "chat.line", "group": group, "line": line}
            )
        time.sleep(0.3)  # time for the hub to hand the lines to the opening socket
        return read

    monkeypatch.setattr(TableApiConsumer, "chat_read", read_then_lines_come)
    token = await sync_to_async(token_create)(user=ann)
    socket, first = await open_socket(table, token=token)  # asserts the chat's lines come second
    assert json.loads(first["text"])["type"] == "state"
    after = await frames_until_quiet(socket)
    assert [(f["type"], f.get("text")) for f in after] == [("chat", "from cat")]
    await socket.disconnect()


async def test_a_socket_whose_chat_read_fails_is_closed_as_a_server_error_and_cleaned_up(
    monkeypatch,
):
    """A database error in the chat's part of the first read (its recent lines, read with the
    snapshot) closes the socket with 1011 before any state, and its disconnect leaves the
    table's group, the viewer's chat group and the open logins, as for a failed snapshot."""
    from channels.testing import WebsocketCommunicator
    from django.db import DatabaseError

    from cardroom.realtime import logins
    from tests.accounts.sockets import ORIGIN, from_address

    table = await a_table()
    user = await sync_to_async(user_create)(username="ann")
    token = await sync_to_async(token_create)(user=user)

    def failing(self):
        raise DatabaseError("the database went away")

    monkeypatch.setattr(TableApiConsumer, "chat_read", failing)
    socket = WebsocketCommunicator(
        from_address("10.0.0.1"),
        f"/ws/api/tables/{table}/",
        headers=[ORIGIN, (b"authorization", f"Bearer {token}".encode())],
    )
    connected, _ = await socket.connect(timeout=5)
    assert connected
    closed = await socket.receive_output(5)
    assert closed == {"type": "websocket.close", "code": 1011}
    await socket.disconnect()
    hub = await fanout._hub()
    assert f"table-{table}" not in hub.fed
    assert members(f"table-{table}") == set()
    assert members(chat_group(user.pk)) == set()
    assert not +logins._open.get(asyncio.get_running_loop(), Counter())
