"""What the big rooms' tables do, clicked in Chromium: auto-post ante, a live lobby, the result
banner and the winner lit on the seat, and a countdown that survives a reload."""

from __future__ import annotations

import pytest

from accounts.services import user_create
from cardroom.tables.runtime import table_create
from tests.e2e.players import PASSWORD, WAIT_MS, enter_table
from tests.live import live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLE = "E2E Features"
SHARE = "Number(document.querySelector('#table-status .ring').getAttribute('stroke-dasharray')" \
    ".split(' ')[0])"  # fmt: skip


def test_auto_ante_live_lobby_banner_and_countdown(browser):
    table_create(
        game="guts",
        preset="survivor",
        options={"ante": 100, "seats": 6, "decision_seconds": 30, "showdown_seconds": 8},
        name=TABLE,
    )
    for name in ("ann", "ben", "vic"):
        user_create(username=name, password=PASSWORD)
    with live_server("e2e-features") as url:
        vic = enter_table(browser, url, "vic", TABLE).page
        vic.goto(f"{url}/lobby/")
        row = f"#lobby-rows tr:has-text('{TABLE}')"
        assert "0 / 6" in vic.inner_text(row)

        ann, ben = (enter_table(browser, url, name, TABLE) for name in ("ann", "ben"))
        ann.page.check("#auto-ante")
        for player in (ann, ben):
            player.page.click("form.action-sit button")
        # The lobby, left open, catches up by itself.
        vic.wait_for_selector(f"{row}:has-text('2 / 6')", timeout=WAIT_MS)

        # Ben presses Ante; Ann's is posted for her.
        ben.page.wait_for_selector("form.action-ante button", timeout=WAIT_MS * 2)
        ben.page.keyboard.press("a")
        for player in (ann, ben):
            player.page.wait_for_selector("form.action-declare button", timeout=WAIT_MS)

        ann.page.keyboard.press("i")
        ben.page.keyboard.press("o")
        ann.page.wait_for_selector("#result-banner.won", timeout=WAIT_MS)
        assert ann.page.inner_text("#result-banner").startswith("You won $")
        assert ann.page.locator("#seats li.seat.you.won").count() == 1
        assert ben.page.locator("#result-banner").count() == 0  # Out: nothing won, nothing owed

        # The pause's ring, reloaded, goes on from where it was rather than starting full.
        ann.page.wait_for_function(f"{SHARE} < 97", timeout=WAIT_MS)
        before = ann.page.evaluate(SHARE)
        ann.page.reload()
        ann.page.wait_for_selector("#table-status .ring", timeout=WAIT_MS)
        ann.page.wait_for_function(f"{SHARE} < 100", timeout=WAIT_MS)
        assert ann.page.evaluate(SHARE) <= before + 1
