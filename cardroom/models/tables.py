"""Tables, seats, rounds, hands and hand events (docs/architecture.md, "The table runtime").

A table holds its game's state as JSON with a version; the runtime is the only code that changes
it, one locked transaction per action. A hand's events are its history, append-only and
numbered; an event that shows private cards names the one seat that may read it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.TextChoices):
    # Translators: game names: keep Guts, Monte Carlo and Survivor as they are.
    GUTS = "guts", _("Guts (Monte Carlo / Survivor)")
    # Translators: a game's name: keep "Guts" as it is.
    CLASSIC_GUTS = "classic_guts", _("Classic Guts")
    CHINESE_POKER = "chinese_poker", _("Chinese Poker")
    THREE_CARD_POKER = "three_card_poker", _("Three Card Poker")


class TableStatus(models.TextChoices):
    OPEN = "open", _("Open")
    PAUSED = "paused", _("Paused")
    CLOSING = "closing", _("Closing after this hand")
    CLOSED = "closed", _("Closed")


class Table(models.Model):
    name = models.CharField(max_length=80)
    game = models.CharField(max_length=24, choices=Game.choices)
    preset = models.CharField(max_length=40)
    config = models.JSONField(help_text=_("The validated table config, money in cents."))
    stakes = models.BigIntegerField(
        help_text=_("The table's headline stake in cents (ante or unit).")
    )
    status = models.CharField(max_length=8, choices=TableStatus.choices, default=TableStatus.OPEN)
    state = models.JSONField(help_text=_("The game's state, as the games package dumps it."))
    version = models.BigIntegerField(default=0)
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    bots = models.PositiveSmallIntegerField(
        default=0, help_text=_("Seats kept filled by house bots.")
    )
    rest_state = models.JSONField(
        null=True,
        blank=True,
        help_text=_("The state at the last point between hands (for a void)."),
    )
    rest_transfer = models.BigIntegerField(
        default=0, help_text=_("The last ledger transfer id of this table at that point.")
    )
    idle_limit_seconds = models.PositiveIntegerField(
        default=600, help_text=_("A disconnected player is stood up after this long.")
    )
    # Kept on the row the runtime locks anyway, so an action reads neither again.
    open_hand = models.ForeignKey(
        "Hand",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("The hand in play (opened, not ended), if any."),
    )
    open_hand_dealt = models.BooleanField(
        default=False,
        help_text=_("The hand in play has been dealt (its Hand row says so once it ends)."),
    )
    last_event_seq = models.PositiveIntegerField(
        default=0, help_text=_("The seq of the table's latest hand event.")
    )
    # A sit-and-go's table plays for the tournament's chips, which are not money: the runtime
    # posts none of its moves to the ledger (cardroom/models/tournaments.py).
    plays_for_chips = models.BooleanField(
        default=False, help_text=_("A tournament's table: its stacks are chips, not money.")
    )
    # Which server process applies the table's actions, while its lease lasts
    # (cardroom/realtime/owners.py); never read by the rules or the pages.
    owner = models.CharField(
        max_length=120, blank=True, default="", help_text=_("The process that applies its actions.")
    )
    owned_until = models.DateTimeField(
        null=True, blank=True, help_text=_("When that process's lease ends unless renewed.")
    )
    created = models.DateTimeField(auto_now_add=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.get_game_display()})"

    @property
    def group_name(self) -> str:
        """The Channels group of everyone watching this table."""
        return f"table-{self.pk}"


class Seat(models.Model):
    """Who sits in which seat number of a table (the engine knows seats by number)."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats"
    )
    joined = models.DateTimeField(auto_now_add=True)
    left = models.DateTimeField(null=True, blank=True, help_text=_("Kept for the hand histories."))
    connections = models.PositiveIntegerField(default=0)
    last_seen = models.DateTimeField(null=True, blank=True)
    lease_until = models.DateTimeField(
        null=True,
        blank=True,
        help_text=_(
            "Renewed by every process with a socket of this player; past it, the "
            "connections counted here belong to a process that is gone."
        ),
    )
    presence_step = models.PositiveSmallIntegerField(
        default=0, help_text=_("0 present or within grace; 1 sat out by the clock; 2 stood up.")
    )
    # Set by "leave my tables", an exclusion or a loss limit reached, from any process; the
    # runtime stands the player up once their seat has nothing in the hand in play
    # (cardroom/responsible/checks.py).
    leave_at_rest = models.BooleanField(
        default=False, help_text=_("Stand the player up when the hand in play ends.")
    )

    class Meta:
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(
                fields=["table", "number"],
                condition=models.Q(left__isnull=True),
                name="one_player_a_seat",
            ),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=models.Q(left__isnull=True),
                name="one_seat_a_player",
            ),
        ]
        # The clock's sweep looks for flagged seats still held: a handful, found by index.
        indexes: ClassVar[list[Any]] = [
            models.Index(
                fields=["table"],
                condition=models.Q(leave_at_rest=True, left__isnull=True),
                name="seat_leave_at_rest",
            ),
        ]
        ordering: ClassVar[list[str]] = ["table", "number"]

    def __str__(self) -> str:
        return f"{self.table_id}#{self.number} {self.user}"


