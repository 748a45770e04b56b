"""A ``sit`` that names its seat: honoured when free, refused in words when taken meanwhile or
not a seat of the table, and the table left as it was (docs/protocol.md, Client to server)."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from accounts.services import user_create
from cardroom.models import Seat, Table
from cardroom.models.waitlist import WaitingPlayer
from cardroom.realtime.auth import token_create
from cardroom.tables.runtime import table_act, table_create
from cardroom.waitlist.services import wait_list_join
from games.engine import IllegalAction
from tests.cardroom.sockets import Page, make_clients

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(db) -> Table:
    return table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Seat map"
    )


async def seated(table: Table) -> dict[int, str]:
    rows = Seat.objects.filter(table=table, left__isnull=True).select_related("user")
    return {seat.number: seat.user.username async for seat in rows}


async def test_a_free_named_seat_is_honoured_and_a_taken_one_refused_changing_nothing(table):
    ann, ben = await make_clients(table, ["ann", "ben"])
    assert (await ann.act(kind="sit", buy_in=20_000, seat=3))["type"] == "ack"
    assert await seated(table) == {3: "ann"}
    await table.arefresh_from_db()
    version, state = table.version, table.state

    answer = await ben.act(kind="sit", buy_in=20_000, seat=3)
    assert (answer["type"], answer["code"]) == ("error", "refused"), answer
    # Seats are numbered from 0 in the protocol, from 1 in words (as the table page shows them).
    assert "seat 4 was taken meanwhile; choose another seat" in answer["message"], answer
    await table.arefresh_from_db()
    assert (table.version, table.state) == (version, state)
    assert await seated(table) == {3: "ann"}

    # Without a seat the server still picks the first free one.
    assert (await ben.act(kind="sit", buy_in=20_000))["type"] == "ack"
    assert await seated(table) == {0: "ben", 3: "ann"}
    for client in (ann, ben):
        await client.close()


@pytest.mark.parametrize("seat", [6, -1, "2", True, None, [1]], ids=repr)
async def test_a_seat_that_is_not_one_of_the_table_is_refused(table, seat):
    (ann,) = await make_clients(table, ["ann"])
    await table.arefresh_from_db()
    version = table.version
    action = {"kind": "sit", "buy_in": 20_000, "seat": seat}
    answer = await ann.act(**action)
    if seat is None:  # a null seat is no seat named: the first free one
        assert answer["type"] == "ack", answer
        assert await seated(table) == {0: "ann"}
    else:
        assert (answer["type"], answer["code"]) == ("error", "refused"), answer
        assert "its seats are 1 to 6" in answer["message"], answer
        await table.arefresh_from_db()
        assert table.version == version
        assert await seated(table) == {}
    await ann.close()


async def test_the_page_form_sends_its_seat_as_text_and_gets_that_seat(table):
    user = await sync_to_async(user_create)(username="ann")
    page = Page(table.pk, await sync_to_async(token_create)(user=user))
    await page.open()
    await page.submit(kind="sit", buy_in="200", seat="4")  # as the seat map's "Sit here" sends
    await page.settle(table)
    assert await seated(table) == {4: "ann"}
    await page.communicator.disconnect()


def test_a_refused_seat_keeps_the_player_in_the_wait_list(make_player):
    """The taken seat is refused before the wait list's hold is asked, which takes a player off
    the line when it lets them sit: a refused sit keeps their place."""
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 2}, name="Heads up"
    )
    ann, ben, cat = (make_player(name) for name in ("ann", "ben", "cat"))
    for user in (ann, ben):
        table_act(table_id=table.pk, user=user, action={"kind": "sit", "buy_in": 20_000})
    wait_list_join(table_id=table.pk, user=cat)
    table_act(table_id=table.pk, user=ben, action={"kind": "leave"})  # seat 1 is offered to cat
    with pytest.raises(IllegalAction, match="seat 1 was taken meanwhile"):
        table_act(table_id=table.pk, user=cat, action={"kind": "sit", "buy_in": 20_000, "seat": 0})
    assert WaitingPlayer.objects.filter(table=table, user=cat).exists()
    table_act(table_id=table.pk, user=cat, action={"kind": "sit", "buy_in": 20_000, "seat": 1})
    assert Seat.objects.get(table=table, user=cat, left__isnull=True).number == 1
    assert not WaitingPlayer.objects.filter(table=table, user=cat).exists()
