"""The ledger audit's check of the tournaments' prize accounts (``audit_ledger``).

A prize account holds a tournament's buy-ins until its prizes are paid, or its refunds on a
cancel: once the tournament is finished or cancelled it must hold nothing, and no prize account
may ever be below zero. Plugged into accounts/audit.py from cardroom/apps.py.
"""

from __future__ import annotations

from accounts.audit import Finding
from accounts.models import Account, AccountKind
from cardroom.models import Tournament, TournamentStatus

__all__ = ["prize_accounts_check"]

OVER = (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)


def _tournament_id(code: str) -> int | None:
    number = code.partition(":")[2]
    return int(number[1:]) if number.startswith("n") and number[1:].isdigit() else None


def prize_accounts_check() -> list[Finding]:
    """Every prize account below zero, and every one of a tournament that is over that is not
    at zero (two queries)."""
    accounts = list(Account.objects.filter(kind=AccountKind.PRIZE).values_list("code", "balance"))
    ids = {pk for code, _ in accounts if (pk := _tournament_id(code)) is not None}
    over = set(Tournament.objects.filter(pk__in=ids, status__in=OVER).values_list("pk", flat=True))
    findings: list[Finding] = []
    for code, balance in accounts:
        if balance < 0:
            findings.append(
                {"account": code, "cached": balance, "recomputed": 0,
                 "check": "a prize account is never below zero"}
            )  # fmt: skip
        elif balance and _tournament_id(code) in over:
            findings.append(
                {"account": code, "cached": balance, "recomputed": 0,
                 "check": "the prize account of a tournament that is over is at zero"}
            )  # fmt: skip
    return findings
