"""Sit-and-go tournaments: the tournament (its template, its state) and its entries.

A tournament is one table's sit-and-go: players register (their buy-in goes to the
tournament's prize account and the fee to the house's fee account, through the ledger), it
starts when every seat is taken, its antes rise by level on the durable clock, and it ends when
one player holds every chip: places are then paid from the prize account, which ends at zero.
The table's chips are the tournament's own, never money (``Table.plays_for_chips``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class TournamentStatus(models.TextChoices):
    REGISTERING = "registering", _("Registering")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


class Tournament(models.Model):
    """One sit-and-go, from its template's settings to its last place.

    ``levels``: ``[{"ante": chips, "minutes": n}, ...]``, the stake of each level in chips (the
    game's ante for Guts, its unit for Chinese Poker) and how long it lasts; the last level lasts
    until the end. ``payouts``: the shares of the prize pool by place, in basis points summing to
    10,000 (``[6500, 3500]``; ``[10000]``: winner takes all).
    """

    name = models.CharField(max_length=80)
    game = models.CharField(max_length=24)
    preset = models.CharField(max_length=40)
    options = models.JSONField(
        default=dict, blank=True, help_text=_("The table's game options besides the stake.")
    )
    seats = models.PositiveSmallIntegerField()
    buy_in = models.BigIntegerField(help_text=_("Into the prize pool, in cents."))
    fee = models.BigIntegerField(help_text=_("To the house, in cents."))
    chips = models.PositiveIntegerField(help_text=_("Every player's starting chips."))
    levels = models.JSONField(help_text=_("The antes by level, in chips, and their minutes."))
    payouts = models.JSONField(help_text=_("The prize pool's shares by place, in basis points."))
    bots_allowed = models.PositiveSmallIntegerField(
        default=0, help_text=_("How many seats house bots may fill.")
    )
    repeat = models.BooleanField(
        default=False, help_text=_("Open the same tournament again when this one starts.")
    )
    status = models.CharField(
        max_length=12, choices=TournamentStatus.choices, default=TournamentStatus.REGISTERING
    )
    table = models.OneToOneField(
        "cardroom.Table",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament",
    )
    level = models.PositiveSmallIntegerField(
        default=0, help_text=_("The level in play (0: the first), once running.")
    )
    level_deadline = models.DateTimeField(
        null=True,
        blank=True,
        db_index=True,
        help_text=_("When the level in play ends; the clock raises the antes then."),
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    ended = models.DateTimeField(null=True, blank=True)
    cancel_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-id"]
        indexes: ClassVar[list[Any]] = [
            models.Index(fields=["status", "game"], name="tournament_status_game"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (#{self.pk})"


class EntryStatus(models.TextChoices):
    REGISTERED = "registered", _("Registered")
    UNREGISTERED = "unregistered", _("Unregistered")
    PLAYING = "playing", _("Playing")
    ELIMINATED = "eliminated", _("Eliminated")
    # Translators: a tournament entry's status: the player holds every chip at the end.
    WON = "won", _("Won")
    REFUNDED = "refunded", _("Refunded")


class Entry(models.Model):
    """One player's entry: registered, then playing, then out with a finishing place.

    ``place`` is 1 for the winner; players eliminated in the same hand with the same chips at
    its start share the places they span (``place`` is the best of them) and split those places'
    prizes (docs/tournaments.md). ``prize`` is what the ledger paid them, in cents.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="entries")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="tournament_entries"
    )
    status = models.CharField(
        max_length=12, choices=EntryStatus.choices, default=EntryStatus.REGISTERED
    )
    registered = models.DateTimeField(auto_now_add=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    prize = models.BigIntegerField(default=0)
    points = models.PositiveIntegerField(
        default=0, help_text=_("Leaderboard points for the finish (docs/tournaments.md).")
    )
    eliminated = models.DateTimeField(null=True, blank=True)
    eliminated_in = models.ForeignKey(
        "cardroom.Hand", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=~models.Q(status="unregistered"),
                name="one_entry_a_player",
            ),
        ]
        ordering: ClassVar[list[str]] = ["tournament", "place", "registered"]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.user}"
