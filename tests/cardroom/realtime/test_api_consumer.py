"""The JSON protocol end to end, with Channels' WebsocketCommunicator.

Every frame each connection receives is kept and checked: no hidden card and no In/Out choice
reaches anyone not entitled to it before the reveal.
"""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from cardroom.asgi import application
from cardroom.models import Table
from cardroom.realtime.auth import token_create
from tests.cardroom.sockets import ORIGIN, Client, advance, make_clients

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(db):
    from cardroom.tables.runtime import table_create

    return table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="API table"
    )


async def test_unauthenticated_connection_is_refused(table):
    communicator = WebsocketCommunicator(
        application, f"/ws/api/tables/{table.pk}/", headers=[ORIGIN]
    )
    connected, _ = await communicator.connect()
    # Accepted, then closed with the code: a client can tell "log in" from "no such table".
    assert connected
    assert await communicator.receive_output() == {"type": "websocket.close", "code": 4401}


async def test_bad_frames_get_errors_and_change_nothing(table):
    (ann,) = await make_clients(table, ["ann"])
    version = table.version
    cases = [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        (json.dumps({"type": "shout"}), "bad_type"),
        (json.dumps({"type": "action", "action": {"kind": "sit"}}), "bad_id"),
        (json.dumps({"type": "action", "id": 1, "action": "sit"}), "bad_action"),
        (json.dumps({"type": "action", "id": 2, "action": {"kind": "fly"}}), "refused"),
        (json.dumps({"type": "action", "id": 3, "action": {"kind": "ante"}}), "refused"),
        ("x" * 9000, "too_large"),
    ]
    for text, code in cases:
        await ann.send(text)
        frame = await ann.receive()
        assert frame["type"] == "error"
        assert frame["code"] == code, (text[:40], frame)
        assert frame["message"]
    await table.arefresh_from_db()
    assert table.version == version
    await ann.close()


async def test_a_flood_is_rate_limited(table, settings):
    # A slow refill, so the test does not depend on how fast this machine answers.
    settings.CARDROOM_WS_RATE_BURST = 5
    settings.CARDROOM_WS_RATE_PER_SECOND = 0
    (ann,) = await make_clients(table, ["ann"])
    for _ in range(10):
        await ann.send(json.dumps({"type": "sync"}))
    await ann.drain()
    limited = [f for f in ann.frames if f.get("code") == "rate_limited"]
    assert len(limited) == 5  # a burst of five answered, the other five refused
    await ann.close()


async def test_a_replayed_id_is_answered_again_but_applied_once(table):
    (ann,) = await make_clients(table, ["ann"])
    sit = {"type": "action", "id": "sit-1", "action": {"kind": "sit", "buy_in": 20_000}}
    for _ in range(2):
        await ann.send(sit)
        while (await ann.receive())["type"] != "ack":
            pass
    acks = [f for f in ann.frames if f["type"] == "ack" and f["id"] == "sit-1"]
    assert len(acks) == 2
    from accounts.models import Transfer

    assert await Transfer.objects.filter(kind="buy_in").acount() == 1
    await ann.close()


async def test_three_players_play_a_hand_and_nothing_leaks(table):
    clients = await make_clients(table, ["ann", "ben", "cat"])
    for client in clients:
        assert (await client.act(kind="sit", buy_in=20_000))["type"] == "ack"
    await advance(table)
    for client in clients:
        assert (await client.act(kind="ante"))["type"] == "ack"
    for client in clients:
        await client.drain(table)
    await clients[0].act(kind="declare", choice="in")
    await clients[1].act(kind="declare", choice="in")
    await clients[2].act(kind="declare", choice="out")
    for client in clients:
        await client.drain(table)
        await client.close()
    own_cards: dict[int, set[str]] = {}
    for seat, client in enumerate(clients):
        states = [f for f in client.frames if f["type"] == "state"]
        for frame in states:
            you = frame.get("you") or {}
            if you.get("cards"):
                own_cards.setdefault(seat, set()).update(you["cards"])
    cat_cards = own_cards[2]
    assert len(cat_cards) == 3
    for seat, client in enumerate(clients[:2]):
        text = json.dumps(client.frames)
        for card in cat_cards:
            assert f'"{card}"' not in text, f"seat {seat} saw a mucked card {card}"
    # Before the reveal nobody saw another's choice.
    for seat, client in enumerate(clients):
        for frame in client.frames:
            if frame["type"] != "state" or frame["table"].get("phase") != "declare":
                continue
            for entry in frame["table"]["seats"]:
                if entry.get("seat") != seat:
                    assert "choice" not in entry
                    assert "cards" not in entry
    from django.core.management import call_command

    await sync_to_async(call_command)("audit_ledger")


