"""What a player set to keep their play in hand, and what support and the house recorded.

``PlayerLimits`` is one row a player (created the first time they set anything): the limits in
force, the reality-check interval, and a summary of the exclusion in force, so that the table
runtime can tell from the row it joins to the seats whether a player needs any check at all.
``LimitChange`` and ``Exclusion`` are the history: every change with who and when, pending
increases with the time they take effect; nothing is ever deleted.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class LimitName(models.TextChoices):
    LOSS_DAY = "loss_day", _("daily loss limit")
    LOSS_WEEK = "loss_week", _("weekly loss limit")
    LOSS_MONTH = "loss_month", _("monthly loss limit")
    BUY_IN_DAY = "buy_in_day", _("daily buy-in limit")
    BUY_IN_WEEK = "buy_in_week", _("weekly buy-in limit")
    BUY_IN_MONTH = "buy_in_month", _("monthly buy-in limit")
    SESSION = "session_minutes", _("session limit")
    REALITY = "reality_minutes", _("reality-check interval")


#: The limits that bound play (the reality-check interval only paces a reminder).
LIMITS = (
    LimitName.LOSS_DAY,
    LimitName.LOSS_WEEK,
    LimitName.LOSS_MONTH,
    LimitName.BUY_IN_DAY,
    LimitName.BUY_IN_WEEK,
    LimitName.BUY_IN_MONTH,
    LimitName.SESSION,
)
LOSS_LIMITS = (LimitName.LOSS_DAY, LimitName.LOSS_WEEK, LimitName.LOSS_MONTH)
BUY_IN_LIMITS = (LimitName.BUY_IN_DAY, LimitName.BUY_IN_WEEK, LimitName.BUY_IN_MONTH)


class ExclusionKind(models.TextChoices):
    TIME_OUT = "time_out", _("time-out")
    SELF_EXCLUSION = "self_exclusion", _("self-exclusion")


class PlayerLimits(models.Model):
    """One player's limits in force (money in cents, times in minutes; empty: no limit)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="play_limits"
    )
    loss_day = models.BigIntegerField(null=True, blank=True)
    loss_week = models.BigIntegerField(null=True, blank=True)
    loss_month = models.BigIntegerField(null=True, blank=True)
    buy_in_day = models.BigIntegerField(null=True, blank=True)
    buy_in_week = models.BigIntegerField(null=True, blank=True)
    buy_in_month = models.BigIntegerField(null=True, blank=True)
    session_minutes = models.PositiveIntegerField(null=True, blank=True)
    pending_from = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("When the first pending increase takes effect (empty: none pending)."),
    )
    reality_minutes = models.PositiveSmallIntegerField(
        default=60, help_text=_("A reality check every this many minutes of a session.")
    )
    reality_acknowledged = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_("The last 'keep playing': the next check is due after it."),
    )
    # A summary of the exclusions, kept with each change of them, so that the runtime's check
    # reads no other row.
    excluded_kind = models.CharField(max_length=16, choices=ExclusionKind.choices, blank=True)
    excluded_until = models.DateTimeField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("player's limits")
        verbose_name_plural = _("players' limits")
        ordering: ClassVar[list[str]] = ["id"]

    def __str__(self) -> str:
        return f"limits of {self.user}"

    def limits_in_force(self) -> dict[str, int]:
        """The limits set, by name."""
        values = {name: getattr(self, name) for name in LIMITS}
        return {name: value for name, value in values.items() if value is not None}

    def needs_checks(self, now: datetime) -> bool:
        """A limit is set, or a pending change is due: the runtime must read the ledger."""
        due = self.pending_from is not None and self.pending_from <= now
        return due or any(getattr(self, name) is not None for name in LIMITS)

    def excluded(self, now: datetime) -> bool:
        if self.excluded_kind == ExclusionKind.SELF_EXCLUSION:
            return True  # until the house lifts it, even after its end date
        return (
            self.excluded_kind == ExclusionKind.TIME_OUT
            and self.excluded_until is not None
            and self.excluded_until > now
        )


class LimitChange(models.Model):
    """One change a player asked for: a decrease applies at once, an increase or a removal
    (``after`` empty) 24 hours later; a later request for the same limit cancels a pending one.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="limit_changes"
    )
    limit = models.CharField(max_length=16, choices=LimitName.choices)
    before = models.BigIntegerField(null=True, blank=True, help_text=_("Empty: no limit."))
    after = models.BigIntegerField(null=True, blank=True, help_text=_("Empty: no limit."))
    requested = models.DateTimeField()
    effective = models.DateTimeField(help_text=_("When the change takes (or took) effect."))
    applied = models.DateTimeField(null=True, blank=True)
    cancelled = models.DateTimeField(null=True, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("Who asked (the player, or support for them)."),
    )

    class Meta:
        ordering: ClassVar[list[str]] = ["-requested", "-id"]
        indexes: ClassVar[list[Any]] = [
            models.Index(
                fields=["user", "limit"],
                condition=models.Q(applied__isnull=True, cancelled__isnull=True),
                name="limit_change_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.limit}: {self.before} → {self.after}"

    @property
    def pending(self) -> bool:
        return self.applied is None and self.cancelled is None


class Exclusion(models.Model):
    """A time-out (24 hours to 6 weeks) or a self-exclusion (6 months to 5 years).

    A time-out ends by itself; a self-exclusion stays in force after its end until the house
    lifts it at the player's request. Nothing shortens either from the player's side.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="exclusions"
    )
    kind = models.CharField(max_length=16, choices=ExclusionKind.choices)
    start = models.DateTimeField()
    end = models.DateTimeField()
    reason = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    lifted = models.DateTimeField(null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    lift_reason = models.TextField(blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-start", "-id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {self.user} until {self.end:%Y-%m-%d}"

    def in_force(self, now: datetime) -> bool:
        if self.lifted is not None or self.start > now:
            return False
        return self.kind == ExclusionKind.SELF_EXCLUSION or self.end > now

    def liftable(self, now: datetime) -> bool:
        """The house may lift a self-exclusion only once its period is over."""
        return self.kind == ExclusionKind.SELF_EXCLUSION and self.lifted is None and now >= self.end
