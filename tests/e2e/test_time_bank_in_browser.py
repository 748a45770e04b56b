"""A player who lets the decision timer run out sees the ring turn into their time bank, with
its words, and can still play during it (games/time_bank.py; short timers)."""

from __future__ import annotations

import pytest

from accounts.services import user_create
from cardroom.models import Hand, HandEvent
from cardroom.tables.runtime import table_create
from tests.e2e.players import PASSWORD, WAIT_MS, assert_ledger_balances, enter_table, sit
from tests.live import ARTIFACTS, live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLE = "E2E Time Bank"


def test_the_ring_shows_the_time_bank_after_the_timer_runs_out(browser):
    table = table_create(
        game="three_card_poker",
        preset="standard",
        options={"bet_seconds": 30, "decision_seconds": 2, "time_bank": 60},
        name=TABLE,
    )
    user_create(username="ann", password=PASSWORD)
    with live_server("e2e-time-bank") as url:
        ann = enter_table(browser, url, "ann", TABLE)
        sit(ann)
        page = ann.page
        page.wait_for_selector("form.tcp-bet-form", timeout=WAIT_MS)
        page.fill("form.tcp-bet-form input[name=ante]", "1")
        page.fill("form.tcp-bet-form input[name=pair_plus]", "0")
        page.click("form.tcp-bet-form button[type=submit]")
        page.wait_for_selector("form.action-play button", timeout=WAIT_MS)
        # Two seconds to decide, and Ann waits: the clock starts her bank instead of a fold.
        page.wait_for_selector("#table-status svg.countdown.time-bank", timeout=WAIT_MS)
        assert page.inner_text("#table-status .time-bank-label") == "time bank"
        assert page.is_visible("form.action-play button")
        assert page.inner_text("#seats li.seat.you .time-bank.running") == "time bank 60 s"
        page.screenshot(path=str(ARTIFACTS / "time-bank.png"), full_page=True)
        page.keyboard.press("p")
        page.wait_for_selector("#table-status svg.countdown.time-bank", state="detached",
                               timeout=WAIT_MS)  # fmt: skip

    started = HandEvent.objects.filter(table=table, type="time_bank")
    assert [event.data["seconds"] for event in started] == [60.0]
    hand = Hand.objects.get(table=table, number=1)
    played = HandEvent.objects.filter(hand=hand, type="played")
    assert played.count() == 1
    assert not HandEvent.objects.filter(hand=hand, type="folded").exists()
    assert_ledger_balances()
