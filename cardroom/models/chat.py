"""The table chat: the lines said at tables, who muted whom, and the room-wide mutes.

Lines are kept as long as the hand history (nothing deletes them): an operator reading a
complaint reads what was said, when, and in which hand.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

#: The most characters a chat line may hold (after trimming).
MAX_CHAT_CHARS = 200


class ChatLine(models.Model):
    """One line said at a table: committed before anyone is sent it."""

    table = models.ForeignKey("cardroom.Table", on_delete=models.PROTECT, related_name="chat")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_lines"
    )
    name = models.CharField(
        max_length=150, help_text=_("The name the player was shown under when they said it.")
    )
    text = models.CharField(max_length=MAX_CHAT_CHARS)
    at = models.DateTimeField(db_index=True)
    hand = models.ForeignKey(
        "cardroom.Hand",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("The hand in play when it was said, if any."),
    )

    class Meta:
        ordering: ClassVar[list[str]] = ["-at", "-id"]
        indexes: ClassVar[list[Any]] = [
            models.Index(fields=["table", "-at"]),
            models.Index(fields=["user", "-at"]),
        ]

    def __str__(self) -> str:
        return f"{self.name} at table {self.table_id}: {self.text[:40]}"


class ChatMute(models.Model):
    """A player who does not want to read another's lines, at any table."""

    muter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_mutes"
    )
    muted = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_muted_by"
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(fields=["muter", "muted"], name="one_mute_per_pair")
        ]

    def __str__(self) -> str:
        return f"{self.muter_id} mutes {self.muted_id}"


class ChatBan(models.Model):
    """An operator's room-wide mute: the player may not chat at any table until ``until``
    (or until an operator lifts it)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="chat_bans"
    )
    until = models.DateTimeField()
    reason = models.TextField()
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created = models.DateTimeField(auto_now_add=True)
    lifted = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering: ClassVar[list[str]] = ["-created", "-id"]
        indexes: ClassVar[list[Any]] = [models.Index(fields=["user", "until"])]

    def __str__(self) -> str:
        return f"{self.user_id} muted until {self.until:%Y-%m-%d %H:%M}"

    def in_force(self, now: datetime) -> bool:
        return self.lifted is None and now < self.until
