"""The ledger audit: recompute every balance from the transfers and compare.

Other apps add checks of their own accounts through :func:`plug_check` (the cardroom's
tournaments: every prize account of a tournament that is over is at zero), from their app's
``ready``: the accounts never import them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction
from django.db.models import Sum

from accounts.models import Account, LedgerAudit, Transfer

__all__ = ["Finding", "ledger_audit", "plug_check"]

#: One thing a check found wrong, as the audit records a mismatch: ``account`` (its code),
#: ``cached`` (its balance), ``recomputed`` (what it should hold) and ``check`` (which rule,
#: in words).
Finding = dict[str, Any]
Check = Callable[[], list[Finding]]


class _Plugged:
    checks: dict[str, Check] = {}


def plug_check(name: str, check: Check) -> None:
    """Add ``check`` to every audit (by ``name``: plugging it again replaces it)."""
    _Plugged.checks[name] = check


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
    for check in _Plugged.checks.values():
        mismatches.extend(check())
    return LedgerAudit.objects.create(
        ok=not mismatches,
        accounts=count,
        transfers=Transfer.objects.count(),
        total_balance=total,
        mismatches=mismatches,
        actor=actor,
    )
