"""WebSocket consumers: thin. Authenticate, check the message, call the runtime, push views.

``/ws/api/tables/<id>/`` speaks JSON (docs/protocol.md); ``/ws/tables/<id>/`` serves the page,
pushing out-of-band HTML fragments rendered from the page's own partials. Every push carries the
table's version; on a "version N" group message each connection renders its own viewer's
state, so hidden cards never leave the server for anyone not entitled to them.
"""

from __future__ import annotations

import contextlib
import json
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone

from accounts.ledger import LedgerError
from cardroom.models import Seat, Table
from cardroom.pages import table_page_context
from cardroom.presentation import cents_from_dollars
from cardroom.presentation_chinese import chinese_suggestion, suggestion_html
from cardroom.runtime import table_act, table_apply
from cardroom.selectors import table_state
from games.engine import ConfigError, IllegalAction

__all__ = ["TableApiConsumer", "TablePageConsumer", "parse_message"]

MAX_MESSAGE_BYTES = 8 * 1024
#: How many answered action ids a connection remembers, to answer a replay without applying.
REMEMBERED_IDS = 256


class MessageError(ValueError):
    """A message the protocol refuses: ``code`` and a message a person can read."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def parse_message(text: str | None) -> dict[str, Any]:
    """Check one client frame against the protocol's schema; MessageError says what is wrong."""
    if text is None:
        raise MessageError("bad_frame", "send JSON text frames, not binary")
    if len(text.encode()) > MAX_MESSAGE_BYTES:
        raise MessageError("too_large", f"a message may be at most {MAX_MESSAGE_BYTES} bytes")
    try:
        message = json.loads(text)
    except ValueError as error:
        raise MessageError("bad_json", f"not JSON: {error}") from error
    if not isinstance(message, dict):
        raise MessageError("bad_message", "a message is a JSON object with a 'type'")
    kind = message.get("type")
    if kind == "sync":
        return message
    if kind != "action":
        raise MessageError("bad_type", f"unknown type {kind!r}; types: action, sync")
    ident = message.get("id")
    if isinstance(ident, bool) or not isinstance(ident, (str, int)) or len(str(ident)) > 64:
        raise MessageError(
            "bad_id", "an action needs an 'id': a string or number, unique per client"
        )
    action = message.get("action")
    if not isinstance(action, dict) or not isinstance(action.get("kind"), str):
        raise MessageError("bad_action", "'action' must be an object with a 'kind'")
    return message


