"""A freed seat and the wait list under real transactions and threads: whoever's sit lands
first, the seat goes to the first in line (on PostgreSQL the table's row lock orders them, on
SQLite the writers queue), and the clock's offers run beside them without giving it twice."""

from __future__ import annotations

import pytest

from cardroom.models import Seat
from cardroom.models.waitlist import WaitingPlayer
from cardroom.tables.runtime import table_act, table_create
from cardroom.waitlist.services import wait_list_join, waitlist_sweep
from games.engine import IllegalAction
from tests.threads import run_in_threads

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("offered_first", [False, True], ids=["before the offer", "offered"])
def test_the_first_in_line_gets_the_seat_whoever_sits_first(make_player, offered_first):
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 2}, name="Rush"
    )
    ann, ben, cat, dan, eve = (make_player(name) for name in ("ann", "ben", "cat", "dan", "eve"))
    for player in (ann, ben):
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    wait_list_join(table_id=table.pk, user=cat)
    wait_list_join(table_id=table.pk, user=dan)
    table_act(table_id=table.pk, user=ben, action={"kind": "leave"})
    if offered_first:
        assert waitlist_sweep() == 1
    rushing = [eve, dan, cat]

    def work(index: int):
        if index == len(rushing):
            return waitlist_sweep()
        return table_act(
            table_id=table.pk, user=rushing[index], action={"kind": "sit", "buy_in": 20_000}
        )

    results = run_in_threads(len(rushing) + 1, work)
    refused = [result for result in results[:-1] if isinstance(result, IllegalAction)]
    assert len(refused) == 2, results
    assert not [r for r in results if isinstance(r, Exception) and not isinstance(r, IllegalAction)]
    held = Seat.objects.filter(table=table, left__isnull=True)
    assert sorted(seat.user.username for seat in held) == ["ann", "cat"]
    # cat sat: out of the line; dan waits on, first now.
    assert list(WaitingPlayer.objects.values_list("user__username", flat=True)) == ["dan"]
