"""Users, ledger accounts and transfers (docs/architecture.md, "The ledger").

The ledger is double-entry: money only moves as a :class:`Transfer` from one :class:`Account` to
another, in integer cents, never edited, never deleted. ``Account.balance`` is a cache of the
transfers, kept in the same transaction as each transfer and checked by ``audit_ledger``.

``table_id`` and ``hand_id`` are plain integers rather than foreign keys: accounts sits below
the cardroom app in the layers, so the ledger records which table and hand a transfer belongs to
without depending on the models that describe them.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _


class User(AbstractUser):
    """A person: player, operator or auditor (roles are groups)."""

    is_bot = models.BooleanField(default=False, help_text=_("A house bot, played by the server."))
    # Checked by accounts/display_names.py: it may not pass for a card, a seat or the house.
    display_name = models.CharField(
        max_length=24, blank=True, help_text=_("The name others see; blank shows the username.")
    )

    class Meta(AbstractUser.Meta):
        constraints: ClassVar[list[Any]] = [
            # Two players may not share a name in any case (the form also checks usernames).
            models.UniqueConstraint(
                Lower("display_name"),
                condition=~models.Q(display_name=""),
                name="user_display_name_unique_ci",
            ),
        ]

    @property
    def public_name(self) -> str:
        """The name shown to others: the display name, or the username without one."""
        return self.display_name or self.username


class AccountKind(models.TextChoices):
    CASHIER = "cashier", _("Cashier")
    BANKROLL = "bankroll", _("Bankroll")
    STACK = "stack", _("Table stack")
    POT = "pot", _("Table pot")
    RESERVE = "reserve", _("Table reserve")
    RAKE = "rake", _("House rake")
    HOUSE = "house", _("House bank")
    # Translators: an account holding a sit-and-go's buy-ins until its prizes are paid.
    PRIZE = "prize", _("Tournament prize pool")
    # Translators: the house's account of sit-and-go entry fees.
    FEES = "fees", _("Tournament fees")


#: The only accounts that may go below zero: money enters play from them.
OVERDRAFT_KINDS = (AccountKind.CASHIER, AccountKind.HOUSE)


class Account(models.Model):
    """A place money can be. ``code`` names it uniquely (``bankroll:u7``, ``pot:t3``, ...)."""

    code = models.CharField(max_length=64, unique=True)
    kind = models.CharField(max_length=16, choices=AccountKind.choices)
    user = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.PROTECT, related_name="ledger_accounts"
    )
    table_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    balance = models.BigIntegerField(default=0, help_text=_("Cents; a cache of the transfers."))
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar[list[Any]] = [
            models.CheckConstraint(
                condition=models.Q(balance__gte=0) | models.Q(kind__in=list(OVERDRAFT_KINDS)),
                name="account_balance_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.code


class TransferKind(models.TextChoices):
    GRANT = "grant", _("Play-money grant")
    RELOAD = "reload", _("Reload")
    BUY_IN = "buy_in", _("Buy-in")
    TOP_UP = "top_up", _("Top-up")
    CASH_OUT = "cash_out", _("Cash-out")
    ANTE = "ante", _("Ante")
    # Translators: a Guts loser's payment matching the pot.
    MATCH = "match", _("Match")
    POT_WIN = "pot_win", _("Pot won")
    RAKE = "rake", _("Rake")
    FEE = "fee", _("Hand fee")
    # Translators: money a table sets aside (a transfer's kind).
    RESERVE = "reserve", _("Reserve")
    PAYMENT = "payment", _("Payment between players")
    BET = "bet", _("Bet")
    PAYOUT = "payout", _("Payout")
    REFUND = "refund", _("Refund")
    # Translators: a transfer's kind: a pot left on a table that stopped, given back to those
    # who paid into it.
    POT_RETURN = "pot_return", _("Carried pot returned")
    VOID = "void", _("Void reversal")
    # Translators: a transfer's kind: a sit-and-go's buy-in, into its prize pool.
    TOURNAMENT_BUY_IN = "tourney_buy_in", _("Tournament buy-in")
    # Translators: a transfer's kind: a sit-and-go's entry fee, to the house.
    TOURNAMENT_FEE = "tourney_fee", _("Tournament fee")
    # Translators: a transfer's kind: a sit-and-go's prize, from its prize pool.
    PRIZE = "prize", _("Tournament prize")
    # Translators: a transfer's kind: a buy-in or fee given back (unregistered or cancelled).
    TOURNAMENT_REFUND = "tourney_refund", _("Tournament refund")


class ImmutableQuerySet(models.QuerySet["Transfer"]):
    """Transfers are never edited or deleted, not even in bulk."""

    def update(self, **kwargs: Any) -> int:
        raise PermissionError("transfers are immutable: post a reversing transfer instead")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise PermissionError("transfers are immutable: post a reversing transfer instead")


class Transfer(models.Model):
    """One movement of money between two accounts. Written once; never changed."""

    source = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="outgoing")
    target = models.ForeignKey(Account, on_delete=models.PROTECT, related_name="incoming")
    amount = models.BigIntegerField(help_text=_("Cents, greater than zero."))
    kind = models.CharField(max_length=16, choices=TransferKind.choices)
    #: Indexed with the id (``Meta.indexes``), not alone.
    table_id = models.BigIntegerField(null=True, blank=True)
    hand_id = models.BigIntegerField(null=True, blank=True, db_index=True)
    memo = models.CharField(max_length=200, blank=True)
    actor = models.ForeignKey(
        User, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    idempotency_key = models.CharField(max_length=160, unique=True)

    objects = ImmutableQuerySet.as_manager()

    class Meta:
        # A table's last transfer (read at every hand's end and every sit) in a few index
        # pages whatever the size of the ledger: with table_id alone indexed, PostgreSQL went
        # back through the whole ledger's ids for a table that had been quiet (docs/performance.md,
        # "A table's last transfer").
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["table_id", "id"], name="transfer_table_last")
        ]
        constraints: ClassVar[list[Any]] = [
            models.CheckConstraint(
                condition=models.Q(amount__gt=0), name="transfer_amount_positive"
            ),
            models.CheckConstraint(
                condition=~models.Q(source=models.F("target")), name="transfer_two_accounts"
            ),
        ]
        ordering: ClassVar[list[str]] = ["id"]

    def __str__(self) -> str:
        return f"{self.amount}¢ {self.source} → {self.target} ({self.kind})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None and not kwargs.get("force_insert"):
            raise PermissionError("transfers are immutable: post a reversing transfer instead")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise PermissionError("transfers are immutable: post a reversing transfer instead")


class LoginSession(models.Model):
    """One logged-in browser: the account page lists the open ones and can end any of them.

    Kept after it ends (``ended``), like a ledger line: when and from where someone logged in is
    history. ``session_key`` follows the Django session it describes, which a password change
    renews (accounts/login_sessions.py).
    """

    user = models.ForeignKey(User, on_delete=models.CASCADE, related_name="login_sessions")
    session_key = models.CharField(max_length=40, db_index=True)
    created = models.DateTimeField(auto_now_add=True)
    last_seen = models.DateTimeField()
    ip_address = models.GenericIPAddressField(null=True, blank=True)
    user_agent = models.CharField(max_length=300, blank=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-last_seen"]

    def __str__(self) -> str:
        return f"session of {self.user} since {self.created:%Y-%m-%d %H:%M}"


class LedgerAudit(models.Model):
    """The result of one run of ``audit_ledger``, for the admin's audit page."""

    created = models.DateTimeField(auto_now_add=True)
    ok = models.BooleanField()
    accounts = models.IntegerField()
    transfers = models.IntegerField()
    total_balance = models.BigIntegerField()
    mismatches = models.JSONField(default=list)
    actor = models.CharField(max_length=150, blank=True)

    class Meta:
        ordering: ClassVar[list[str]] = ["-created"]

    def __str__(self) -> str:
        return f"audit {self.created:%Y-%m-%d %H:%M} {'ok' if self.ok else 'MISMATCH'}"