async def seat_three_and_deal(table: Table) -> list[Client]:
    clients = await make_clients(table, ["ann", "ben", "cat"])
    for client in clients:
        assert (await client.act(kind="sit", buy_in=20_000))["type"] == "ack"
    await advance(table)
    for client in clients:
        assert (await client.act(kind="ante"))["type"] == "ack"
    for client in clients:
        await client.drain(table)
    return clients


async def test_acting_for_another_seat_gets_an_error_frame(table):
    clients = await seat_three_and_deal(table)
    await table.arefresh_from_db()
    version = table.version
    answer = await clients[0].act(kind="declare", choice="in", seat=1)
    assert answer["type"] == "error"
    assert "own seat" in answer["message"]
    await table.arefresh_from_db()
    assert table.version == version
    for client in clients:
        await client.close()


async def test_a_player_who_reconnects_mid_hand_sees_their_cards_and_may_act(table):
    from cardroom.models import Seat

    clients = await seat_three_and_deal(table)
    ann = clients[0]
    dealt = [f for f in ann.frames if f["type"] == "state" and f["you"] and f["you"]["cards"]]
    cards = dealt[-1]["you"]["cards"]
    await ann.close()
    seat = await Seat.objects.select_related("user").aget(table=table, number=0)
    assert seat.connections == 0
    again = Client(table.pk, await sync_to_async(token_create)(user=seat.user))
    state = await again.connect()
    assert state["you"]["cards"] == cards
    assert {"kind": "declare", "choices": ["in", "out"]} in state["you"]["legal_actions"]
    assert (await again.act(kind="declare", choice="in"))["type"] == "ack"
    for client in (again, *clients[1:]):
        await client.close()


async def test_the_clock_resolves_a_timeout_with_everyone_disconnected(table):
    from cardroom.models import Hand

    clients = await seat_three_and_deal(table)
    for client in clients:
        await client.close()
    await advance(table)  # the declare deadline: everyone is mucked, the pot carries
    hand = await Hand.objects.aget(table=table, number=1)
    assert hand.ended is not None
    await table.arefresh_from_db()
    assert table.state["phase"] in ("pause", "ante")
    from django.core.management import call_command

    await sync_to_async(call_command)("audit_ledger")


async def test_three_players_play_a_round_to_its_end_through_the_api(table):
    """Hand 1: two In, one Out (the loser owes); hand 2: ann In alone, ben Out, cat times out
    (mucked by the clock): one winner and nobody owing ends the round."""
    from cardroom.models import Hand, Round

    clients = await seat_three_and_deal(table)
    ann, ben, cat = clients
    await ann.act(kind="declare", choice="in")
    await ben.act(kind="declare", choice="in")
    await cat.act(kind="declare", choice="out")
    await advance(table)  # the pause after the showdown: the next hand's antes and matches
    for client in clients:
        await client.drain(table)
    for client in clients:
        state = [f for f in client.frames if f["type"] == "state"][-1]
        legal = {a["kind"] for a in state["you"]["legal_actions"]}
        if "ante" in legal:
            assert (await client.act(kind="ante"))["type"] == "ack"
    for client in clients:
        await client.drain(table)
    await table.arefresh_from_db()
    assert table.state["phase"] == "declare"
    await ann.act(kind="declare", choice="in")
    await ben.act(kind="declare", choice="out")
    await advance(table)  # cat never answers: the clock mucks the hand
    round_ = await Round.objects.aget(table=table, number=1)
    assert round_.ended is not None
    assert await Hand.objects.filter(table=table, ended__isnull=False).acount() == 2
    for client in clients:
        await client.drain(table)
        await client.close()
    final = [f for f in cat.frames if f["type"] == "state"][-1]
    assert final["table"]["pot"] == 0
    from django.core.management import call_command

    await sync_to_async(call_command)("audit_ledger")


async def test_no_message_takes_channels_hop(table, monkeypatch):
    """Channels sends every message through ``close_old_connections`` in its one sync thread
    first; the table consumers skip that hop for every message, on both databases (on SQLite
    that thread is the one writer, and a frame waited there behind the writes in hand:
    cardroom/realtime/consumers.py)."""
    from channels.consumer import AsyncConsumer

    hopped: list[str] = []
    real = AsyncConsumer.dispatch

    async def recorded(self, message):
        hopped.append(message["type"])
        await real(self, message)

    monkeypatch.setattr(AsyncConsumer, "dispatch", recorded)
    (ann,) = await make_clients(table, ["ann"])
    assert (await ann.act(kind="sit", buy_in=20_000))["type"] == "ack"
    await ann.drain(table)
    await ann.close()
    versions = [f["version"] for f in ann.frames if f["type"] == "state"]
    assert max(versions) > versions[0]  # the sit's version came as a group message
    assert hopped == []
