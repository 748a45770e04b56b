"""WebSocket routes: the page's socket and the JSON protocol's."""

from __future__ import annotations

from typing import Any

from django.urls import path

from cardroom import consumers

websocket_urlpatterns: list[Any] = [
    path("ws/tables/<int:table_id>/", consumers.TablePageConsumer.as_asgi()),
    path("ws/api/tables/<int:table_id>/", consumers.TableApiConsumer.as_asgi()),
]
