"""WebSocket consumers: thin. Authenticate, check the message, call the runtime, push views.

``/ws/api/tables/<id>/`` speaks JSON (docs/protocol.md); ``/ws/tables/<id>/`` serves the page,
pushing out-of-band HTML fragments rendered from the page's own partials. Every push carries the
table's version; on a "version N" group message each connection renders its own viewer's
state, so hidden cards never leave the server for anyone not entitled to them.

Each socket speaks its handshake's language (accounts/language.py, ``scope_language``): an
error frame's message is the rules' sentence said in it, and the page's fragments are drawn
under it. A sentence is said by the consumer that caught the refusal, in memory: a channel
layer's hop (msgpack over Redis) would leave only its English text.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from asgiref.sync import sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.db import DatabaseError
from django.template.loader import render_to_string
from django.utils import timezone, translation

from accounts.language import counting_chips, said, scope_language
from accounts.ledger import LedgerError
from accounts.selectors import bankroll_balance
from cardroom.models import Table, TableStatus
from cardroom.observability.metrics import OPEN_SOCKETS, action_answered
from cardroom.presentation import cents_from_dollars
from cardroom.presentation.chinese import chinese_suggestion, suggestion_html
from cardroom.presentation.pages import page_context
from cardroom.realtime import freshness
from cardroom.realtime.auth import NOT_LOGGED_IN, REVOKED, token_group
from cardroom.realtime.chat_socket import CHAT_TYPES, ApiChat, ChatRead, ChatSocket, PageChat
from cardroom.realtime.dispatch import DispatchWithoutHop
from cardroom.realtime.fanout import feed, starve
from cardroom.realtime.logins import (
    LOGIN_ENDED,
    Login,
    login_closed,
    login_holds,
    login_of,
    login_opened,
    login_seen,
)
from cardroom.realtime.owners import route_act, route_ahead, route_presence
from cardroom.realtime.protocol import (
    MessageError,
    check_message,
    check_text,
    decode,
    encode_frame,
    error_frame,
    id_key,
    parse_message,
)
from cardroom.realtime.snapshot_reads import shared_snapshot, shared_snapshot_and
from cardroom.realtime.threads import in_action_thread, in_read_thread, in_writes_thread
from cardroom.tables.held import PRESENCE, held_act
from cardroom.tables.presence import seat_connections_count
from cardroom.tables.runtime import Request
from cardroom.tables.snapshots import state_frame
from games.engine import ConfigError, IllegalAction
from games.words import sentence_of, words

__all__ = ["TableApiConsumer", "TablePageConsumer", "parse_message"]

log = logging.getLogger(__name__)

#: How many answered action ids a connection remembers, to answer a replay at once. Applied
#: ids are also kept in the database (ActionReceipt), across connections and processes.
REMEMBERED_IDS = 256
UNAVAILABLE = words(
    "the cardroom could not reach its database, so this was not applied: send it again with "
    "the same id (an action that was applied is never applied twice)"
)
INTERNAL = words("something went wrong on our side, so this was not applied: you may send it again")
#: Answers a client should be able to retry with the same id: they are not remembered.
RETRYABLE = frozenset({"unavailable", "internal", "rate_limited"})
#: The clock a connection's rate-limit tokens come back by (a monotonic one; the tests set
#: their own, so a flood's answers do not depend on how fast a loaded machine sends it).
rate_clock: Callable[[], float] = time.monotonic
#: Table ids are bigint primary keys: a larger number in the URL names no table.
MAX_TABLE_ID = 2**63 - 1
#: How long a socket waits for the table's owner to apply its presence notice before applying
#: it itself: a socket's next frames wait behind it (an owner that died answers nothing).
PRESENCE_ANSWER_SECONDS = 2.0


class _TableConsumer(DispatchWithoutHop, ChatSocket, AsyncWebsocketConsumer):  # type: ignore[misc]
    """What both table sockets share: auth, presence, rate limit, replays, versioned pushes."""

    #: The viewer's user id, set once the socket is let in.
    user_id: int | None = None
    #: What the socket logged in with, asked again before each frame (cardroom/realtime/logins.py).
    login: Login | None = None
    #: The login no longer holds: the socket is closing, and reads nothing more.
    logged_out = False

    table_id: int
    group: str
    version: int
    snapshot: dict[str, Any] | None = None
    #: The viewer holds a seat here: this process renews its presence lease.
    seated = False
    #: When this socket last took a version (cardroom/realtime/freshness.py).
    fresh_at = 0.0
    #: When this socket was last counted in its seat's connections: taken back when it closes,
    #: from the seat its player held by then only (``count_new_seat`` moves it to a newer one).
    counted: datetime | None = None
    #: The handshake is over: from now on a seat its player takes through another socket is
    #: counted on this one too when its version comes (``count_new_seat``).
    opened = False
    #: Sits sent over this socket and not answered yet, and the version of the last one it
    #: applied: the seat they make counts this socket itself (``present``).
    sitting = 0
    sat_version: int | None = None
    #: The counts ``count_new_seat`` has under way (set at connect).
    counting: set[asyncio.Task[None]]
    #: The handshake's language (the switcher's cookie, else Accept-Language), set at connect.
    language: str | None = None
    #: The label this socket is counted under in the open sockets' gauge, once let in.
    socket_kind = "api"
    metered = False
    #: Fed the table's messages by the process's hub (cardroom/realtime/fanout.py) rather than
    #: through a channel of its own in the table's group.
    fed = False
    #: A read of the table's state is under way (the first, or after a gap: a fed socket
    #: reads in a task), and the newest version message that came meanwhile.
    resyncing = False
    waiting: dict[str, Any] | None = None
    reading: asyncio.Future[None] | None = None
    #: The socket is answering a frame of its client; the versions that came meanwhile.
    answering = False
    held: list[dict[str, Any]]

    async def connect(self) -> None:
        self.counting = set()
        self.language = scope_language(self.scope)
        # A refusal is accepted, then closed with its code: a handshake refused outright
        # reaches the client as HTTP 403, and "log in" could not be told from "no such table".
        user = self.scope.get("user")
        self.table_id = int(self.scope["url_route"]["kwargs"]["table_id"])
        if user is None or not user.is_authenticated or not user.is_active:
            # A refusal the login checks chose (cardroom/realtime/auth.py): a locked-out
            # address, a session owing its two-factor code.
            await self.refuse(*self.scope.get("auth_refusal", (4401, "")))
            return
        self.login = login_of(self.scope)
        if self.login is None:
            await self.refuse(NOT_LOGGED_IN)
            return
        if (read_at := self.scope.get("login_read_at")) is not None:
            login_seen(self.login, read_at)  # the handshake's read: the first check
        login_opened(self.login)  # kept fresh while the socket is open
        self.login_open = True
        if not 0 < self.table_id <= MAX_TABLE_ID:
            await self.refuse(4404)
            return
        self.group = f"table-{self.table_id}"
        # Read once: the scope's user is a lazy object, and every frame asked it again.
        self.user_id = user.pk
        self.version = -1
        self.burst = float(settings.CARDROOM_WS_RATE_BURST)
        self.rate = float(settings.CARDROOM_WS_RATE_PER_SECOND)
        self.tokens = self.burst
        self.refilled = rate_clock()
        self.answered: dict[str, dict[str, Any]] = {}
        self.held = []
        self.chat_waiting = []  # the chat's lines wait for its recent lines (chat_socket.py)
        if self.fed:
            # The process's hub hands it the table's messages (fanout.py); those that come
            # before its first state is read wait for it.
            self.resyncing = True
            await feed(self)
        else:
            await self.channel_layer.group_add(self.group, self.channel_name)
        if (token_id := self.scope.get("api_token_id")) is not None:
            # Revoking the token closes this socket (cardroom/realtime/auth.py, token_revoke).
            self.token_group = token_group(token_id)
            await self.channel_layer.group_add(self.token_group, self.channel_name)
        # The viewer's chat group too, before the read of their lines and mutes: no line or
        # mute falls between the two (chat_socket.py).
        await self.chat_join()
        # The first read comes after joining the group, so no version falls between the two,
        # and it answers whether the table exists: no query of its own before.
        try:
            snapshot, chat = await self.read_opening()
        except Table.DoesNotExist:
            await self.refuse(4404)  # disconnect() leaves the groups, as for any socket
            return
        except Exception:
            # Closed as a server error, which a client retries, rather than left to fail the
            # handshake: only a socket that was answered gets its disconnect(), which leaves
            # the groups and the count of open logins.
            log.exception("table %s: a socket's first read failed", self.table_id)
            await self.refuse(1011)
            return
        await self.accept()
        self.metered = True
        OPEN_SOCKETS.labels(kind=self.socket_kind).inc()
        try:
            await self.push_state(force=True, snapshot=snapshot)
            await self.chat_open(chat)  # the recent lines, after the state (chat_socket.py)
        except Exception:
            # As for a first read that fails (above): closed as a server error, which a
            # client retries, so that disconnect() leaves the groups and the counts.
            log.exception("table %s: a socket's first frames failed", self.table_id)
            self.waiting = None  # nothing more for a socket being closed
            await self.close(1011)
            return
        finally:
            # The versions the hub brought meanwhile wait until here, so that the protocol's
            # order holds (docs/protocol.md): the state, the chat, then the newer states.
            self._read()
        # Watched once its first frames are out: a freshness round's repair would otherwise
        # come between them when the chat's lines are slow to read.
        freshness.watch(self)
        # Only a seated player's socket is counted: most sockets open before their sit, which
        # counts them itself, and a write per watcher would queue behind the actions.
        if self.seated and await self.presence(+1):
            self.counted = timezone.now()
        self.opened = True
        if snapshot.get("status") != TableStatus.CLOSED:
            # The table's owner, learned or taken now, off the path of its first action; last,
            # so that the handshake's steps above are as they were without it.
            await route_ahead(self.table_id)

    def say(self, text: str) -> str:
        """A sentence of the rules (or a plain message) in this socket's language."""
        chips = bool(self.snapshot and self.snapshot.get("plays_for_chips"))
        with translation.override(self.language), counting_chips(chips):
            return said(text)

    def close_reason(self, reason: str) -> str | None:
        """A close frame's reason in this socket's language; it may hold 123 bytes, so a
        longer translation gives way to the English."""
        if not reason:
            return None
        spoken = self.say(reason)
        return spoken if len(spoken.encode()) <= 123 else str(reason)

    async def refuse(self, code: int, reason: str = "") -> None:
        await self.accept()
        await self.close(code=code, reason=self.close_reason(reason))

    async def token_revoked(self, event: dict[str, Any]) -> None:
        """The token this socket logged in with was revoked: the socket closes at once (the
        fast way; a lost message is made good by the check on the next frame)."""
        await self.login_lost(REVOKED)

    async def login_lost(self, reason: str = LOGIN_ENDED) -> None:
        """Close with 4401: the login this socket was opened with no longer holds."""
        if not self.logged_out:
            self.logged_out = True
            await self.close(code=NOT_LOGGED_IN, reason=self.close_reason(reason))

    async def disconnect(self, code: int) -> None:
        if self.metered:
            self.metered = False
            OPEN_SOCKETS.labels(kind=self.socket_kind).dec()
        if getattr(self, "login_open", False) and self.login is not None:
            self.login_open = False
            login_closed(self.login)
        if hasattr(self, "token_group"):
            await self.channel_layer.group_discard(self.token_group, self.channel_name)
        if hasattr(self, "group"):
            freshness.unwatch(self)
            await self.chat_close()
            if self.fed:
                await starve(self)
            else:
                await self.channel_layer.group_discard(self.group, self.channel_name)
            if getattr(self, "counting", None):  # a count under way lands, then is taken back
                await asyncio.wait(list(self.counting))
            if self.counted is not None:
                await self.presence(-1, self.counted)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """Every frame gets an answer, and the socket stays open whatever the frame held,
        unless its login no longer holds: then no frame is read, and the socket closes. A
        socket fed by the hub holds the versions that come while it answers, and sends them
        after its answer, as a socket with its own channel takes its messages after it."""
        if not hasattr(self, "held"):  # refused at connect: nothing is fed to it
            await self._receive(text_data)
            return
        self.answering = True
        try:
            await self._receive(text_data)
        finally:
            self.answering = False
            held, self.held = self.held, []
            for event in held:
                await self.table_version(event)

    async def _receive(self, text_data: str | None) -> None:
        ident: Any = None
        started = time.perf_counter()  # the action's latency, to its answer (self.reply)
        kind: str | None = None
        try:
            # Every frame, a read (``sync``) as much as an action: a state frame holds the
            # viewer's own cards. One look-up while the verdict is fresh (logins.py).
            if self.logged_out or not await login_holds(self.login):
                await self.login_lost()
                return
            # Reading is bounded (size, depth, amounts' shape), so a refused frame's id can
            # be read before the rate limit, and the client can tell which action it was.
            try:
                message = self.read(text_data)
            except MessageError:
                self._take_token()  # a flood of bad frames is limited like any other
                raise
            ident = message.get("id")
            self._take_token()
            if message["type"] == "sync":
                await self.push_state(force=True)
                return
            if message["type"] in CHAT_TYPES:
                await self.chat_receive(message)
                return
            key = id_key(ident)
            if key in self.answered:
                await self.answer(self.answered[key])
                return
            kind = message["action"]["kind"]
            # An id the page made up for a form is never sent again: no receipt for it.
            durable = key if message.get("durable", True) else None
            answer = await self._act(ident, durable, message["action"])
            if answer.get("code") not in RETRYABLE:
                self._remember(key, answer)
            await self.reply(answer, kind, started)
        except MessageError as error:
            refusal = self.say(sentence_of(error))
            await self.reply(error_frame(error.ident or ident, error.code, refusal), kind, started)
        except DatabaseError:
            log.exception("table %s: the database failed on a frame", self.table_id)
            await self.reply(
                error_frame(ident, "unavailable", self.say(UNAVAILABLE)), kind, started
            )
        except Exception:
            log.exception("table %s: a frame failed", self.table_id)
            await self.reply(error_frame(ident, "internal", self.say(INTERNAL)), kind, started)

    async def reply(self, answer: dict[str, Any], kind: str | None, started: float) -> None:
        """Send an action's answer and count it (cardroom/observability/metrics.py): applied
        unless it is an error; ``started``, when its frame came, for the latency."""
        await self.answer(answer)
        action_answered(kind, answer.get("code"), started)

    def read(self, text: str | None) -> dict[str, Any]:
        """The message in the JSON protocol's shape."""
        return parse_message(text)

    async def _act(self, ident: Any, key: str | None, action: dict[str, Any]) -> dict[str, Any]:
        """Apply one action; the answer says whether it was applied (a failure never was: the
        action's transaction rolled back, and its receipt with it)."""
        if action["kind"] == "suggest":
            # A read, not an action: the solver's rows for the asker's own Chinese Poker hand.
            try:
                rows = await in_read_thread(
                    chinese_suggestion, table_id=self.table_id, user_id=self.scope["user"].pk
                )
            except IllegalAction as error:
                return error_frame(ident, "refused", self.say(sentence_of(error)))
            return {"type": "suggestion", "id": ident, **rows}
        sit = action["kind"] == "sit"
        self.sitting += sit
        try:
            # Queued with the other actions waiting for this table (cardroom/realtime/queue.py),
            # at its owner's where processes share tables (cardroom/realtime/owners.py).
            outcome = await route_act(
                table_id=self.table_id,
                user=self.scope["user"],
                action=action,
                action_id=key,
                present=True,  # a seat this sit creates counts this socket
            )
        except (IllegalAction, ConfigError, LedgerError) as error:
            # Said here, where the refusal is in memory with its sentence.
            return error_frame(ident, "refused", self.say(sentence_of(error)))
        except DatabaseError:
            log.exception("table %s: the database failed on an action", self.table_id)
            return error_frame(ident, "unavailable", self.say(UNAVAILABLE))
        finally:
            self.sitting -= sit
        if sit and not outcome.repeated:
            self.counted = timezone.now()  # the seat was made counting this socket
            self.sat_version = outcome.version
        return {"type": "ack", "id": ident}

    def _remember(self, key: str, answer: dict[str, Any]) -> None:
        self.answered[key] = answer
        if len(self.answered) > REMEMBERED_IDS:
            self.answered.pop(next(iter(self.answered)))

    def _take_token(self) -> None:
        now = rate_clock()
        self.tokens = min(self.burst, self.tokens + (now - self.refilled) * self.rate)
        self.refilled = now
        if self.tokens < 1:
            raise MessageError("rate_limited", words("too many messages: slow down"))
        self.tokens -= 1

    async def table_version(self, event: dict[str, Any]) -> None:
        """A group message: the table has a new version. With its snapshot (the runtime's),
        this viewer's frame is built in memory; without (an operator's change), it is read.
        It is read too after a gap: a version this socket never got (its full queue dropped
        it, cardroom/realtime/overflow.py, or the push was lost on the way) may have carried
        what the snapshot in hand leaves out, the recent hands, a bankroll or a tournament's
        state."""
        if event["version"] <= self.version:
            return
        if self.answering:  # sent after the answer to the frame in hand (``receive``)
            self.held.append(event)
            return
        if self.resyncing:  # the newest waits for the read under way (``_read``)
            if self.waiting is None or event["version"] > self.waiting["version"]:
                self.waiting = event
            return
        snapshot = event.get("snapshot")
        if snapshot is None or event["version"] > self.version + 1:
            if not self.fed:
                await self.push_state()
                return
            # The hub feeds the table's other sockets too: the read goes in a task of its own,
            # and the versions that come meanwhile are left to it.
            self.resyncing = True
            self.reading = asyncio.ensure_future(self.push_state())
            self.reading.add_done_callback(self._resynced)
            return
        kept = self.keep(snapshot)
        await self.send_state(state_frame(kept, self.user_id))

    def _resynced(self, task: asyncio.Future[None]) -> None:
        if not task.cancelled() and (error := task.exception()) is not None:
            log.error("table %s: a socket's read after a gap failed: %r", self.table_id, error)
        self._read()

    def _read(self) -> None:
        """A read of the state is over: the newest version that came meanwhile, if newer, is
        taken now (a gap after it starts another read)."""
        self.resyncing = False
        waiting, self.waiting = self.waiting, None
        if waiting is not None and waiting["version"] > self.version:
            self.reading = asyncio.ensure_future(self.table_version(waiting))

    async def push_state(
        self, *, force: bool = False, snapshot: dict[str, Any] | None = None
    ) -> None:
        """This viewer's frame from the database: on connect (``snapshot``, read already), on
        ``sync``, when a version came without its snapshot. Reads run in the thread pool, not
        the one thread that serialises writes."""
        if snapshot is None:
            snapshot = await self.read_snapshot()
        # Never back: a socket fed by the hub may have sent a newer version meanwhile.
        if snapshot["version"] > self.version or (force and snapshot["version"] == self.version):
            kept = self.keep(snapshot)
            await self.send_state(state_frame(kept, self.user_id))

    async def read_snapshot(self) -> dict[str, Any]:
        """The table's snapshot from the database, shared with this table's other sockets
        that ask at the same moment (cardroom/realtime/snapshot_reads.py)."""
        return await shared_snapshot(self.table_id)

    async def read_opening(self) -> tuple[dict[str, Any], ChatRead]:
        """The socket's first read: the table's snapshot as ``read_snapshot`` reads it, and
        the viewer's chat after it, in one trip to the pool."""
        return await shared_snapshot_and(self.table_id, self.chat_read)

    def keep(self, snapshot: dict[str, Any]) -> dict[str, Any]:
        """The latest snapshot; what a version did not change (the log of hands, a
        tournament's state) carries."""
        before = self.snapshot
        if before is not None and "recent" not in snapshot:
            snapshot = {**snapshot, "recent": before.get("recent", [])}
        if before is not None and "tournament" not in snapshot and "tournament" in before:
            snapshot = {**snapshot, "tournament": before["tournament"]}
        self.snapshot = snapshot
        self.version = snapshot["version"]
        self.fresh_at = time.monotonic()
        user, was = self.user_id, self.seated
        self.seated = any(entry[1] == user for entry in snapshot["seats"])
        if was and not self.seated:
            self.sat_version = None  # stood up: a seat taken later is a new one
        elif self.seated and not was and self.opened:
            self.count_new_seat(snapshot["version"])
        return snapshot

    def count_new_seat(self, version: int) -> None:
        """The player took a seat while this socket was open: unless this socket's own sit
        made it (which counted this socket), count this socket there too, in the background,
        so that closing the socket they sat from does not tell the game they left."""
        if self.sitting or (self.sat_version is not None and version >= self.sat_version):
            return
        task = asyncio.ensure_future(self._count_new_seat())
        self.counting.add(task)
        task.add_done_callback(self.counting.discard)

    async def _count_new_seat(self) -> None:
        try:
            if await self.presence(+1):
                self.counted = timezone.now()
        except Exception:  # left uncounted: the socket the player sat from still counts
            log.exception("table %s: a socket could not count itself on a new seat", self.table_id)

    async def send_state(self, state: dict[str, Any]) -> None:
        raise NotImplementedError

    async def answer(self, answer: dict[str, Any]) -> None:
        raise NotImplementedError

    async def presence(self, change: int, counted: datetime | None = None) -> bool:
        """``_presence`` where writes go (on PostgreSQL beside the actions, row locks keep them
        apart; on SQLite in its one writer's thread); then, on a change between none and some,
        the game is told by the table's owner with the table's actions (``tell_presence``)."""
        done, changed = await in_writes_thread(self._presence, change, counted)
        if changed is not None:
            await self.tell_presence(changed)
        return done

    def _presence(self, change: int, counted: datetime | None = None) -> tuple[bool, int | None]:
        """Count this user's connections to their seat. ``counted``: only a seat taken by
        then. Whether there is such a seat here, and its number if its count went between none
        and some (the game is to be told)."""
        user_id = self.user_id
        assert user_id is not None  # counted only for a player's socket, once it was accepted
        counts = seat_connections_count(
            table_id=self.table_id, user_id=user_id, change=change, now=timezone.now(),
            taken_by=counted,
        )  # fmt: skip
        if counts is None:
            return False, None
        number, before, after = counts
        return True, number if (before == 0) != (after == 0) else None

    async def tell_presence(self, seat: int) -> None:
        """Tell the game ``connect`` or ``disconnect`` as the seat's count says when its owner
        applies the notice, in turn with the table's actions, so that the owner's table
        stays held (cardroom/tables/held.py, ``PRESENCE``). Where the owner cannot be
        reached (or takes longer than ``PRESENCE_ANSWER_SECONDS``), through the table's
        lock here: the notice says nothing but "read the count", so applying it twice,
        or out of order with another, leaves the game as the count is."""
        try:
            await asyncio.wait_for(
                route_presence(table_id=self.table_id, seat=seat), PRESENCE_ANSWER_SECONDS
            )
        except IllegalAction:
            pass  # a game without presence flags, or a seat already standing up: fine
        except Exception as failure:
            log.warning("table %s: a presence notice failed; applied here", self.table_id,
                        exc_info=True)  # fmt: skip
            request = Request(None, {"kind": PRESENCE, "seat": seat})
            answers, _ = await in_action_thread(
                held_act, table_id=self.table_id, requests=[request], held=None
            )
            if isinstance(answers[0], Exception) and not isinstance(answers[0], IllegalAction):
                raise answers[0] from failure


