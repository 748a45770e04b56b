"""The ledger service: balances, each refusal with its message, idempotency."""

from __future__ import annotations

import pytest
from django.db import connection

from accounts.ledger import (
    LedgerError,
    Posting,
    account_for,
    cashier_account,
    house_account,
    ledger_post,
    ledger_transfer,
    rake_account,
)
from accounts.models import Account, AccountKind, Transfer, TransferKind

pytestmark = pytest.mark.django_db


def bankroll(user):
    return account_for(kind=AccountKind.BANKROLL, user=user)


def balance(account: Account) -> int:
    account.refresh_from_db()
    return account.balance


def test_new_player_gets_the_grant_from_the_cashier(alice, settings):
    assert balance(bankroll(alice)) == settings.CARDROOM_GRANT_CENTS == 100_000
    assert balance(cashier_account()) == -100_000


def test_transfer_moves_cents_between_accounts(alice, bob):
    ledger_transfer(
        source=bankroll(alice), target=bankroll(bob), amount=2_500,
        kind=TransferKind.PAYMENT, idempotency_key="t1",
    )  # fmt: skip
    assert balance(bankroll(alice)) == 97_500
    assert balance(bankroll(bob)) == 102_500


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (0, "above zero"),
        (-1, "above zero"),
        (1.5, "whole number of cents"),
        ("100", "whole number of cents"),
        (True, "whole number of cents"),
        (10**13, "at most"),
    ],
)
def test_bad_amounts_are_refused_and_nothing_is_written(alice, bob, amount, message):
    before = Transfer.objects.count()
    with pytest.raises(LedgerError, match=message):
        ledger_transfer(
            source=bankroll(alice), target=bankroll(bob), amount=amount,
            kind=TransferKind.PAYMENT, idempotency_key="bad",
        )  # fmt: skip
    assert Transfer.objects.count() == before
    assert balance(bankroll(alice)) == 100_000


def test_no_player_account_goes_below_zero(alice, bob):
    with pytest.raises(LedgerError, match=r"holds \$1,000.00, less than the \$1,000.01"):
        ledger_transfer(
            source=bankroll(alice), target=bankroll(bob), amount=100_001,
            kind=TransferKind.PAYMENT, idempotency_key="over",
        )  # fmt: skip
    assert balance(bankroll(alice)) == 100_000
    assert balance(bankroll(bob)) == 100_000


def test_house_bank_may_go_below_zero(alice):
    ledger_transfer(
        source=house_account(), target=bankroll(alice), amount=700,
        kind=TransferKind.PAYOUT, idempotency_key="house",
    )  # fmt: skip
    assert balance(house_account()) == -700


def test_unknown_account_and_kind_are_refused(alice):
    with pytest.raises(LedgerError, match="unknown account 'nowhere'"):
        ledger_post([Posting(bankroll(alice).code, "nowhere", 5, "payment", "k1")])
    with pytest.raises(LedgerError, match="unknown transfer kind 'gift'"):
        ledger_post([Posting(bankroll(alice).code, "rake", 5, "gift", "k2")])
    with pytest.raises(LedgerError, match="two different accounts"):
        ledger_post([Posting(bankroll(alice).code, bankroll(alice).code, 5, "payment", "k3")])
    assert balance(bankroll(alice)) == 100_000


def test_same_idempotency_key_returns_the_first_transfer(alice):
    first = ledger_transfer(
        source=bankroll(alice), target=rake_account(), amount=300,
        kind=TransferKind.RAKE, idempotency_key="once",
    )  # fmt: skip
    again = ledger_transfer(
        source=bankroll(alice), target=rake_account(), amount=300,
        kind=TransferKind.RAKE, idempotency_key="once",
    )  # fmt: skip
    assert again.pk == first.pk
    assert balance(bankroll(alice)) == 99_700
    assert Transfer.objects.filter(idempotency_key="once").count() == 1


def test_key_reused_for_another_movement_is_refused(alice):
    ledger_transfer(
        source=bankroll(alice), target=rake_account(), amount=300,
        kind=TransferKind.RAKE, idempotency_key="k",
    )  # fmt: skip
    with pytest.raises(LedgerError, match="already used for another transfer"):
        ledger_transfer(
            source=bankroll(alice), target=rake_account(), amount=301,
            kind=TransferKind.RAKE, idempotency_key="k",
        )  # fmt: skip
    assert balance(bankroll(alice)) == 99_700


def test_a_batch_is_all_or_nothing(alice, bob):
    postings = [
        Posting(bankroll(alice).code, bankroll(bob).code, 60_000, "payment", "b1"),
        Posting(bankroll(alice).code, bankroll(bob).code, 60_000, "payment", "b2"),
    ]
    with pytest.raises(LedgerError, match=r"holds \$400.00"):
        ledger_post(postings)
    assert balance(bankroll(alice)) == 100_000
    assert not Transfer.objects.filter(idempotency_key__in=["b1", "b2"]).exists()


def test_transfers_refuse_edit_and_delete_through_the_orm(alice):
    transfer = Transfer.objects.get(idempotency_key=f"grant:u{alice.pk}")
    transfer.amount = 1
    with pytest.raises(PermissionError):
        transfer.save()
    with pytest.raises(PermissionError):
        transfer.delete()
    with pytest.raises(PermissionError):
        Transfer.objects.filter(pk=transfer.pk).update(amount=1)
    with pytest.raises(PermissionError):
        Transfer.objects.all().delete()
    transfer.refresh_from_db()
    assert transfer.amount == 100_000


def test_raw_sql_update_of_a_transfer_fails_in_the_database(alice):
    """The trigger of migration 0002 guards the table even against raw SQL."""
    from django.db import DatabaseError, transaction

    transfer = Transfer.objects.get(idempotency_key=f"grant:u{alice.pk}")
    with (
        pytest.raises(DatabaseError, match="immutable"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("UPDATE accounts_transfer SET amount = 1 WHERE id = %s", [transfer.pk])
    if connection.vendor == "postgresql":
        with (
            pytest.raises(DatabaseError, match="immutable"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute("DELETE FROM accounts_transfer WHERE id = %s", [transfer.pk])
    transfer.refresh_from_db()
    assert transfer.amount == 100_000


def test_balance_check_constraint_guards_player_accounts(alice):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Account.objects.filter(pk=bankroll(alice).pk).update(balance=-1)
    assert balance(bankroll(alice)) == 100_000
