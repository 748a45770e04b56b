"""Reading a tournament's money in the tests: balances of the accounts it moves."""

from __future__ import annotations

from accounts.models import Account


def balance(code: str) -> int:
    """An account's balance by code (0 for one never opened)."""
    account = Account.objects.filter(code=code).first()
    return 0 if account is None else account.balance


def bankroll(user) -> int:
    return balance(f"bankroll:u{user.pk}")
