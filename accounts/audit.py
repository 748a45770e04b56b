"""The ledger audit: recompute every balance from the transfers and compare."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Sum

from accounts.models import Account, LedgerAudit, Transfer

__all__ = ["ledger_audit"]


@transaction.atomic
def ledger_audit(*, actor: str = "") -> LedgerAudit:
    """Check that balances sum to zero and that every cached balance equals its transfers.

    Runs in one transaction so it reads one consistent snapshot, and records its result.
    """
    incoming = dict(
        Transfer.objects.values("target")
        .annotate(total=Sum("amount"))
        .values_list("target", "total")
    )
    outgoing = dict(
        Transfer.objects.values("source")
        .annotate(total=Sum("amount"))
        .values_list("source", "total")
    )
    mismatches = []
    total = 0
    count = 0
    for pk, code, cached in Account.objects.values_list("pk", "code", "balance").order_by("pk"):
        count += 1
        total += cached
        recomputed = incoming.get(pk, 0) - outgoing.get(pk, 0)
        if recomputed != cached:
            mismatches.append({"account": code, "cached": cached, "recomputed": recomputed})
    if total != 0:
        mismatches.append({"account": "(all)", "cached": total, "recomputed": 0})
    return LedgerAudit.objects.create(
        ok=not mismatches,
        accounts=count,
        transfers=Transfer.objects.count(),
        total_balance=total,
        mismatches=mismatches,
        actor=actor,
    )
