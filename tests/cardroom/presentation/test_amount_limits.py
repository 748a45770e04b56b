"""The buy-in and top-up forms say the most a player may put on the table, in words and
dollars: the table's maximum, or, where it sets none (or a higher one), their bankroll."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.money import format_cents
from accounts.selectors import bankroll_balance
from cardroom.tables.runtime import table_act, table_create

pytestmark = pytest.mark.django_db


def test_with_no_table_maximum_the_bankroll_is_the_most(client, survivor_table, make_player):
    ann, ben = make_player("ann"), make_player("ben")
    table_act(table_id=survivor_table.pk, user=ann, action={"kind": "sit", "buy_in": 20_000})
    client.force_login(ann)
    page = client.get(reverse("table", args=[survivor_table.pk])).content.decode()
    left = format_cents(bankroll_balance(user=ann))
    assert f"min $0.01, max {left}, your bankroll" in page  # the top-up
    client.force_login(ben)
    page = client.get(reverse("table", args=[survivor_table.pk])).content.decode()
    assert f"max {format_cents(bankroll_balance(user=ben))}, your bankroll" in page  # sitting


def test_a_table_maximum_below_the_bankroll_is_the_most(client, make_player):
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "max_buy_in": 30_000}, name="Capped"
    )
    ann = make_player("ann")
    client.force_login(ann)
    page = client.get(reverse("table", args=[table.pk])).content.decode()
    assert "max $300.00" in page
    assert "your bankroll" not in page
