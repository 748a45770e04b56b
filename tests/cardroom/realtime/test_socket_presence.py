"""A socket counts in its seat's connections exactly once, and takes back only its own count.

A sit over a socket makes the seat counting that socket (no second write, no "connect"
version after it); a socket opened before its player sat anywhere counts nothing and takes
nothing back when it closes.
"""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from accounts.services import user_create
from cardroom.models import Seat, Table, TableAction
from cardroom.realtime.auth import token_create
from tests.cardroom.sockets import Client, advance, make_clients

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(db):
    from cardroom.tables.runtime import table_create

    return table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Presence"
    )


async def socket_for(table: Table, user) -> Client:
    client = Client(table.pk, await sync_to_async(token_create)(user=user))
    await client.connect()
    return client


async def held(table: Table, user) -> Seat:
    return await Seat.objects.aget(table=table, user=user, left__isnull=True)


async def counted(table: Table, user, expected: int) -> int:
    """The seat's connections once they reach ``expected`` (a socket counts itself just
    after its first frame), or as they stand after a second."""
    for _ in range(50):
        if (connections := (await held(table, user)).connections) == expected:
            break
        await asyncio.sleep(0.02)
    return connections


async def test_a_sit_over_a_socket_is_online_in_its_own_version(table):
    ann = await sync_to_async(user_create)(username="ann")
    socket = await socket_for(table, ann)
    assert (await socket.act(kind="sit", buy_in=20_000))["type"] == "ack"
    await socket.drain(table)
    seat = await held(table, ann)
    assert seat.connections == 1 and seat.lease_until is not None
    last = [frame for frame in socket.frames if frame["type"] == "state"][-1]
    mine = [s for s in last["table"]["seats"] if s.get("player") == "ann"]
    assert mine and mine[0]["online"] is True
    kinds = [a.action["kind"] async for a in TableAction.objects.filter(table=table)]
    assert kinds == ["restore", "sit"]  # no "connect" after the sit
    await socket.close()
    seat = await held(table, ann)
    assert seat.connections == 0
    kinds = [a.action["kind"] async for a in TableAction.objects.filter(table=table)]
    assert kinds[-1] == "disconnect"


async def test_a_socket_open_when_its_player_sits_elsewhere_counts_itself_there(table):
    ann = await sync_to_async(user_create)(username="ann")
    watching = await socket_for(table, ann)  # open before any seat: counts nothing yet
    playing = await socket_for(table, ann)
    playing.next_id = 100
    assert (await playing.act(kind="sit", buy_in=20_000))["type"] == "ack"
    # The sit's version seats ann on the watching socket too: it counts itself there.
    assert await counted(table, ann, 2) == 2
    await watching.close()
    assert (await held(table, ann)).connections == 1  # the playing socket is still counted
    again = await socket_for(table, ann)  # opened while seated: counts itself
    assert await counted(table, ann, 2) == 2
    await again.close()
    await playing.close()
    assert (await held(table, ann)).connections == 0


async def test_a_socket_counted_for_an_earlier_seat_leaves_the_new_one_alone(table):
    ann = await sync_to_async(user_create)(username="ann")
    first = await socket_for(table, ann)
    assert (await first.act(kind="sit", buy_in=20_000))["type"] == "ack"
    assert (await first.act(kind="leave"))["type"] == "ack"
    second = await socket_for(table, ann)
    second.next_id = 100  # ids are the player's at this table, whatever the socket
    assert (await second.act(kind="sit", buy_in=20_000))["type"] == "ack"
    # Open when ann sat again through the other socket: the first counts itself on the new
    # seat too, and takes back only that count (not one for the seat ann left).
    assert await counted(table, ann, 2) == 2
    await first.close()
    assert (await held(table, ann)).connections == 1
    await second.close()
    assert (await held(table, ann)).connections == 0


