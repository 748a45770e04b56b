"""Hardening of the live path: bounded parsing, action ids kept across connections, a database
failure answered as "not applied", only what the rules read journaled."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError

from accounts.models import Transfer
from cardroom.models import Table, TableAction
from cardroom.presentation import cents_from_dollars
from cardroom.realtime.auth import token_create
from cardroom.realtime.protocol import MessageError, parse_message
from cardroom.tables.runtime import table_act
from games.engine import IllegalAction
from tests.cardroom.sockets import Client, Page, make_clients

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(db):
    from cardroom.tables.runtime import table_create

    return table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Hard table"
    )


@pytest.mark.parametrize(
    "text", ["1e999997", "1e1000000", "sNaN", "NaN", "Infinity", "-5", "1" * 5000, "１２"]
)
def test_dollar_amounts_are_read_by_their_shape_alone(text):
    # "1e999997" once made Decimal build a million-digit integer on the event loop.
    with pytest.raises(ValueError, match="amount"):
        cents_from_dollars(text)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("[" * 3000 + "]" * 3000, "bad_json"),
        ('{"type": "action", "id": 1, "action": {"kind": "top_up", "amount": ' + "9" * 5000 + "}}",
         "bad_json"),
        (json.dumps({"type": "action", "id": 1, "action": {"kind": "top_up", "amount": 10**15}}),
         "bad_amount"),
        (json.dumps({"type": "action", "id": 1, "action": {"kind": "x" * 41}}), "bad_action"),
        (json.dumps({"type": "action", "id": 10**70, "action": {"kind": "ante"}}), "bad_id"),
    ],
)  # fmt: skip
def test_frames_that_once_crashed_the_socket_are_protocol_errors(text, code):
    with pytest.raises(MessageError) as error:
        parse_message(text)
    assert error.value.code == code


async def test_a_huge_exponent_on_the_page_is_answered_at_once_and_changes_nothing(table):
    from accounts.services import user_create

    user = await sync_to_async(user_create)(username="ann")
    page = Page(table.pk, await sync_to_async(token_create)(user=user))
    await page.open()
    await page.submit(kind="sit", buy_in="200")
    await table.arefresh_from_db()
    version = table.version
    for amount in ("1e999997", "sNaN", "1e1000000", "9" * 5000):
        await page.submit(kind="top_up", amount=amount)
        assert 'id="notice"' in page.frames[-1]
        assert "not an amount in dollars" in page.frames[-1], amount
    await table.arefresh_from_db()
    assert table.version == version
    await page.communicator.disconnect()


async def test_an_action_id_is_applied_once_across_connections(table):
    (ann,) = await make_clients(table, ["ann"])
    assert (await ann.act(kind="sit", buy_in=20_000))["type"] == "ack"
    top_up = {"type": "action", "id": "top-1", "action": {"kind": "top_up", "amount": 1_000}}
    await ann.send(top_up)
    while (await ann.receive())["type"] != "ack":
        pass
    await ann.close()
    # The socket dropped before the client saw its answer: it retries on a new connection.
    user = (await TableAction.objects.select_related("actor").aget(client_id='"top-1"')).actor
    again = Client(table.pk, await sync_to_async(token_create)(user=user))
    await again.connect()
    await again.send(top_up)
    while (answer := await again.receive())["type"] not in ("ack", "error"):
        pass
    assert answer == {"type": "ack", "id": "top-1"}
    assert await Transfer.objects.filter(kind="top_up").acount() == 1
    await again.close()


def test_the_runtime_applies_an_id_once_and_says_it_was_repeated(table, make_player):
    ann = make_player("ann")
    sit = {"kind": "sit", "buy_in": 20_000}
    first = table_act(table_id=table.pk, user=ann, action=sit, action_id='"s"')
    again = table_act(table_id=table.pk, user=ann, action=sit, action_id='"s"')
    assert (first.repeated, again.repeated) == (False, True)
    assert again.version == first.version
    table.refresh_from_db()
    assert table.version == first.version
    # Another player may use the same id: ids are per user and table.
    ben = make_player("ben")
    assert not table_act(table_id=table.pk, user=ben, action=sit, action_id='"s"').repeated


def test_a_retried_id_that_the_rules_would_now_refuse_is_answered_as_applied(table, make_player):
    ann = make_player("ann")
    table_act(table_id=table.pk, user=ann, action={"kind": "sit", "buy_in": 20_000}, action_id="1")
    # Sitting again is refused ("already in seat"), but this is the same request, retried.
    again = table_act(
        table_id=table.pk, user=ann, action={"kind": "sit", "buy_in": 20_000}, action_id="1"
    )
    assert again.repeated
    with pytest.raises(IllegalAction, match="already"):
        table_act(
            table_id=table.pk, user=ann, action={"kind": "sit", "buy_in": 20_000}, action_id="2"
        )
    entry = TableAction.objects.get(table=table, client_id="1")
    assert (entry.actor, entry.action["kind"]) == (ann, "sit")


async def test_a_database_failure_mid_action_is_answered_as_not_applied(table, monkeypatch):
    import cardroom.tables.runtime

    (ann,) = await make_clients(table, ["ann"])
    assert (await ann.act(kind="sit", buy_in=20_000))["type"] == "ack"
    await table.arefresh_from_db()
    version, transfers = table.version, await Transfer.objects.acount()
    real = cardroom.tables.runtime.ledger_post
    failures = iter([OperationalError("server closed the connection unexpectedly")])

    def dropped(*args, **kwargs):
        # The connection drops after the table was locked and the state computed.
        if (error := next(failures, None)) is not None:
            raise error
        return real(*args, **kwargs)

    monkeypatch.setattr(cardroom.tables.runtime, "ledger_post", dropped)
    top_up = {"type": "action", "id": "t", "action": {"kind": "top_up", "amount": 500}}
    await ann.send(top_up)
    while (answer := await ann.receive())["type"] not in ("ack", "error"):
        pass
    assert (answer["type"], answer["code"], answer["id"]) == ("error", "unavailable", "t")
    assert "not applied" in answer["message"]
    await table.arefresh_from_db()
    assert (table.version, await Transfer.objects.acount()) == (version, transfers)
    # The same id again, on the same socket, is tried again (a failure is not remembered).
    await ann.send(top_up)
    while (answer := await ann.receive())["type"] not in ("ack", "error"):
        pass
    assert answer == {"type": "ack", "id": "t"}
    assert await Transfer.objects.filter(kind="top_up").acount() == 1
    await ann.close()


async def test_an_unexpected_failure_is_answered_and_the_socket_stays_open(table, monkeypatch):
    import cardroom.realtime.queue

    def broken(**kwargs):
        raise KeyError("a bug")

    (ann,) = await make_clients(table, ["ann"])
    monkeypatch.setattr(cardroom.realtime.queue, "held_act", broken)
    answer = await ann.act(kind="sit", buy_in=20_000)
    assert (answer["type"], answer["code"]) == ("error", "internal")
    assert "not applied" in answer["message"]
    await ann.send({"type": "sync"})
    assert (await ann.receive())["type"] == "state"
    await ann.close()


def test_the_journal_keeps_only_what_the_rules_read(table, make_player):
    ann = make_player("ann")
    forged = {"stack": 1_000_000_000, "player": "someone", "now": 0, "deck": ["As"], "x": 1}
    table_act(table_id=table.pk, user=ann, action={"kind": "sit", "buy_in": 20_000, **forged})
    table_act(table_id=table.pk, user=ann, action={"kind": "sit_out", **forged})
    sit, sit_out = (
        entry.action for entry in TableAction.objects.filter(table=table).order_by("version")[1:]
    )
    assert sit == {**sit, "stack": 20_000, "player": "ann"}
    assert set(sit) == {"kind", "seat", "stack", "player", "now"}
    assert sit_out["now"] != 0
    assert set(sit_out) == {"kind", "seat", "now"}
    assert Table.objects.get(pk=table.pk).state["seats"][sit["seat"]]["stack"] == 20_000
