"""The cashier's reload counts everything a player holds: the bankroll and the chips on tables.

Counting the bankroll alone minted money: buy in for $950, reload $950, cash out, $1,950.
"""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.ledger import LedgerError, account_for, ledger_transfer, rake_account
from accounts.models import Account, AccountKind, Transfer, TransferKind
from accounts.selectors import bankroll_balance, reload_offer
from accounts.services import bankroll_reload, seat_buy_in, seat_cash_out
from tests.threads import run_in_threads

GRANT = 100_000


def table_chips(user) -> int:
    """Counted here from the accounts, not through the selector under test."""
    stacks = Account.objects.filter(kind=AccountKind.STACK, user=user)
    return sum(stacks.values_list("balance", flat=True))


def held(user) -> int:
    """Everything the player holds, in cents: the bankroll and every table stack."""
    return bankroll_balance(user=user) + table_chips(user)


def buy_in(user, table_id: int, amount: int, key: str) -> Transfer:
    return seat_buy_in(
        user=user, table_id=table_id, amount=amount, min_buy_in=0, max_buy_in=None,
        idempotency_key=key,
    )  # fmt: skip


def lose(user, table_id: int, amount: int, key: str) -> None:
    """Chips lost at a table (to the rake, as a stand-in for the other players)."""
    ledger_transfer(
        source=account_for(kind=AccountKind.STACK, user=user, table_id=table_id),
        target=rake_account(), amount=amount, kind=TransferKind.RAKE, idempotency_key=key,
    )  # fmt: skip


def reloads_of(user) -> list[int]:
    return list(
        Transfer.objects.filter(kind=TransferKind.RELOAD, target__user=user)
        .order_by("id")
        .values_list("amount", flat=True)
    )


@pytest.mark.django_db
def test_buy_in_reload_cash_out_does_not_mint_money(alice, settings):
    """The report: $950 on a table and $50 in the bankroll is $1,000, not a reason to reload."""
    settings.CARDROOM_RELOAD_INTERVAL_SECONDS = 0  # "again every hour": try it many times
    for round_ in range(3):
        buy_in(alice, 7, 95_000, key=f"buy-{round_}")
        with pytest.raises(LedgerError, match=r"you hold \$1,000\.00, \$950\.00 of it in chips"):
            bankroll_reload(user=alice, request_id=f"r{round_}")
        seat_cash_out(user=alice, table_id=7, idempotency_key=f"out-{round_}")
        assert bankroll_balance(user=alice) == GRANT
    assert reloads_of(alice) == []


@pytest.mark.django_db
def test_reload_with_chips_on_tables_tops_up_to_the_grant_counting_them(alice, bob):
    buy_in(alice, 7, 95_000, key="buy-7")
    lose(alice, 7, 92_000, key="lost-7")  # $30 left on table 7
    buy_in(alice, 8, 2_000, key="buy-8")  # $20 on table 8, $30 in the bankroll
    buy_in(bob, 7, 95_000, key="bob-7")  # someone else's chips do not count
    assert (bankroll_balance(user=alice), table_chips(alice)) == (3_000, 5_000)
    transfer = bankroll_reload(user=alice, request_id="r1")
    assert transfer.amount == 92_000  # to $1,000 in all, not $1,000 in the bankroll
    assert held(alice) == GRANT
    seat_cash_out(user=alice, table_id=7, idempotency_key="out-7")
    seat_cash_out(user=alice, table_id=8, idempotency_key="out-8")
    assert bankroll_balance(user=alice) == GRANT


@pytest.mark.django_db
def test_reload_refused_when_chips_on_a_table_reach_a_tenth(alice):
    buy_in(alice, 7, GRANT, key="buy")
    lose(alice, 7, 90_000, key="lost")  # an empty bankroll, $100 on the table
    assert (bankroll_balance(user=alice), table_chips(alice)) == (0, 10_000)
    with pytest.raises(LedgerError, match=r"offered below \$100\.00 in all"):
        bankroll_reload(user=alice, request_id="r1")
    assert reloads_of(alice) == []
    assert held(alice) == 10_000


@pytest.mark.django_db
def test_cashier_page_shows_the_chips_on_tables_and_why_no_reload(client, alice):
    buy_in(alice, 7, 95_000, key="buy")
    client.force_login(alice)
    page = client.get(reverse("cashier")).content.decode()
    assert '<strong id="cashier-on-tables">$950.00</strong>' in page
    assert "Reload $" not in page
    assert "you hold $1,000.00, $950.00 of it in chips on tables" in page
    response = client.post(reverse("reload"), {"request_id": "abc"}, follow=True)
    assert "No reload: a reload is offered below $100.00 in all" in response.content.decode()
    assert held(alice) == GRANT
    assert "cents" not in response.content.decode()


@pytest.mark.django_db(transaction=True)
def test_reloads_racing_a_buy_in_and_a_cash_out_never_top_up_past_the_grant(make_player):
    """Two reloads, a cash-out and a first buy-in at another table, all at once.

    Whatever the order, the player ends with exactly the grant: one reload of what was missing
    counting the chips on both tables, the other refused.
    """
    for round_ in range(4):
        player = make_player(f"racer{round_}")
        buy_in(player, 7, 95_000, key=f"buy-{round_}")
        lose(player, 7, 92_000, key=f"lost-{round_}")  # $30 on table 7, $50 in the bankroll
        assert held(player) == 8_000

        def work(index: int, player=player):
            if index < 2:
                return bankroll_reload(user=player, request_id=f"race-{index}")
            if index == 2:
                return seat_cash_out(user=player, table_id=7, idempotency_key=f"out-{player.pk}")
            return buy_in(player, 8, 2_000, key=f"buy8-{player.pk}")

        results = run_in_threads(4, work)
        reloads = [r for r in results[:2] if isinstance(r, Transfer)]
        refused = [r for r in results[:2] if isinstance(r, LedgerError)]
        assert (len(reloads), len(refused)) == (1, 1), results
        assert reloads[0].amount == 92_000, results
        assert all(isinstance(r, Transfer) for r in results[2:]), results
        assert held(player) == GRANT
        assert reloads_of(player) == [92_000]


@pytest.mark.django_db(transaction=True)
def test_a_reload_racing_a_cash_out_of_chips_above_a_tenth_is_refused(make_player):
    """The report's race: the chips leave the table while the reload looks; it never sees $50."""
    for round_ in range(4):
        player = make_player(f"leaver{round_}")
        buy_in(player, 7, 95_000, key=f"buy-{round_}")

        def work(index: int, player=player):
            if index == 0:
                return bankroll_reload(user=player, request_id="race")
            return seat_cash_out(user=player, table_id=7, idempotency_key=f"out-{player.pk}")

        reload, cash_out = run_in_threads(2, work)
        assert isinstance(reload, LedgerError), reload
        assert isinstance(cash_out, Transfer), cash_out
        assert bankroll_balance(user=player) == GRANT
        assert not reload_offer(user=player, now=cash_out.created).available
