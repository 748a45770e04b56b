"""``python manage.py audit_ledger``: recompute every balance; exit 1 on any mismatch."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from accounts.audit import ledger_audit


class Command(BaseCommand):
    help = "Recompute every ledger balance from the transfers and check they sum to zero."

    def handle(self, *args: Any, **options: Any) -> None:
        audit = ledger_audit(actor="audit_ledger command")
        self.stdout.write(
            f"accounts: {audit.accounts}\ntransfers: {audit.transfers}\n"
            f"sum of balances: {audit.total_balance}\n"
            f"mismatches: {len(audit.mismatches)}"
        )
        for mismatch in audit.mismatches:
            self.stdout.write(
                f"  {mismatch['account']}: cached {mismatch['cached']}, "
                f"recomputed {mismatch['recomputed']}"
            )
        if not audit.ok:
            raise CommandError("the ledger does not balance")
        self.stdout.write(self.style.SUCCESS("ledger OK"))
