"""/metrics after a hand played over the JSON sockets: the counters moved by what was done.

The numbers are the process's own (pytest-xdist runs each worker in a process of its own), so
each test compares a scrape after with a scrape before.
"""

from __future__ import annotations

import time

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command

from tests.cardroom.observability.scrape import scrape, value
from tests.cardroom.sockets import advance, make_clients

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(db):
    from cardroom.tables.runtime import table_create

    return table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Metrics table"
    )


async def test_a_played_hand_is_counted(table):
    before = await scrape()
    clients = await make_clients(table, ["ann", "ben", "cat"])
    during = await scrape()
    assert value(during, "cardroom_open_sockets", kind="api") == (
        value(before, "cardroom_open_sockets", kind="api") + 3
    )
    for client in clients:
        assert (await client.act(kind="sit", buy_in=20_000))["type"] == "ack"
    await advance(table)  # the clock opens the ante: one sweep, one timeout applied
    for client in clients:
        assert (await client.act(kind="ante"))["type"] == "ack"
    for client in clients:
        await client.drain(table)
    for client, choice in zip(clients, ("in", "in", "out"), strict=True):
        assert (await client.act(kind="declare", choice=choice))["type"] == "ack"
    refused = await clients[0].act(kind="fly")
    assert refused["code"] == "refused"
    for client in clients:
        await client.drain(table)
        await client.close()
    after = await scrape()

    def moved(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    for kind in ("sit", "ante", "declare"):
        assert moved("cardroom_actions_applied_total", kind=kind) == 3, kind
    # "fly" was never applied: its label is "other", so no client can invent series.
    assert moved("cardroom_actions_refused_total", kind="other", code="refused") == 1
    assert moved("cardroom_action_latency_seconds_count") == 10  # nine applied, one refused
    assert moved("cardroom_action_latency_seconds_sum") > 0
    assert moved("cardroom_open_sockets", kind="api") == 0  # all three closed again
    assert moved("cardroom_clock_sweeps_total") >= 1
    assert moved("cardroom_timeout_lateness_seconds_count") >= 1
    assert value(after, "cardroom_clock_lag_seconds") >= 0
    # Read from the database at the scrape: this test's one table, open.
    assert value(after, "cardroom_tables", status="open") == 1
    assert value(after, "cardroom_tables", status="closed") == 0


async def test_the_ledger_audit_is_read_at_the_scrape(table):
    started = time.time()
    await sync_to_async(call_command)("audit_ledger", stdout=open("/dev/null", "w"))  # noqa: SIM115
    samples = await scrape()
    assert value(samples, "cardroom_ledger_audit_ok") == 1
    assert value(samples, "cardroom_ledger_audit_timestamp_seconds") >= int(started)


def test_every_metric_has_help_and_the_prefix(client):
    from prometheus_client.parser import text_string_to_metric_families

    response = client.get("/metrics")
    ours = [
        family
        for family in text_string_to_metric_families(response.content.decode())
        if family.name.startswith("cardroom_")
    ]
    assert {family.name for family in ours} >= {
        "cardroom_open_sockets",
        "cardroom_actions_applied",
        "cardroom_actions_refused",
        "cardroom_action_latency_seconds",
        "cardroom_timeout_lateness_seconds",
        "cardroom_clock_sweeps",
        "cardroom_clock_lag_seconds",
        "cardroom_channel_overflows",
        "cardroom_logins",
        "cardroom_lockouts",
        "cardroom_ready",
        "cardroom_tables",
    }
    for family in ours:
        assert family.documentation, family.name


def test_logins_and_failures_are_counted(client, django_user_model):
    from tests.cardroom.observability.scrape import parse

    def logins(result: str) -> float:
        return value(
            parse(client.get("/metrics").content.decode()), "cardroom_logins_total", result=result
        )

    django_user_model.objects.create_user(username="dora", password="a long pass phrase")
    ok, failed = logins("succeeded"), logins("failed")
    client.post("/accounts/login/", {"username": "dora", "password": "wrong"})
    client.post("/accounts/login/", {"username": "dora", "password": "a long pass phrase"})
    assert logins("failed") == failed + 1
    assert logins("succeeded") == ok + 1


def test_a_message_dropped_from_a_full_queue_is_counted():
    from prometheus_client import REGISTRY

    from cardroom.realtime.overflow import DroppingQueue

    def dropped() -> float:
        return REGISTRY.get_sample_value("cardroom_channel_overflows_total") or 0.0

    before = dropped()
    queue = DroppingQueue(2, "specific.test")
    for number in range(5):
        queue.put_nowait({"n": number})
    assert dropped() == before + 3


def test_a_lockout_is_counted(client, django_user_model):
    from tests.cardroom.observability.scrape import parse

    def lockouts() -> float:
        return value(parse(client.get("/metrics").content.decode()), "cardroom_lockouts_total")

    django_user_model.objects.create_user(username="eve", password="a long pass phrase")
    before = lockouts()
    for _ in range(5):  # settings.LOGIN_FAILURE_LIMIT
        client.post("/accounts/login/", {"username": "eve", "password": "wrong"})
    refused = client.post("/accounts/login/", {"username": "eve", "password": "a long pass phrase"})
    assert refused.status_code == 429
    assert lockouts() > before
