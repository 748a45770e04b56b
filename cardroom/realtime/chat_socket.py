"""The table chat over the table sockets (docs/protocol.md, "Table chat").

A ``chat`` message is checked and stored by cardroom/chat/ (committed first), then sent to the
table's group; each connection leaves out the lines of the players its viewer muted, so a
muted player's lines never reach the muter's sockets. A connection reads its viewer's mutes
when it opens and again when a "chat.mutes" message on its viewer's own group says they
changed (a mute made on any socket of theirs, at any table).

The JSON socket sends frames; the page socket sends the chat panel's HTML, escaped by the
templates' autoescape.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import sync_to_async
from django.template.loader import render_to_string
from django.utils import timezone, translation

from accounts.models import User
from cardroom.chat import (
    ChatRefused,
    chat_context,
    chat_frame,
    line_say,
    lines_seen_by,
    mute_add,
    mute_remove,
    muted_names,
    page_line,
)
from cardroom.realtime.protocol import encode_frame, error_frame
from cardroom.realtime.threads import in_read_thread, in_writes_thread
from games.words import sentence_of

__all__ = ["CHAT_TYPES", "ApiChat", "ChatRead", "ChatSocket", "PageChat", "chat_group"]

#: A viewer's chat as read: the recent lines, the ids they muted, the muted players' names.
ChatRead = tuple[list[dict[str, Any]], set[int], list[str]]

#: The client messages the chat answers (cardroom/realtime/protocol.py lets them through).
CHAT_TYPES = frozenset({"chat", "chat_mute", "chat_unmute"})


def chat_group(user_id: int) -> str:
    """The group of every table socket of one viewer: told when their mutes change."""
    return f"chat-user-{user_id}"


class ChatSocket:
    """What both table sockets do for the chat; each says it in its own form."""

    # Given by the table consumer (cardroom/realtime/consumers.py).
    user_id: int | None
    table_id: int
    group: str
    channel_layer: Any
    channel_name: str
    scope: dict[str, Any]

    #: The players whose lines this viewer does not read.
    chat_muted: frozenset[int] = frozenset()
    #: This socket joined its viewer's chat group.
    chat_joined = False
    #: While the socket opens: the lines said meanwhile, kept until its recent lines are sent
    #: (a socket fed by its process's hub is handed them before; cardroom/realtime/fanout.py).
    chat_waiting: list[dict[str, Any]] | None = None

    # The consumer's own methods (declared, not defined: a definition here would come before
    # Channels' in the consumers' method order).
    say: Callable[[str], str]
    send: Callable[..., Awaitable[None]]

    async def chat_join(self) -> None:
        """On connect, before the viewer's chat is read (``chat_read``): join their group, so
        that a change of their mutes made after the read reaches this socket."""
        assert self.user_id is not None
        await self.channel_layer.group_add(chat_group(self.user_id), self.channel_name)
        self.chat_joined = True

    async def chat_open(self, read: ChatRead) -> None:
        """On connect, after the state: the recent lines of ``read`` (``chat_read``, made
        after ``chat_join``) without the muted players', then the lines said meanwhile."""
        sent = await self._chat_send(read)
        # The lines said while the socket opened, after the recent lines and once the mutes
        # are known: those the recent lines did not hold, none of a muted player's.
        waiting, self.chat_waiting = self.chat_waiting, None
        for line in waiting or ():
            if line["id"] not in sent and line["user_id"] not in self.chat_muted:
                await self.chat_show(line)

    async def chat_close(self) -> None:
        if self.chat_joined and self.user_id is not None:
            self.chat_joined = False
            await self.channel_layer.group_discard(chat_group(self.user_id), self.channel_name)

    async def chat_reread(self) -> set[int]:
        """Read the viewer's mutes and send the recent lines without the muted players'; the
        ids of the lines sent."""
        return await self._chat_send(await in_read_thread(self.chat_read))

    async def _chat_send(self, read: ChatRead) -> set[int]:
        lines, muted, names = read
        self.chat_muted = frozenset(muted)
        await self.chat_history(lines, names)
        return {line["id"] for line in lines}

    def chat_read(self) -> ChatRead:
        """The viewer's recent lines at this table, their mutes and the muted players' names (a
        database read: in the pool)."""
        assert self.user_id is not None
        lines, muted = lines_seen_by(table_id=self.table_id, user_id=self.user_id)
        return lines, muted, muted_names(self.user_id) if muted else []

    async def chat_receive(self, message: dict[str, Any]) -> None:
        """A client's chat message: a line to say, or a mute to add or take back."""
        ident = message.get("id")
        user: User = self.scope["user"]
        try:
            if message["type"] == "chat":
                line = await in_writes_thread(
                    line_say,
                    table_id=self.table_id,
                    user=user,
                    text=message.get("text"),
                    now=timezone.now(),
                )
                # Committed: only now is it sent to anyone.
                await self.channel_layer.group_send(
                    self.group, {"type": "chat.line", "group": self.group, "line": line}
                )
                await self.chat_said(ident)
                return
            mute = message["type"] == "chat_mute"
            change = mute_add if mute else mute_remove
            other = await in_writes_thread(change, muter=user, name=message.get("player"))
        except ChatRefused as refusal:
            await self.chat_refused(ident, refusal.code, self.say(sentence_of(refusal)))
            return
        # This socket's lines come from its process's hub, not through the channel the group
        # message below reaches: without this, a line said just after the change could be
        # judged by the mutes from before it.
        self.chat_muted = self.chat_muted | {other.pk} if mute else self.chat_muted - {other.pk}
        # Every socket of this viewer (this one too) reads its mutes again.
        assert self.user_id is not None
        await self.channel_layer.group_send(chat_group(self.user_id), {"type": "chat.mutes"})

    async def chat_line(self, event: dict[str, Any]) -> None:
        """A group message: a line was said at this table (stored already)."""
        line = event["line"]
        if self.chat_waiting is not None:  # the socket is opening: sent after its recent lines
            self.chat_waiting.append(line)
            return
        if line["user_id"] in self.chat_muted:
            return
        await self.chat_show(line)

    async def chat_mutes(self, event: dict[str, Any]) -> None:
        """A group message: this viewer's mutes changed."""
        await self.chat_reread()

    async def chat_history(self, lines: list[dict[str, Any]], muted: list[str]) -> None:
        raise NotImplementedError

    async def chat_show(self, line: dict[str, Any]) -> None:
        raise NotImplementedError

    async def chat_said(self, ident: Any) -> None:
        """The sender's own answer to a line that was said (they get the line as everyone)."""

    async def chat_refused(self, ident: Any, code: str, message: str) -> None:
        raise NotImplementedError


