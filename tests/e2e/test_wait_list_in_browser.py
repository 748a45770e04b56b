"""A full table's wait list, clicked in Chromium: join from the lobby, be offered the freed
seat while the lobby is open, take it from the table page; a passer-by cannot."""

from __future__ import annotations

import pytest

from accounts.services import user_create
from cardroom.models import Seat
from cardroom.tables.runtime import table_act, table_create
from tests.e2e.players import PASSWORD, WAIT_MS, enter_table
from tests.live import live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLE = "E2E Wait list"


def test_the_first_in_line_is_offered_the_freed_seat_and_takes_it(browser):
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 2}, name=TABLE
    )
    users = {
        name: user_create(username=name, password=PASSWORD) for name in ["ann", "ben", "cat", "dan"]
    }
    for name in ("ann", "ben"):
        table_act(table_id=table.pk, user=users[name], action={"kind": "sit", "buy_in": 20_000})
    with live_server("e2e-waitlist") as url:
        cat = enter_table(browser, url, "cat", TABLE).page
        dan = enter_table(browser, url, "dan", TABLE).page
        # dan watches the full table; cat queues from the lobby.
        assert "The table is full." in dan.inner_text("#wait-list")
        cat.goto(f"{url}/lobby/")
        row = f"#lobby-rows tr:has-text('{TABLE}')"
        cat.click(f"{row} button:has-text('Join the wait list'):visible")
        cat.wait_for_selector(".messages li:has-text('You are number 1 in line')", timeout=WAIT_MS)
        assert "you are 1 of 1 waiting" in cat.inner_text(row)

        # ben stands up; the lobby, left open, offers cat the seat by itself.
        table_act(table_id=table.pk, user=users["ben"], action={"kind": "leave"})
        cat.wait_for_selector(
            f"#lobby-offers:has-text('A seat is yours at {TABLE}')", timeout=WAIT_MS
        )

        # The passer-by on the table page sees a free seat but may not take it.
        dan.wait_for_selector("form.action-sit button", timeout=WAIT_MS)
        dan.click("form.action-sit button")
        dan.wait_for_selector(
            "#notice:has-text('held for a player on the wait list')", timeout=WAIT_MS
        )

        cat.click("#lobby-offers a:has-text('Take the seat')")
        cat.wait_for_selector("#connection.ok", timeout=WAIT_MS)
        assert "A seat is yours." in cat.inner_text("#wait-list")
        cat.click("form.action-sit button")
        cat.wait_for_selector("#seats li.seat.you", timeout=WAIT_MS)
        seated = Seat.objects.filter(table=table, left__isnull=True)
        assert sorted(seat.user.username for seat in seated) == ["ann", "cat"]