async def test_closing_the_socket_a_player_sat_from_leaves_them_online_on_the_other(table):
    """Two sockets of one player (two tabs, or a program beside the page): closing the one
    they sat from does not tell the game they left while the other is open."""
    ann = await sync_to_async(user_create)(username="ann")
    other = await socket_for(table, ann)
    sat_from = await socket_for(table, ann)
    sat_from.next_id = 100
    assert (await sat_from.act(kind="sit", buy_in=20_000))["type"] == "ack"
    assert await counted(table, ann, 2) == 2
    await sat_from.close()
    assert (await held(table, ann)).connections == 1
    kinds = [a.action["kind"] async for a in TableAction.objects.filter(table=table)]
    assert kinds == ["restore", "sit"]  # never told "disconnect"
    await other.close()
    assert (await held(table, ann)).connections == 0
    kinds = [a.action["kind"] async for a in TableAction.objects.filter(table=table)]
    assert kinds[-1] == "disconnect"


async def test_a_socket_that_closes_while_it_counts_itself_takes_its_count_back(table, monkeypatch):
    """The count on a new seat runs in the background; a socket closing meanwhile waits for
    it, then takes it back, so no count outlives its socket."""
    from cardroom.realtime.consumers import TableApiConsumer

    ann = await sync_to_async(user_create)(username="ann")
    real = TableApiConsumer.presence
    started, release = asyncio.Event(), asyncio.Event()

    async def slow_count(self, change, counted=None):
        if change == +1 and not self.sitting and self.sat_version is None:
            started.set()
            await release.wait()
        return await real(self, change, counted)

    monkeypatch.setattr(TableApiConsumer, "presence", slow_count)
    watching = await socket_for(table, ann)
    playing = await socket_for(table, ann)
    playing.next_id = 100
    assert (await playing.act(kind="sit", buy_in=20_000))["type"] == "ack"
    await asyncio.wait_for(started.wait(), 10)
    closing = asyncio.ensure_future(watching.close())
    await asyncio.sleep(0.2)
    assert not closing.done()  # waits for its count to land
    release.set()
    await asyncio.wait_for(closing, 10)
    assert (await held(table, ann)).connections == 1  # the playing socket's alone
    await playing.close()
    assert (await held(table, ann)).connections == 0


async def test_a_socket_closing_at_a_held_table_tells_the_game_and_leaves_the_table_held(table):
    """The disconnect is a presence notice applied by the table's queue with its actions
    (cardroom/tables/held.py): the table the queue holds stays held, not re-read."""
    from cardroom.realtime import queue

    ann, ben = await make_clients(table, ["ann", "ben"])
    for client in (ann, ben):
        assert (await client.act(kind="sit", buy_in=20_000))["type"] == "ack"
    await advance(table)  # the ante call
    assert (await ann.act(kind="ante"))["type"] == "ack"  # held from here
    waiting = queue._loops[asyncio.get_running_loop()]
    assert table.pk in waiting.held
    before = waiting.held[table.pk]
    await ben.close()
    seat = await Seat.objects.aget(table=table, user__username="ben", left__isnull=True)
    assert seat.connections == 0
    last = await TableAction.objects.filter(table=table).alast()
    assert last is not None and last.action == {**last.action, "kind": "disconnect",
                                                "seat": seat.number}  # fmt: skip
    assert waiting.held.get(table.pk) is before  # applied held: nothing read again
    await table.arefresh_from_db()
    assert before.table.version == table.version
    await ann.drain(table)
    last_state = [frame for frame in ann.frames if frame["type"] == "state"][-1]
    (his,) = [s for s in last_state["table"]["seats"] if s.get("player") == "ben"]
    assert his["online"] is False
    await ann.close()


async def test_a_presence_notice_the_owner_does_not_answer_is_applied_by_the_socket(
    table, monkeypatch
):
    """The owner away (cardroom/realtime/owners.py, OwnerAway): the closing socket's process
    tells the game itself, through the table's lock."""
    from cardroom.realtime import consumers
    from cardroom.realtime.owners import OwnerAway

    async def away(**_: object) -> None:
        raise OwnerAway("its owner did not answer")

    ann = (await make_clients(table, ["ann"]))[0]
    assert (await ann.act(kind="sit", buy_in=20_000))["type"] == "ack"
    monkeypatch.setattr(consumers, "route_presence", away)
    await ann.close()
    seat = await Seat.objects.aget(table=table, user__username="ann", left__isnull=True)
    assert seat.connections == 0
    last = await TableAction.objects.filter(table=table).alast()
    assert last is not None and last.action["kind"] == "disconnect"
