"""Buy-ins, cash-outs, reloads and the audit command."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.ledger import LedgerError, account_for, ledger_transfer, rake_account
from accounts.models import Account, AccountKind, Transfer, TransferKind
from accounts.selectors import bankroll_balance
from accounts.services import bankroll_reload, seat_buy_in, seat_cash_out

pytestmark = pytest.mark.django_db

TABLE = 7


def stack_of(user) -> int:
    return account_for(kind=AccountKind.STACK, user=user, table_id=TABLE).balance


def buy_in(user, amount, key="buy", min_buy_in=10_000, max_buy_in=50_000):
    return seat_buy_in(
        user=user, table_id=TABLE, amount=amount, min_buy_in=min_buy_in,
        max_buy_in=max_buy_in, idempotency_key=key,
    )  # fmt: skip


def test_buy_in_moves_the_bankroll_to_the_table_stack(alice):
    transfer = buy_in(alice, 20_000)
    assert (transfer.kind, transfer.table_id) == ("buy_in", TABLE)
    assert bankroll_balance(user=alice) == 80_000
    assert stack_of(alice) == 20_000


@pytest.mark.parametrize(
    ("amount", "message"),
    [
        (9_999, r"the least you may sit down with here is \$100\.00"),
        (50_001, r"the most you may sit down with here is \$500\.00"),
        (100.0, "whole number of cents"),
    ],
)
def test_buy_in_outside_the_table_limits_is_refused(alice, amount, message):
    with pytest.raises(LedgerError, match=message):
        buy_in(alice, amount)
    assert bankroll_balance(user=alice) == 100_000
    assert not Transfer.objects.filter(kind=TransferKind.BUY_IN).exists()


def test_buy_in_above_the_bankroll_is_refused(alice):
    with pytest.raises(LedgerError, match=r"bankroll holds \$1,000.00, less than \$1,500.00"):
        buy_in(alice, 150_000, max_buy_in=None)
    assert bankroll_balance(user=alice) == 100_000


def test_cash_out_returns_the_whole_stack(alice):
    buy_in(alice, 20_000)
    transfer = seat_cash_out(user=alice, table_id=TABLE, idempotency_key="out")
    assert transfer is not None and transfer.amount == 20_000
    assert bankroll_balance(user=alice) == 100_000
    assert stack_of(alice) == 0
    assert seat_cash_out(user=alice, table_id=TABLE, idempotency_key="out2") is None


def spend_down(user, leave: int, key: str = "spend") -> None:
    """Buy in with all but ``leave`` and lose it at the table (chips on a table still count)."""
    amount = bankroll_balance(user=user) - leave
    buy_in(user, amount, key=key, min_buy_in=0, max_buy_in=None)
    ledger_transfer(
        source=account_for(kind=AccountKind.STACK, user=user, table_id=TABLE),
        target=rake_account(), amount=amount, kind=TransferKind.RAKE, idempotency_key=f"{key}-lost",
    )  # fmt: skip


def test_reload_tops_up_to_the_grant_below_a_tenth(alice):
    spend_down(alice, 9_999)
    transfer = bankroll_reload(user=alice, request_id="r1")
    assert transfer.amount == 90_001
    assert bankroll_balance(user=alice) == 100_000


def test_reload_refused_at_a_tenth_or_more(alice):
    spend_down(alice, 10_000)
    with pytest.raises(LedgerError, match=r"offered below \$100\.00 in all"):
        bankroll_reload(user=alice, request_id="r1")
    assert bankroll_balance(user=alice) == 10_000


def test_reload_once_an_hour_and_a_double_submit_reloads_once(alice, settings):
    spend_down(alice, 0)
    first = bankroll_reload(user=alice, request_id="r1")
    assert bankroll_reload(user=alice, request_id="r1").pk == first.pk
    spend_down(alice, 0, key="spend-again")
    with pytest.raises(LedgerError, match="one reload an hour"):
        bankroll_reload(user=alice, request_id="r2")
    assert bankroll_balance(user=alice) == 0
    assert Transfer.objects.filter(kind=TransferKind.RELOAD).count() == 1
    settings.CARDROOM_RELOAD_INTERVAL_SECONDS = 0
    assert bankroll_reload(user=alice, request_id="r3").amount == 100_000


def test_audit_ledger_passes_on_a_balanced_ledger(alice, bob, capsys):
    buy_in(alice, 20_000)
    call_command("audit_ledger")
    out = capsys.readouterr().out
    assert "sum of balances: 0" in out
    assert "ledger OK" in out


def test_audit_ledger_fails_on_a_tampered_balance(alice, capsys):
    Account.objects.filter(kind=AccountKind.BANKROLL, user=alice).update(balance=99_000)
    with pytest.raises(CommandError, match="does not balance"):
        call_command("audit_ledger")
    out = capsys.readouterr().out
    assert f"bankroll:u{alice.pk}: cached 99000, recomputed 100000" in out


def test_reload_interval_setting_is_in_seconds(settings):
    assert timedelta(seconds=settings.CARDROOM_RELOAD_INTERVAL_SECONDS) == timedelta(hours=1)
