"""Saying a chat line at a table, and reading a table's recent lines.

A line is refused, and nothing is stored, when its sender holds no seat at the table, when an
operator muted them room-wide, when its text is empty, longer than :data:`MAX_CHAT_CHARS` or
holds control characters, or when the sender said :data:`RATE_LINES` lines at this table in
the last :data:`RATE_SECONDS` seconds. The rate is counted from the stored lines, so it holds
across a player's sockets and the server's processes.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection
from datetime import UTC, datetime, timedelta
from math import ceil
from typing import Any

from django.db import transaction

from accounts.models import User
from cardroom.chat.bans import ban_in_force
from cardroom.models import ChatLine, Seat, Table
from cardroom.models.chat import MAX_CHAT_CHARS
from cardroom.storage.rows import chat_of_viewer
from games.words import words

__all__ = [
    "HISTORY_LINES",
    "RATE_LINES",
    "RATE_SECONDS",
    "ChatRefused",
    "chat_frame",
    "chat_text",
    "line_say",
    "lines_recent",
    "lines_seen_by",
]

#: A player may say this many lines at one table ...
RATE_LINES = 5
#: ... within this many seconds.
RATE_SECONDS = 10
#: How many of a table's latest lines a viewer gets on connect and on the page.
HISTORY_LINES = 50
#: Characters that would turn the text around the line (the name, the time) on the page:
#: bidirectional embeddings, overrides and isolates. Marks (U+200E, U+200F) stay allowed.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


class ChatRefused(ValueError):
    """A chat message refused: ``code`` is the protocol's error code (``refused``,
    ``bad_chat``, ``rate_limited``), the message a sentence of games.words."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def chat_text(text: Any) -> str:
    """The line's text, trimmed, or ChatRefused (``bad_chat``) saying what is wrong with it.

    >>> chat_text("  good luck  ")
    'good luck'
    """
    if not isinstance(text, str):
        raise ChatRefused("bad_chat", words("a chat line's 'text' must be a string"))
    trimmed: str = text.strip()
    if not trimmed:
        raise ChatRefused("bad_chat", words("a chat line may not be empty"))
    if len(trimmed) > MAX_CHAT_CHARS:
        raise ChatRefused(
            "bad_chat",
            words(
                "a chat line may be at most {most} characters long; this one has {count}",
                most=MAX_CHAT_CHARS,
                count=len(trimmed),
            ),
        )
    if any(unicodedata.category(c) == "Cc" or c in BIDI_CONTROLS for c in trimmed):
        raise ChatRefused(
            "bad_chat",
            words(
                "a chat line may not hold control characters (line breaks, tabs, "
                "or marks that turn the text's direction around)"
            ),
        )
    return trimmed


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def _line(line: ChatLine) -> dict[str, Any]:
    """A stored line as the sockets carry it; ``user_id`` is for muting, never sent out."""
    return {
        "id": line.pk,
        "from": line.name,
        "text": line.text,
        "at": _iso(line.at),
        "user_id": line.user_id,
    }


def chat_frame(line: dict[str, Any]) -> dict[str, Any]:
    """The ``chat`` frame of a line (docs/protocol.md): no user id leaves the server."""
    return {"type": "chat", **{key: value for key, value in line.items() if key != "user_id"}}


def line_say(*, table_id: int, user: User, text: Any, now: datetime) -> dict[str, Any]:
    """Check and store one line; returns it once committed (only then may it be sent)."""
    with transaction.atomic():
        if not Seat.objects.filter(table_id=table_id, user_id=user.pk, left__isnull=True).exists():
            raise ChatRefused(
                "refused",
                words("only the players seated at this table may chat; spectators may read"),
            )
        ban = ban_in_force(user_id=user.pk, now=now)
        if ban is not None:
            raise ChatRefused(
                "refused",
                words(
                    "an operator has muted your chat at every table until {until} UTC",
                    until=f"{ban.until.astimezone(UTC):%Y-%m-%d %H:%M}",
                ),
            )
        said = chat_text(text)
        window = now - timedelta(seconds=RATE_SECONDS)
        recent = list(
            ChatLine.objects.filter(table_id=table_id, user_id=user.pk, at__gt=window)
            .order_by("-at")
            .values_list("at", flat=True)[:RATE_LINES]
        )
        if len(recent) >= RATE_LINES:
            # The oldest of the last RATE_LINES lines leaves the window first.
            wait = ceil((recent[-1] - window).total_seconds()) or 1
            raise ChatRefused(
                "rate_limited",
                words(
                    "you may say {lines} lines in {seconds} seconds at a table: "
                    "try again in {wait} seconds",
                    lines=RATE_LINES,
                    seconds=RATE_SECONDS,
                    wait=wait,
                ),
            )
        hand_id = Table.objects.values_list("open_hand_id", flat=True).get(pk=table_id)
        line = ChatLine.objects.create(
            table_id=table_id, user=user, name=user.public_name, text=said, at=now, hand_id=hand_id
        )
    return _line(line)


def lines_recent(
    *, table_id: int, hidden: Collection[int] = (), limit: int = HISTORY_LINES
) -> list[dict[str, Any]]:
    """The table's latest ``limit`` lines, oldest first, leaving out those of the players in
    ``hidden`` (the reader's mutes)."""
    query = ChatLine.objects.filter(table_id=table_id)
    if hidden:
        query = query.exclude(user_id__in=list(hidden))
    latest = list(query.order_by("-at", "-id")[:limit])
    return [_line(line) for line in reversed(latest)]


def lines_seen_by(*, table_id: int, user_id: int) -> tuple[list[dict[str, Any]], set[int]]:
    """What a viewer's socket reads as it opens: ``lines_recent`` without the lines of the
    players the viewer muted, and those players' ids (``muted_ids``), read together."""
    latest, muted = chat_of_viewer(table_id, user_id, HISTORY_LINES)
    return [_line(line) for line in reversed(latest)], muted
