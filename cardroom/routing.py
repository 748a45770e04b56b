"""WebSocket routes: the page's socket and the JSON protocol's."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import path

from cardroom.realtime import consumers

websocket_urlpatterns: list[Any] = [
    path("ws/tables/<int:table_id>/", consumers.TablePageConsumer.as_asgi()),
    path("ws/api/tables/<int:table_id>/", consumers.TableApiConsumer.as_asgi()),
]

if settings.CARDROOM_BENCH:
    # The load script's bare broadcast (cardroom/realtime/bench.py): unauthenticated, so it exists
    # only on servers started with CARDROOM_BENCH=1, never by default.
    from cardroom.realtime.bench import BroadcastConsumer, LeanBroadcastConsumer

    websocket_urlpatterns.append(path("ws/bench/broadcast/", BroadcastConsumer.as_asgi()))
    websocket_urlpatterns.append(path("ws/bench/lean/", LeanBroadcastConsumer.as_asgi()))
