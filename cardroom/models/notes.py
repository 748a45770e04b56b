"""Staff notes about a player: what operators want the next operator to know.

Kept in the cardroom, beside the operator log: each note is logged there as an action in the
same transaction (cardroom/operators/players.py), and the cardroom already sits above accounts.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

#: The most characters a note may hold (after trimming).
MAX_NOTE_CHARS = 2000


class PlayerNote(models.Model):
    """One note about a player, by an operator. Written once; read newest first."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="staff_notes"
    )
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    text = models.TextField(max_length=MAX_NOTE_CHARS, help_text=_("The note, in staff's words."))
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created", "-id"]
        indexes: ClassVar[list[models.Index]] = [models.Index(fields=["user", "-created"])]

    def __str__(self) -> str:
        return f"note about {self.user_id} by {self.by_id}: {self.text[:40]}"