class _TableConsumer(AsyncWebsocketConsumer):  # type: ignore[misc]
    """What both table sockets share: auth, presence, rate limit, replays, versioned pushes."""

    table_id: int
    group: str
    version: int

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        if user is None or not user.is_authenticated:
            await self.close(code=4401)
            return
        if not await database_sync_to_async(Table.objects.filter(pk=self.table_id).exists)():
            await self.close(code=4404)
            return
        self.group = f"table-{self.table_id}"
        self.version = -1
        self.burst = float(settings.CARDROOM_WS_RATE_BURST)
        self.rate = float(settings.CARDROOM_WS_RATE_PER_SECOND)
        self.tokens = self.burst
        self.refilled = time.monotonic()
        self.answered: dict[str, dict[str, Any]] = {}
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await database_sync_to_async(self._presence)(+1)
        await self.push_state(force=True)

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group"):
            await self.channel_layer.group_discard(self.group, self.channel_name)
            await database_sync_to_async(self._presence)(-1)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        ident: Any = None
        try:
            self._take_token()
            message = self.read(text_data)
            if message["type"] == "sync":
                await self.push_state(force=True)
                return
            ident = message["id"]
            key = json.dumps(ident)
            if key in self.answered:
                await self.answer(self.answered[key])
                return
            answer = await self._act(ident, message["action"])
            if answer["type"] == "ack" and message["action"]["kind"] == "sit":
                # This connection was open before the seat existed: count it now.
                await database_sync_to_async(self._presence)(+1)
            self._remember(key, answer)
            await self.answer(answer)
            await self.push_state()
        except MessageError as error:
            await self.answer(
                {"type": "error", "id": ident, "code": error.code, "message": str(error)}
            )

    def read(self, text: str | None) -> dict[str, Any]:
        """The message in the JSON protocol's shape."""
        return parse_message(text)

    async def _act(self, ident: Any, action: dict[str, Any]) -> dict[str, Any]:
        if action["kind"] == "suggest":
            # A read, not an action: the solver's rows for the asker's own Chinese Poker hand.
            try:
                rows = await database_sync_to_async(chinese_suggestion)(
                    table_id=self.table_id, user_id=self.scope["user"].pk
                )
            except IllegalAction as error:
                return {"type": "error", "id": ident, "code": "refused", "message": str(error)}
            return {"type": "suggestion", "id": ident, **rows}
        try:
            await database_sync_to_async(table_act)(
                table_id=self.table_id, user=self.scope["user"], action=action
            )
        except (IllegalAction, ConfigError, LedgerError) as error:
            return {"type": "error", "id": ident, "code": "refused", "message": str(error)}
        return {"type": "ack", "id": ident}

    def _remember(self, key: str, answer: dict[str, Any]) -> None:
        self.answered[key] = answer
        if len(self.answered) > REMEMBERED_IDS:
            self.answered.pop(next(iter(self.answered)))

    def _take_token(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.refilled) * self.rate)
        self.refilled = now
        if self.tokens < 1:
            raise MessageError("rate_limited", "too many messages: slow down")
        self.tokens -= 1

    async def table_version(self, event: dict[str, Any]) -> None:
        """A group message: the table has a new version; push this viewer's state if newer."""
        if event["version"] > self.version:
            await self.push_state()

    async def push_state(self, *, force: bool = False) -> None:
        # Reads run in the thread pool, not the one thread that serialises writes: every
        # connection renders its own view after each action, and they need not queue.
        state = await database_sync_to_async(self._state, thread_sensitive=False)()
        if force or state["version"] > self.version:
            self.version = state["version"]
            await self.send_state(state)

    def _state(self) -> dict[str, Any]:
        table = Table.objects.get(pk=self.table_id)
        return table_state(table=table, user_id=self.scope["user"].pk)

    async def send_state(self, state: dict[str, Any]) -> None:
        raise NotImplementedError

    async def answer(self, answer: dict[str, Any]) -> None:
        raise NotImplementedError

    def _presence(self, change: int) -> None:
        """Count this user's connections to their seat; tell the game on 0↔1 changes."""
        user = self.scope["user"]
        with transaction.atomic():
            seat = (
                Seat.objects.select_for_update()
                .filter(table_id=self.table_id, user=user, left__isnull=True)
                .first()
            )
            if seat is None:
                return
            before = seat.connections
            seat.connections = max(0, before + change)
            seat.last_seen = timezone.now()
            if seat.connections:
                seat.presence_step = 0
            seat.save(update_fields=["connections", "last_seen", "presence_step"])
            if (before == 0) != (seat.connections == 0):
                kind = "connect" if seat.connections else "disconnect"
                # A game without presence flags, or a seat already standing up: fine.
                with contextlib.suppress(IllegalAction):
                    table_apply(table_id=self.table_id, action={"kind": kind, "seat": seat.number})


class TableApiConsumer(_TableConsumer):
    """The JSON protocol of one table, for bots, tests, load scripts and other front ends."""

    async def send_state(self, state: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(state))

    async def answer(self, answer: dict[str, Any]) -> None:
        await self.send(text_data=json.dumps(answer))


#: Form fields the page sends in dollars, turned into cents before the runtime sees them.
DOLLAR_FIELDS = ("buy_in", "amount", "ante", "pair_plus")


class TablePageConsumer(_TableConsumer):
    """The table page's socket: htmx's WebSocket extension sends forms, gets fragments back."""

    def read(self, text: str | None) -> dict[str, Any]:
        """A form from the page (``kind`` and its fields) as a protocol action."""
        if text is not None and len(text.encode()) <= MAX_MESSAGE_BYTES:
            try:
                form = json.loads(text)
            except ValueError:
                form = None
            if isinstance(form, dict) and "kind" in form:
                form.pop("HEADERS", None)
                ident = form.pop("action_id", None) or f"page-{time.monotonic_ns()}"
                for name in DOLLAR_FIELDS:
                    if name in form:
                        try:
                            form[name] = cents_from_dollars(form[name])
                        except ValueError as error:
                            raise MessageError("bad_amount", str(error)) from error
                return parse_message(json.dumps({"type": "action", "id": ident, "action": form}))
        return parse_message(text)

    async def send_state(self, state: dict[str, Any]) -> None:
        html = await database_sync_to_async(self._render, thread_sensitive=False)(state)
        await self.send(text_data=html)

    def _render(self, state: dict[str, Any]) -> str:
        table = Table.objects.get(pk=self.table_id)
        context = table_page_context(table=table, user=self.scope["user"], oob=True)
        return render_to_string("cardroom/partials/_regions.html", context)

    async def answer(self, answer: dict[str, Any]) -> None:
        if answer["type"] == "suggestion":
            await self.send(text_data=suggestion_html(answer))
        if answer["type"] == "error":
            html = render_to_string(
                "cardroom/partials/_notice.html", {"message": answer["message"], "oob": True}
            )
            await self.send(text_data=html)
