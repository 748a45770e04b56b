"""Who may read /metrics, and the probes /healthz and /readyz."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connections

pytestmark = [pytest.mark.django_db]


def test_loopback_may_read_the_metrics(client):
    response = client.get("/metrics", REMOTE_ADDR="127.0.0.1")
    assert response.status_code == 200
    assert b"cardroom_open_sockets" in response.content


def test_a_foreign_address_is_refused_and_told_why(client):
    response = client.get("/metrics", REMOTE_ADDR="203.0.113.9")
    assert response.status_code == 403
    assert b"METRICS_ALLOWED_ADDRESSES" in response.content
    assert b"cardroom_" not in response.content


def test_the_token_opens_the_metrics_from_anywhere(client, settings):
    settings.METRICS_TOKEN = "a-long-random-token"
    good = client.get(
        "/metrics", REMOTE_ADDR="203.0.113.9", HTTP_AUTHORIZATION="Bearer a-long-random-token"
    )
    assert good.status_code == 200
    assert b"cardroom_actions_applied_total" in good.content or b"cardroom_tables" in good.content
    wrong = client.get("/metrics", REMOTE_ADDR="203.0.113.9", HTTP_AUTHORIZATION="Bearer guess")
    assert wrong.status_code == 403


def test_without_a_token_set_no_bearer_opens_them(client, settings):
    settings.METRICS_TOKEN = ""
    response = client.get("/metrics", REMOTE_ADDR="203.0.113.9", HTTP_AUTHORIZATION="Bearer ")
    assert response.status_code == 403


def test_a_network_may_be_allowed(client, settings):
    settings.METRICS_ALLOWED_ADDRESSES = ["10.0.0.0/8"]
    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 403


def test_healthz_answers_while_serving(client):
    response = client.get("/healthz", REMOTE_ADDR="203.0.113.9")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_readyz_is_ready_with_the_database_and_the_layer(client):
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "checks": {"database": "ok", "channel_layer": "ok"},
    }


def test_readyz_says_the_database_is_unreachable(client, monkeypatch):
    def unreachable(self, *args, **kwargs):
        raise OperationalError("could not connect to server")

    # Undone before the test's database is rolled back, which needs a cursor.
    with monkeypatch.context() as patch:
        patch.setattr(type(connections["default"]), "cursor", unreachable)
        response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["checks"]["database"] == "failed (OperationalError)"
    assert body["checks"]["channel_layer"] == "ok"


def test_readyz_says_the_channel_layer_is_unreachable(client, monkeypatch):
    from cardroom.observability import views
    from cardroom.realtime.pubsub_layer import RedisPubSubLayer

    # A Redis layer at a port nothing listens on.
    closed = RedisPubSubLayer(hosts=[{"address": "redis://127.0.0.1:1/0"}])
    monkeypatch.setattr(views, "get_channel_layer", lambda: closed)
    monkeypatch.setattr(views, "READY_TIMEOUT_SECONDS", 2.0)
    response = client.get("/readyz")
    assert response.status_code == 503
    body = response.json()
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["channel_layer"] != "ok"


def test_the_metrics_say_which_dependency_is_down(client, monkeypatch):
    from cardroom.observability import views
    from cardroom.realtime.pubsub_layer import RedisPubSubLayer
    from tests.cardroom.observability.scrape import parse, value

    closed = RedisPubSubLayer(hosts=[{"address": "redis://127.0.0.1:1/0"}])
    monkeypatch.setattr(views, "READY_TIMEOUT_SECONDS", 2.0)
    samples = parse(client.get("/metrics").content.decode())
    assert value(samples, "cardroom_ready", check="channel_layer") == 1
    monkeypatch.setattr(views, "get_channel_layer", lambda: closed)
    samples = parse(client.get("/metrics").content.decode())
    assert value(samples, "cardroom_ready", check="channel_layer") == 0
    assert value(samples, "cardroom_ready", check="database") == 1
