"""The operators' side of the table chat: a player's chat muted room-wide and lifted again,
each written with its OperatorAction in one transaction, and the chat log as operators read it
(every line of every table, newest first; cardroom/chat/ says and refuses the lines)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from django.db import transaction
from django.db.models import Q, QuerySet

from accounts.models import User
from cardroom.chat import ban_in_force
from cardroom.models import ChatBan, ChatLine, OperatorActionKind
from cardroom.operators import operator_log
from games.words import words

__all__ = ["MUTE_HOURS", "chat_ban", "chat_lines", "chat_unban"]

#: The lengths of a room-wide mute an operator chooses from, in hours.
MUTE_HOURS = (1, 24, 24 * 7, 24 * 30)


def _moment(moment: datetime) -> str:
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


def chat_ban(*, actor: User, user: User, hours: int, reason: str, now: datetime) -> ChatBan:
    """Mute ``user``'s chat at every table for ``hours`` from ``now``; logged."""
    if hours not in MUTE_HOURS:
        raise ValueError(words("choose how long the chat is muted from the list"))
    with transaction.atomic():
        ban = ChatBan.objects.create(
            user=user, until=now + timedelta(hours=hours), reason=reason.strip(), by=actor
        )
        operator_log(
            actor=actor,
            kind=OperatorActionKind.CHAT_BAN,
            reason=reason,
            details={"player": user.username, "hours": hours, "until": _moment(ban.until)},
        )
    return ban


def chat_unban(*, actor: User, user: User, reason: str, now: datetime) -> int:
    """Lift every room-wide mute of ``user``'s chat in force at ``now``; logged. How many."""
    with transaction.atomic():
        if ban_in_force(user_id=user.pk, now=now) is None:
            raise ValueError(words("this player's chat is not muted room-wide"))
        lifted = ChatBan.objects.filter(user=user, lifted__isnull=True, until__gt=now).update(
            lifted=now, lifted_by=actor
        )
        operator_log(
            actor=actor,
            kind=OperatorActionKind.CHAT_UNBAN,
            reason=reason,
            details={"player": user.username},
        )
    return lifted


def chat_lines(*, table_id: int | None = None, player: str = "") -> QuerySet[ChatLine]:
    """Every line, newest first; only one table's, or only those of the player whose name
    (the name said, the display name or the username) is ``player``."""
    lines = ChatLine.objects.select_related("table", "user", "hand").order_by("-at", "-id")
    if table_id is not None:
        lines = lines.filter(table_id=table_id)
    if player := player.strip():
        lines = lines.filter(
            Q(name__iexact=player)
            | Q(user__username__iexact=player)
            | Q(user__display_name__iexact=player)
        )
    return lines
