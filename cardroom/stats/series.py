"""A player's balance over time, straight from the ledger (docs/statistics.md, "Bankroll").

The balance of a set of the player's accounts (the bankroll; or the bankroll and every table
stack) after each transfer that moved it, in ledger order. The running sum and the thinning
to at most ``max_points`` are done by the database (a window over the transfers in the
period, then every n-th row and the last), so a long history is never loaded: each point kept
is the exact balance after its transfer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db.models import BigIntegerField, Case, F, Q, QuerySet, Sum, Value, When, Window
from django.db.models.functions import RowNumber
from django.utils.translation import gettext

from accounts.models import AccountKind, Transfer, User
from cardroom.stats.period import Period

__all__ = ["MAX_POINTS", "Point", "Series", "balance_series"]

#: The most points a chart is given (it is some 700 units wide).
MAX_POINTS = 500


@dataclass(frozen=True, slots=True)
class Point:
    """The balance (cents) right after the ledger transfer ``transfer_id``, made at ``at``."""

    at: datetime
    cents: int
    transfer_id: int


@dataclass(frozen=True, slots=True)
class Series:
    """A balance over the period: ``opening`` before it, ``closing`` at its end (both cents),
    ``changes`` the transfers that moved it, ``points`` at most ``MAX_POINTS`` of them."""

    label: str
    opening: int
    closing: int
    changes: int
    points: tuple[Point, ...]


def _moves(user: User, kinds: Sequence[str]) -> QuerySet[Transfer]:
    """Transfers into or out of the player's accounts of ``kinds`` (not between two of them),
    each with ``delta``: its effect on their sum."""
    into = Q(target__user=user, target__kind__in=kinds)
    out_of = Q(source__user=user, source__kind__in=kinds)
    return (
        Transfer.objects.filter(into | out_of)
        .exclude(into & out_of)
        .annotate(
            delta=Case(
                When(into, then=F("amount")), default=-F("amount"), output_field=BigIntegerField()
            )
        )
        .order_by()
    )


def balance_series(
    *,
    user: User,
    period: Period,
    kinds: Sequence[str] = (AccountKind.BANKROLL,),
    label: str | None = None,
    max_points: int = MAX_POINTS,
) -> Series:
    """The balance of the player's accounts of ``kinds`` through the period (module docstring);
    ``label`` names it ("Bankroll" by default)."""
    label = gettext("Bankroll") if label is None else label
    moves = _moves(user, kinds)
    opening = 0
    if period.start is not None:
        before = moves.filter(created__lt=period.start).aggregate(total=Sum("delta"))["total"]
        opening = int(before or 0)
    inside = moves.filter(**period.bounds("created"))
    summary = inside.aggregate(count=Sum(Value(1)), total=Sum("delta"))
    changes = int(summary["count"] or 0)
    closing = opening + int(summary["total"] or 0)
    if not changes:
        return Series(label, opening, closing, 0, ())
    every = -(-changes // max_points)  # the ceiling: at most max_points rows are kept
    order = [F("id").asc()]
    kept = (
        inside.annotate(
            balance=Window(Sum("delta"), order_by=order),
            row=Window(RowNumber(), order_by=order),
        )
        .annotate(step=F("row") % every)
        .filter(Q(step=0) | Q(row=changes))
        .values_list("created", "balance", "id")
        .order_by("id")
    )
    points = tuple(Point(at, opening + int(balance), pk) for at, balance, pk in kept)
    return Series(label, opening, closing, changes, points)