class Round(models.Model):
    """A round of hands (Guts): the pot carries between its hands and is empty between rounds.

    Opened and closed from the game's ``round_started`` and ``round_ended`` events; games
    without rounds have none.
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveIntegerField()
    started = models.DateTimeField()
    ended = models.DateTimeField(null=True, blank=True)
    end_reason = models.CharField(max_length=40, blank=True)

    class Meta:
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(fields=["table", "number"], name="round_number_per_table"),
        ]
        ordering: ClassVar[list[str]] = ["table", "number"]

    def __str__(self) -> str:
        return f"table {self.table_id} round {self.number}"


class Hand(models.Model):
    """One deal: its deck commitment (published), the deck (auditors only), its result."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="hands")
    round = models.ForeignKey(
        Round, null=True, blank=True, on_delete=models.PROTECT, related_name="hands"
    )
    number = models.PositiveIntegerField()
    commitment_root = models.CharField(max_length=64)
    commitment = models.JSONField(
        help_text=_("The per-position leaf hashes, published before the deal.")
    )
    deck = models.JSONField(help_text=_("The deck order and salts, for auditors only."))
    # While the hand is in play, Table.open_hand_dealt says whether it was dealt (the table
    # row is written by every action anyway); this field gets it when the hand ends.
    dealt = models.BooleanField(
        default=False, help_text=_("Opened for its antes or bets, the hand is dealt later.")
    )
    started = models.DateTimeField(auto_now_add=True)
    ended = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    void_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(fields=["table", "number"], name="hand_number_per_table"),
        ]
        ordering: ClassVar[list[str]] = ["table", "number"]

    def __str__(self) -> str:
        return f"table {self.table_id} hand {self.number}"


