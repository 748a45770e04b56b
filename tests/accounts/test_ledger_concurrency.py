"""Real transactions and threads: the ledger under concurrent requests.

These run on every database: on PostgreSQL the row locks decide, on SQLite the IMMEDIATE
transactions queue the writers. CI runs them on both.
"""

from __future__ import annotations

import pytest

from accounts.ledger import LedgerError, account_for, ledger_transfer, rake_account
from accounts.models import AccountKind, Transfer, TransferKind
from tests.threads import run_in_threads

pytestmark = pytest.mark.django_db(transaction=True)


def test_twenty_threads_spending_one_bankroll_only_the_affordable_succeed(alice):
    source = account_for(kind=AccountKind.BANKROLL, user=alice)
    # 100,000 cents; each spend is 7,000: exactly 14 fit.
    results = run_in_threads(
        20,
        lambda i: ledger_transfer(
            source=source, target=rake_account(), amount=7_000,
            kind=TransferKind.RAKE, idempotency_key=f"spend-{i}",
        ),
    )  # fmt: skip
    succeeded = [r for r in results if isinstance(r, Transfer)]
    refused = [r for r in results if isinstance(r, LedgerError)]
    assert (len(succeeded), len(refused)) == (14, 6)
    source.refresh_from_db()
    assert source.balance == 100_000 - 14 * 7_000 == 2_000


def test_ten_threads_with_one_key_make_one_transfer(alice):
    source = account_for(kind=AccountKind.BANKROLL, user=alice)
    results = run_in_threads(
        10,
        lambda i: ledger_transfer(
            source=source, target=rake_account(), amount=500,
            kind=TransferKind.RAKE, idempotency_key="the-one",
        ),
    )  # fmt: skip
    assert all(isinstance(r, Transfer) for r in results), results
    assert len({r.pk for r in results}) == 1
    assert Transfer.objects.filter(idempotency_key="the-one").count() == 1
    source.refresh_from_db()
    assert source.balance == 99_500
