"""A Hypothesis state machine: grants, reloads, buy-ins, transfers and cash-outs in any order
never break zero-sum, non-negativity, or cached-equals-recomputed."""

from __future__ import annotations

import contextlib
import itertools

import pytest
from django.db.models import Sum
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from accounts.ledger import LedgerError, account_for, ledger_transfer
from accounts.models import OVERDRAFT_KINDS, Account, AccountKind, Transfer, TransferKind
from accounts.services import bankroll_reload, seat_buy_in, seat_cash_out, user_create

_names = itertools.count()


class LedgerMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.users: list = []
        self.keys = itertools.count()

    def key(self) -> str:
        return f"prop-{next(_names)}-{next(self.keys)}"

    @rule()
    def grant_a_new_player(self) -> None:
        self.users.append(user_create(username=f"p{next(_names)}"))

    @precondition(lambda self: self.users)
    @rule(data=st.data(), amount=st.integers(-5, 150_000))
    def buy_in(self, data, amount: int) -> None:
        user = data.draw(st.sampled_from(self.users))
        table = data.draw(st.integers(1, 3))
        with contextlib.suppress(LedgerError):
            seat_buy_in(
                user=user, table_id=table, amount=amount, min_buy_in=100, max_buy_in=120_000,
                idempotency_key=self.key(),
            )  # fmt: skip

    @precondition(lambda self: self.users)
    @rule(data=st.data())
    def cash_out(self, data) -> None:
        user = data.draw(st.sampled_from(self.users))
        seat_cash_out(user=user, table_id=data.draw(st.integers(1, 3)), idempotency_key=self.key())

    @precondition(lambda self: len(self.users) >= 2)
    @rule(data=st.data(), amount=st.integers(-3, 200_000), replay=st.booleans())
    def transfer_between_stacks(self, data, amount: int, replay: bool) -> None:
        payer, payee = data.draw(st.permutations(self.users))[:2]
        table = data.draw(st.integers(1, 3))
        key = self.key()
        for _ in range(2 if replay else 1):
            with contextlib.suppress(LedgerError):
                ledger_transfer(
                    source=account_for(kind=AccountKind.STACK, user=payer, table_id=table),
                    target=account_for(kind=AccountKind.STACK, user=payee, table_id=table),
                    amount=amount, kind=TransferKind.PAYMENT, idempotency_key=key,
                )  # fmt: skip

    @precondition(lambda self: self.users)
    @rule(data=st.data())
    def reload(self, data) -> None:
        with contextlib.suppress(LedgerError):
            bankroll_reload(user=data.draw(st.sampled_from(self.users)), request_id=self.key())

    @invariant()
    def balances_sum_to_zero(self) -> None:
        assert Account.objects.aggregate(total=Sum("balance"))["total"] in (0, None)

    @invariant()
    def no_player_account_below_zero(self) -> None:
        negative = Account.objects.filter(balance__lt=0).exclude(kind__in=list(OVERDRAFT_KINDS))
        assert not negative.exists()

    @invariant()
    def cached_balances_equal_the_transfers(self) -> None:
        incoming = dict(Transfer.objects.values_list("target").annotate(s=Sum("amount")).order_by())
        outgoing = dict(Transfer.objects.values_list("source").annotate(s=Sum("amount")).order_by())
        for pk, code, balance in Account.objects.values_list("pk", "code", "balance"):
            assert balance == incoming.get(pk, 0) - outgoing.get(pk, 0), code


@pytest.mark.django_db
def test_ledger_invariants_hold_under_random_operations() -> None:
    LedgerMachine.TestCase.settings = settings(
        max_examples=20,
        stateful_step_count=20,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    LedgerMachine.TestCase().runTest()