class HandEvent(models.Model):
    """One event of a table's history, in order. ``private_to``: the only seat that may read it;
    ``readers``: the users who may read a private event, fixed when it was recorded (privacy
    follows the player, not the seat number, which another player may take later in the hand).
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="events")
    hand = models.ForeignKey(
        Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="events"
    )
    version = models.BigIntegerField(help_text=_("The table version this event produced."))
    seq = models.PositiveIntegerField(help_text=_("Order within the table's history."))
    type = models.CharField(max_length=40)
    data = models.JSONField()
    private_to = models.SmallIntegerField(null=True, blank=True)
    audience = models.JSONField(
        null=True,
        blank=True,
        help_text=_("The seats that may read it, when several may (a private comparison)."),
    )
    readers = models.JSONField(
        null=True,
        blank=True,
        help_text=_(
            "The ids of the users who may read a private event; empty: nobody yet. "
            "Null for a public event."
        ),
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(fields=["table", "seq"], name="event_seq_per_table"),
        ]
        # The statistics find a player's hands by their events' type (cardroom/stats/hands.py):
        # without it, a month of a busy room is read whole for each figure.
        indexes: ClassVar[list[Any]] = [
            models.Index(fields=["type", "hand"], name="event_type_hand"),
        ]
        ordering: ClassVar[list[str]] = ["table", "seq"]

    def __str__(self) -> str:
        return f"table {self.table_id} #{self.seq} {self.type}"


class TableAction(models.Model):
    """The journal: every action applied to a table's game, in order, as it was applied.

    Replaying a table's journal through the games package from its first entry must give the
    table's state and every hand's recorded result (cardroom.history.journal_audit). Deals
    carry their deck, so the journal is for auditors only. ``restore`` entries set the state
    outright: the table's first state, a void's return to the last point between hands, new
    timers.
    """

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="journal")
    version = models.BigIntegerField(help_text=_("The table version this action produced."))
    seq = models.PositiveSmallIntegerField(help_text=_("Order within the version."))
    action = models.JSONField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text=_("The player whose action this was (none: the clock, a bot, an operator)."),
    )
    # Null, not "": rows without an id (the clock's, a bot's) stay out of the unique index.
    client_id = models.CharField(  # noqa: DJ001
        max_length=400,
        null=True,
        blank=True,
        help_text=_("The id the player's client gave the action (JSON text): applied once."),
    )
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(fields=["table", "version", "seq"], name="journal_order"),
            # The protocol's promise: an action id a player had applied is never applied
            # again, on any connection or process. The journal row is the receipt.
            models.UniqueConstraint(
                fields=["table", "actor", "client_id"],
                condition=models.Q(client_id__isnull=False),
                name="journal_client_id_once",
            ),
        ]
        ordering: ClassVar[list[str]] = ["table", "version", "seq"]

    def __str__(self) -> str:
        return f"table {self.table_id} v{self.version}.{self.seq} {self.action.get('kind')}"


class ApiToken(models.Model):
    """A bearer token for the JSON WebSocket; only its SHA-256 is stored."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    digest = models.CharField(max_length=64, unique=True)
    created = models.DateTimeField(auto_now_add=True)
    name = models.CharField(max_length=60, blank=True, help_text=_("The owner's name for it."))
    expires = models.DateTimeField(null=True, blank=True, help_text=_("None: until revoked."))
    last_used = models.DateTimeField(null=True, blank=True)
    # Kept, not deleted, when revoked: who held which token, and when it stopped, is history.
    revoked = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"token {self.name or self.pk} of {self.user}"


class OperatorActionKind(models.TextChoices):
    TABLE_CREATE = "table_create", _("Table created")
    TIMERS_CHANGE = "timers_change", _("Timers changed")
    SEAT_SIT_OUT = "seat_sit_out", _("Player sat out")
    SEAT_REMOVE = "seat_remove", _("Player removed")
    BOTS_CHANGE = "bots_change", _("Bots changed")
    TABLE_PAUSE = "table_pause", _("Table paused")
    TABLE_RESUME = "table_resume", _("Table resumed")
    TABLE_CLOSE = "table_close", _("Table closed")
    HAND_VOID = "hand_void", _("Hand voided")
    EXCLUSION_RECORD = "exclusion_record", _("Exclusion recorded")
    EXCLUSION_LIFT = "exclusion_lift", _("Self-exclusion lifted")
    CHAT_BAN = "chat_ban", _("Chat muted room-wide")
    CHAT_UNBAN = "chat_unban", _("Chat unmuted room-wide")
    PLAYER_NOTE = "player_note", _("Note added about a player")
    FAIR_PLAY_REVIEW = "fair_play_review", _("Fair play signal reviewed")
    TOURNAMENT_CREATE = "tournament_create", _("Tournament created")
    TOURNAMENT_CANCEL = "tournament_cancel", _("Tournament cancelled")


class OperatorAction(models.Model):
    """One thing an operator did: who, when, what, why. Written once; auditors read them.

    Also carries the roles' permissions (the Operators and Auditors groups hold them).
    """

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="operator_actions"
    )
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    kind = models.CharField(max_length=24, choices=OperatorActionKind.choices)
    table = models.ForeignKey(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="operator_actions"
    )
    details = models.JSONField(default=dict, help_text=_("What was done, in the action's terms."))
    reason = models.TextField(help_text=_("Why, in the operator's words."))

    class Meta:
        ordering: ClassVar[list[str]] = ["-created", "-id"]
        permissions = [
            ("operate_tables", "Can run tables from the operator console"),
            ("read_audit", "Can read the rake report, hands and the ledger audit"),
        ]

    def __str__(self) -> str:
        return f"{self.created:%Y-%m-%d %H:%M} {self.actor} {self.kind}"
