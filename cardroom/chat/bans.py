"""Whether an operator has muted a player's chat room-wide (cardroom/operators/chat.py
records and lifts those mutes, each in the operator log)."""

from __future__ import annotations

from datetime import datetime

from cardroom.models import ChatBan

__all__ = ["ban_in_force"]


def ban_in_force(*, user_id: int, now: datetime) -> ChatBan | None:
    """The room-wide mute in force on the player at ``now`` that ends last, or None."""
    return (
        ChatBan.objects.filter(user_id=user_id, lifted__isnull=True, until__gt=now)
        .order_by("-until")
        .first()
    )
