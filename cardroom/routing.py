"""WebSocket routes (the table consumers arrive with the table runtime)."""

from __future__ import annotations

from typing import Any

websocket_urlpatterns: list[Any] = []
