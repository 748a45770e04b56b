"""A player's results from the ledger (docs/statistics.md, "Net").

A player's chips at a table are their table stack (``stack:t<table>:u<user>``). What play did
to them is every transfer into or out of that stack except the ones between it and the
player's own bankroll (buy-ins, top-ups and cash-outs move the player's money, they do not win
or lose it): antes, bets, matches, hand fees, pots and payouts won, payments between players,
refunds and void reversals. Their sum at a table is the player's *net* there.
"""

from __future__ import annotations

from django.db.models import (
    BigIntegerField,
    Case,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce

from accounts.models import AccountKind, Transfer, User
from cardroom.stats.period import Period

__all__ = ["hand_net", "net_by_table", "play_transfers"]


def play_transfers(*, user: User) -> QuerySet[Transfer]:
    """The player's transfers of play (module docstring), each with ``signed``: the amount,
    positive into the player's stack and negative out of it."""
    into = Q(target__kind=AccountKind.STACK, target__user=user) & ~Q(
        source__kind=AccountKind.BANKROLL, source__user=user
    )
    out_of = Q(source__kind=AccountKind.STACK, source__user=user) & ~Q(
        target__kind=AccountKind.BANKROLL, target__user=user
    )
    return (
        Transfer.objects.filter(into | out_of)
        .annotate(
            signed=Case(
                When(into, then=F("amount")),
                default=-F("amount"),
                output_field=BigIntegerField(),
            )
        )
        .order_by()
    )


def net_by_table(*, user: User, period: Period) -> dict[int, int]:
    """The player's net at each table in the period (by the transfers' time), in cents."""
    rows = (
        play_transfers(user=user)
        .filter(table_id__isnull=False, **period.bounds("created"))
        .values("table_id")
        .annotate(net=Sum("signed"))
    )
    return {row["table_id"]: int(row["net"]) for row in rows if row["table_id"] is not None}


def hand_net(*, user: User, hand: OuterRef) -> Coalesce:
    """The player's net in the outer query's hand (``hand``: the reference to its id)."""
    total = (
        play_transfers(user=user)
        .filter(hand_id=hand)
        .values("hand_id")
        .annotate(total=Sum("signed"))
        .values("total")
    )
    return Coalesce(Subquery(total), Value(0), output_field=BigIntegerField())
