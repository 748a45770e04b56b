"""The cashier as a player reads it: tables by name, a running balance, no account codes."""

from __future__ import annotations

import itertools
import re

import pytest
from django.urls import reverse

from accounts.selectors import bankroll_balance, bankroll_statement
from accounts.services import seat_buy_in, seat_cash_out
from cardroom.tables.runtime import table_create

pytestmark = pytest.mark.django_db


def buy_in(user, table_id, amount, key):
    return seat_buy_in(
        user=user, table_id=table_id, amount=amount, min_buy_in=1, max_buy_in=None,
        idempotency_key=key,
    )  # fmt: skip


def test_the_statement_runs_back_from_the_balance_and_names_tables(client, alice):
    alpha = table_create(game="guts", preset="survivor", options={"ante": 100}, name="Alpha")
    beta = table_create(game="guts", preset="survivor", options={"ante": 100}, name="Beta")
    buy_in(alice, alpha.pk, 20_000, "a")
    buy_in(alice, beta.pk, 16_000, "b")
    seat_cash_out(user=alice, table_id=alpha.pk, idempotency_key="c", amount=5_000)

    lines = bankroll_statement(user=alice)
    assert [line.amount for line in lines] == [5_000, -16_000, -20_000, 100_000]
    assert lines[0].balance == bankroll_balance(user=alice) == 69_000
    for newer, older in itertools.pairwise(lines):
        assert older.balance == newer.balance - newer.amount
    assert lines[-1].balance == 100_000  # the grant, from nothing

    client.force_login(alice)
    page = client.get(reverse("cashier")).content.decode()
    assert not re.search(r"\b(bankroll|stack|cashier):[a-z0-9:]+", page), "an account code"
    assert "cents" not in page
    rows = re.findall(r"<tr>(.*?)</tr>", page, re.S)
    text = [re.sub(r"<[^>]+>|\s+", " ", row).split() for row in rows]
    assert any("Cash-out" in row and "Alpha" in row and "+$50.00" in row for row in text)
    assert any("Buy-in" in row and "Beta" in row and "\u2212$160.00" in row for row in text)
    assert any("$690.00" in row for row in text)  # the running balance after the cash-out
    chips = page[page.index("chips-in-play") :]
    assert chips.index("Beta") < chips.index("Alpha")  # the largest stack first
    assert "UTC" in page and "data-local" in page
