"""Selectors: reads of players' money (HackSoft style)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q, QuerySet

from accounts.models import Account, AccountKind, Transfer, TransferKind, User

__all__ = ["ReloadOffer", "bankroll_balance", "bankroll_transfers", "reload_offer"]


def bankroll_balance(*, user: User) -> int:
    """The user's bankroll in cents (0 before the first grant)."""
    account = Account.objects.filter(kind=AccountKind.BANKROLL, user=user).first()
    return account.balance if account else 0


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
class ReloadOffer:
    """Whether the cashier offers a reload now, how much, and if not, why."""

    available: bool
    amount: int
    reason: str


def reload_offer(*, user: User, now: datetime) -> ReloadOffer:
    """The cashier's rule: below a tenth of the grant, at most one reload an hour."""
    grant = settings.CARDROOM_GRANT_CENTS
    balance = bankroll_balance(user=user)
    threshold = grant // settings.CARDROOM_RELOAD_BELOW_FRACTION
    if balance >= threshold:
        return ReloadOffer(False, 0, f"a reload is offered below {threshold} cents")
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
        return ReloadOffer(False, 0, f"one reload an hour: the next in {wait} minutes")
    return ReloadOffer(True, grant - balance, "")
