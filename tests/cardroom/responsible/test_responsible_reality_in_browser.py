"""The reality check clicked in Chromium (static/js/reality.js): due after an hour of the session
it opens over the table with the time played and the net result; "Keep playing" closes it until
the next interval, "Leave my tables" stands the player up."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.services import user_create
from cardroom.models import Seat
from cardroom.models.responsible import PlayerLimits
from cardroom.tables.runtime import table_act, table_create
from tests.e2e.conftest import browser  # noqa: F401  (the browser tests' Chromium fixture)
from tests.e2e.players import PASSWORD, WAIT_MS, enter_table
from tests.live import live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLE = "E2E Reality"


def test_the_reality_check_opens_when_due_and_its_buttons_answer(browser):  # noqa: F811
    table = table_create(game="three_card_poker", preset="standard", options={}, name=TABLE)
    ann = user_create(username="ann", password=PASSWORD)
    table_act(table_id=table.pk, user=ann, action={"kind": "sit", "buy_in": 10_000})
    Seat.objects.filter(user=ann).update(joined=timezone.now() - timedelta(minutes=61))
    with live_server("e2e-reality") as url:
        player = enter_table(browser, url, "ann", TABLE)
        page = player.page
        page.wait_for_selector("#reality-check[open]", timeout=WAIT_MS)
        assert page.text_content("[data-reality=played]") == "1 hour 1 minute"
        assert page.text_content("[data-reality=net]") == "$0.00"

        page.click("form[data-reality=keep] button")
        page.wait_for_selector("#reality-check[open]", state="detached", timeout=WAIT_MS)
        assert PlayerLimits.objects.get(user=ann).reality_acknowledged is not None
        page.reload()
        page.wait_for_selector("#connection.ok", timeout=WAIT_MS)
        page.wait_for_timeout(1500)  # the script has asked by now: not due again yet
        assert not page.is_visible("#reality-check")

        PlayerLimits.objects.filter(user=ann).update(
            reality_acknowledged=timezone.now() - timedelta(minutes=61)
        )
        page.reload()
        page.wait_for_selector("#reality-check[open]", timeout=WAIT_MS)
        page.click("form[data-reality=leave] button")
        page.wait_for_selector(
            "[data-reality=said]:has-text('You left 1 table now')", timeout=WAIT_MS
        )
        assert Seat.objects.get(user=ann, table=table).left is not None
