"""Fair play signals: leads for an operator's review, found by ``manage.py fair_play_report``.

A signal names two players and what they did on a day (cardroom/fairplay/ finds them;
docs/fair-play.md says what each kind means and where it misleads). It is a lead, never a
verdict: an operator reviews it and notes what they found, and the review is logged.
"""

from __future__ import annotations

from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class FairPlayKind(models.TextChoices):
    SHARED_ADDRESS = "shared_address", _("Shared address or device")
    ONE_WAY_FLOW = "one_way_flow", _("One-way chip flow")


class FairPlaySignal(models.Model):
    """Two players and what the report found about them on ``day``.

    For a shared address, ``player_a`` has the smaller id; for a one-way flow, ``player_a``
    is the one who paid and ``player_b`` the one who received. One signal per kind, day and
    pair: the report updates it when run again (its review is kept).
    """

    kind = models.CharField(max_length=24, choices=FairPlayKind.choices)
    day = models.DateField(db_index=True)
    player_a = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    player_b = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    tables = models.JSONField(default=list, help_text=_("The ids of the tables concerned."))
    net = models.BigIntegerField(default=0, help_text=_("Cents from A to B, net; 0 if none."))
    gross = models.BigIntegerField(default=0, help_text=_("Cents between them, both ways."))
    hands = models.PositiveIntegerField(default=0, help_text=_("Hands they played together."))
    details = models.JSONField(default=dict, help_text=_("What was found, in the kind's terms."))
    created = models.DateTimeField(auto_now_add=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True, help_text=_("The reviewer's words."))

    class Meta:
        ordering: ClassVar[list[str]] = ["-day", "-id"]
        constraints: ClassVar[list[models.BaseConstraint]] = [
            models.UniqueConstraint(
                fields=["kind", "day", "player_a", "player_b"], name="fair_play_signal_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.day} {self.kind} {self.player_a_id}/{self.player_b_id}"
