"""Selectors: reads of players' money (HackSoft style)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q, QuerySet, Sum

from accounts.models import Account, AccountKind, Transfer, TransferKind, User
from games.words import Money, words

__all__ = [
    "ReloadOffer",
    "StatementLine",
    "TableChips",
    "bankroll_balance",
    "bankroll_statement",
    "bankroll_transfers",
    "chips_by_table",
    "reload_offer",
    "table_chips",
]


def bankroll_balance(*, user: User) -> int:
    """The user's bankroll in cents (0 before the first grant)."""
    account = Account.objects.filter(kind=AccountKind.BANKROLL, user=user).first()
    return account.balance if account else 0


def table_chips(*, user: User) -> int:
    """The chips the user has on tables in cents: the sum of all their table stacks."""
    total = Account.objects.filter(kind=AccountKind.STACK, user=user).aggregate(
        total=Sum("balance")
    )["total"]
    return int(total or 0)


def bankroll_transfers(*, user: User, limit: int = 50) -> QuerySet[Transfer]:
    """The latest transfers into or out of the user's bankroll, newest first."""
    return (
        Transfer.objects.filter(
            Q(source__kind=AccountKind.BANKROLL, source__user=user)
            | Q(target__kind=AccountKind.BANKROLL, target__user=user)
        )
        .select_related("source", "target")
        .order_by("-id")[:limit]
    )


@dataclass(frozen=True, slots=True)
class TableChips:
    """The player's stack at one table (``table_id`` is the cardroom's table)."""

    table_id: int
    chips: int


def chips_by_table(*, user: User) -> list[TableChips]:
    """The player's chips at each table where they hold any, largest first."""
    rows = (
        Account.objects.filter(kind=AccountKind.STACK, user=user, balance__gt=0)
        .order_by("-balance", "table_id")
        .values_list("table_id", "balance")
    )
    return [TableChips(table_id, balance) for table_id, balance in rows if table_id is not None]


@dataclass(frozen=True, slots=True)
class StatementLine:
    """One line of the bankroll's statement, as the player reads it.

    ``amount`` is signed from the bankroll's side (a buy-in is negative); ``balance`` is the
    bankroll after this transfer; ``table_id`` names the table the money went to or came from.
    """

    created: datetime
    kind: str
    what: str
    amount: int
    balance: int
    table_id: int | None


def bankroll_statement(*, user: User, limit: int = 50) -> list[StatementLine]:
    """The latest transfers of the bankroll, newest first, with the balance after each.

    The balances run back from the bankroll's balance now: each line's balance is the one
    after it, and the line below it is the balance before it."""
    balance = bankroll_balance(user=user)
    lines = []
    for transfer in bankroll_transfers(user=user, limit=limit):
        incoming = (
            transfer.target.kind == AccountKind.BANKROLL and transfer.target.user_id == user.pk
        )
        other = transfer.source if incoming else transfer.target
        amount = transfer.amount if incoming else -transfer.amount
        lines.append(
            StatementLine(
                created=transfer.created,
                kind=transfer.kind,
                what=transfer.get_kind_display(),
                amount=amount,
                balance=balance,
                table_id=other.table_id if other.kind == AccountKind.STACK else None,
            )
        )
        balance -= amount
    return lines


@dataclass(frozen=True, slots=True)
class ReloadOffer:
    """Whether the cashier offers a reload now, how much, and if not, why."""

    available: bool
    amount: int
    reason: str


def reload_offer(*, user: User, now: datetime) -> ReloadOffer:
    """The cashier's rule: below a tenth of the grant, at most one reload an hour.

    What counts is everything the player holds: the bankroll and the chips on every table.
    Counting the bankroll alone minted money: buy in for $950, reload $950, cash out, and the
    player held $1,950, again every hour. The reload tops the whole up to the grant.

    ``bankroll_reload`` calls this with the player's accounts locked, so the balances read here
    cannot move before its transfer is written; the cashier page calls it without locks, to show
    the offer.
    """
    grant = settings.CARDROOM_GRANT_CENTS
    on_tables = table_chips(user=user)
    held = bankroll_balance(user=user) + on_tables
    threshold = grant // settings.CARDROOM_RELOAD_BELOW_FRACTION
    # The reasons are sentences of the rules (games.words): the reload's refusal raises them
    # as a LedgerError, and the cashier page says them in its language (accounts.language).
    if held >= threshold:
        if on_tables:
            reason = words(
                # Translators: {threshold}, {held} and {on_tables} are amounts of money.
                "a reload is offered below {threshold} in all (bankroll and chips on tables);"
                " you hold {held}, {on_tables} of it in chips on tables",
                threshold=Money(threshold),
                held=Money(held),
                on_tables=Money(on_tables),
            )
        else:
            reason = words(
                # Translators: {threshold} and {held} are amounts of money.
                "a reload is offered below {threshold} in all (bankroll and chips on tables);"
                " you hold {held}",
                threshold=Money(threshold),
                held=Money(held),
            )
        return ReloadOffer(False, 0, reason)
    last = (
        Transfer.objects.filter(
            kind=TransferKind.RELOAD, target__kind=AccountKind.BANKROLL, target__user=user
        )
        .order_by("-created")
        .values_list("created", flat=True)
        .first()
    )
    interval = timedelta(seconds=settings.CARDROOM_RELOAD_INTERVAL_SECONDS)
    if last is not None and now - last < interval:
        wait = int((interval - (now - last)).total_seconds() // 60) + 1
        reason = words(
            # Translators: {wait} is a number of minutes.
            "one reload an hour: the next in {wait} minutes",
            wait=wait,
        )
        return ReloadOffer(False, 0, reason)
    return ReloadOffer(True, grant - held, "")
