"""Who waits for a seat at a full table, in the order they asked."""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class WaitingPlayer(models.Model):
    """One player in line for a seat at one table.

    When a seat frees, the first in line without an offer is offered it until
    ``offered_until``; meanwhile nobody else may take it. An offer not taken in time ends the
    player's place in line, and the next is offered the seat.
    """

    table = models.ForeignKey("cardroom.Table", on_delete=models.CASCADE, related_name="waiting")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="waiting"
    )
    joined = models.DateTimeField()
    offered_until = models.DateTimeField(
        null=True, blank=True, help_text=_("A free seat is held for this player until then.")
    )

    class Meta:
        ordering: ClassVar[list[str]] = ["joined", "id"]
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(fields=["table", "user"], name="one_place_in_line")
        ]
        indexes: ClassVar[list[Any]] = [models.Index(fields=["table", "joined"])]

    def __str__(self) -> str:
        return f"{self.user} waits for table {self.table_id}"