class TableApiConsumer(ApiChat, _TableConsumer):
    """The JSON protocol of one table, for bots, tests, load scripts and other front ends."""

    fed = True

    async def send_state(self, state: dict[str, Any]) -> None:
        await self.send(text_data=encode_frame(state))

    async def answer(self, answer: dict[str, Any]) -> None:
        await self.send(text_data=encode_frame(answer))


#: Form fields the page sends in dollars, turned into cents before the runtime sees them.
DOLLAR_FIELDS = ("buy_in", "amount", "ante", "pair_plus")


class TablePageConsumer(PageChat, _TableConsumer):
    """The table page's socket: htmx's WebSocket extension sends forms, gets fragments back."""

    socket_kind = "page"

    def read(self, text: str | None) -> dict[str, Any]:
        """A form from the page (``kind`` and its fields) as a protocol action."""
        if text is None:
            return parse_message(text)
        check_text(text)
        form = decode(text)
        if isinstance(form, dict):
            form.pop("HEADERS", None)  # htmx's, on every form (the chat's too)
        if not (isinstance(form, dict) and "kind" in form):
            return check_message(form)
        ident = form.pop("action_id", None)
        durable = ident is not None
        ident = ident or f"page-{time.monotonic_ns()}"
        for name in DOLLAR_FIELDS:
            if name in form:
                try:
                    # Read as the page's language writes amounts (a decimal comma in es/nb).
                    with translation.override(self.language):
                        form[name] = cents_from_dollars(form[name])
                except ValueError as error:
                    raise MessageError("bad_amount", sentence_of(error)) from error
        seat = form.get("seat")
        if isinstance(seat, str) and seat.isascii() and seat.isdigit():
            # A form's seat (the seat map's "Sit here") comes as text; the protocol's is a number.
            form["seat"] = int(seat)
        return check_message({"type": "action", "id": ident, "action": form, "durable": durable})

    bankroll: int = 0

    async def read_snapshot(self) -> dict[str, Any]:
        snapshot = await super().read_snapshot()
        # The viewer's own bankroll, read after the table's (so never older than the snapshot);
        # later versions carry it when it moves.
        self.bankroll = await in_read_thread(bankroll_balance, user=self.scope["user"])
        return snapshot

    async def read_opening(self) -> tuple[dict[str, Any], ChatRead]:
        # The bankroll as ``read_snapshot`` reads it, in the same trip as the rest.
        snapshot, (chat, self.bankroll) = await shared_snapshot_and(self.table_id, self._page_reads)
        return snapshot, chat

    def _page_reads(self) -> tuple[ChatRead, int]:
        return self.chat_read(), bankroll_balance(user=self.scope["user"])

    def keep(self, snapshot: dict[str, Any]) -> dict[str, Any]:
        kept = super().keep(snapshot)
        self.bankroll = snapshot.get("bankrolls", {}).get(str(self.user_id), self.bankroll)
        return kept

    async def send_state(self, state: dict[str, Any]) -> None:
        assert self.snapshot is not None
        # Templates are the costly part: drawn in the thread pool, off the event loop.
        html = await sync_to_async(self._regions, thread_sensitive=False)(
            self.snapshot, state, self.bankroll
        )
        await self.send(text_data=html)

    def _regions(self, snapshot: dict[str, Any], state: dict[str, Any], bankroll: int) -> str:
        """The page's regions for this viewer, in this socket's language: the context and the
        template in one thread, since the active language belongs to a thread."""
        chips = bool(snapshot.get("plays_for_chips"))  # a sit-and-go's table counts chips
        with translation.override(self.language), counting_chips(chips):
            context = page_context(
                snapshot=snapshot, state=state, bankroll_cents=bankroll, oob=True
            )
            return render_to_string("cardroom/partials/_regions.html", context)

    #: Whether the page shows an error notice: the next applied action clears it, since an
    #: error left on screen through later hands reads as if it still applied.
    notice_shown: bool = False

    async def answer(self, answer: dict[str, Any]) -> None:
        # The error's message was said in this socket's language when the frame was made.
        if answer["type"] == "suggestion":
            with translation.override(self.language):
                html = suggestion_html(answer)
            await self.send(text_data=html)
        if answer["type"] == "error":
            self.notice_shown = True
            with translation.override(self.language):
                html = notice_html(answer["message"])
            await self.send(text_data=html)
        elif answer["type"] == "ack" and self.notice_shown:
            self.notice_shown = False
            with translation.override(self.language):
                html = notice_html("")
            await self.send(text_data=html)


def notice_html(message: str) -> str:
    """The page's notice region, out of band: an error in words, or empty to clear it."""
    return render_to_string("cardroom/partials/_notice.html", {"message": message, "oob": True})