class ApiChat(ChatSocket):
    """The chat as JSON frames."""

    async def chat_history(self, lines: list[dict[str, Any]], muted: list[str]) -> None:
        frame = {"type": "chat_history", "lines": [chat_frame(line) for line in lines]}
        await self.send(text_data=encode_frame({**frame, "muted": muted}))

    async def chat_show(self, line: dict[str, Any]) -> None:
        await self.send(text_data=encode_frame(chat_frame(line)))

    async def chat_refused(self, ident: Any, code: str, message: str) -> None:
        await self.send(text_data=encode_frame(error_frame(ident, code, message)))


class PageChat(ChatSocket):
    """The chat as the page's HTML: the panel's lines, out of band."""

    language: str | None

    def _draw(self, template: str, context: dict[str, Any]) -> str:
        with translation.override(self.language):
            return render_to_string(template, {**context, "viewer_id": self.user_id, "oob": True})

    async def chat_history(self, lines: list[dict[str, Any]], muted: list[str]) -> None:
        # Fifty lines' templates: drawn in the thread pool, off the event loop.
        html = await sync_to_async(self._draw, thread_sensitive=False)(
            "cardroom/partials/_chat_lines.html", {"chat": chat_context(lines, muted)}
        )
        await self.send(text_data=html)

    async def chat_show(self, line: dict[str, Any]) -> None:
        html = self._draw("cardroom/partials/_chat_line_oob.html", {"line": page_line(line)})
        await self.send(text_data=html)

    async def chat_said(self, ident: Any) -> None:
        await self.send(text_data=self._draw("cardroom/partials/_chat_notice.html", {}))

    async def chat_refused(self, ident: Any, code: str, message: str) -> None:
        html = self._draw("cardroom/partials/_chat_notice.html", {"message": message})
        await self.send(text_data=html)
