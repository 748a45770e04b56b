"""Limits under real transactions and threads: tables acting for one player at once cannot
together pass a limit. On PostgreSQL the player's row lock decides (the second action waits,
then sums what the first wrote); on SQLite the IMMEDIATE transactions queue. CI runs both."""

from __future__ import annotations

import pytest

from accounts.models import Transfer, TransferKind
from cardroom.models import Seat
from games.engine import IllegalAction
from tests.cardroom.responsible.play import act, advance, limit, sit, survivor
from tests.threads import run_in_threads

pytestmark = pytest.mark.django_db(transaction=True)


def test_four_tables_at_once_buy_in_only_up_to_the_limit(make_player):
    ann = make_player("ann")
    limit(ann, "buy_in_day", 30_000)
    tables = [survivor(f"Table {i}") for i in range(4)]
    results = run_in_threads(4, lambda i: sit(ann, tables[i], 15_000))
    refused = [r for r in results if isinstance(r, IllegalAction)]
    assert len(refused) == 2, results  # two buy-ins of $150.00 reach $300.00 exactly
    assert all("daily buy-in limit of $300.00 allows $0.00 more" in str(r) for r in refused)
    assert Seat.objects.filter(user=ann, left__isnull=True).count() == 2
    bought = Transfer.objects.filter(kind=TransferKind.BUY_IN, source__user=ann)
    assert sum(bought.values_list("amount", flat=True)) == 30_000


def test_antes_at_two_tables_at_once_stake_only_up_to_the_loss_limit(make_player):
    ann, ben, cat = make_player("ann"), make_player("ben"), make_player("cat")
    limit(ann, "loss_day", 100)
    tables = [survivor("Left"), survivor("Right")]
    for table in tables:
        sit(ann, table, 20_000)
        sit(ben if table is tables[0] else cat, table, 20_000)
        advance(table)  # the ante call
    results = run_in_threads(2, lambda i: act(ann, tables[i], kind="ante"))
    refused = [r for r in results if isinstance(r, IllegalAction)]
    assert len(refused) == 1, results
    assert "daily loss limit of $1.00 allows $0.00 more" in str(refused[0])
    antes = Transfer.objects.filter(kind=TransferKind.ANTE, source__user=ann)
    assert antes.count() == 1
