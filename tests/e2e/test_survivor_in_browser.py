"""Three players in three browsers play a Survivor round, from the lobby to the settlement."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command

from accounts.services import user_create
from cardroom.models import Hand
from cardroom.tables.runtime import table_create
from tests.live import ARTIFACTS, live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = ("ann", "ben", "cat")
PASSWORD = "e2e-passphrase-1"


def test_three_players_play_a_survivor_round_in_the_browser(browser):
    table = table_create(
        game="guts",
        preset="survivor",
        options={"ante": 100, "seats": 6, "showdown_seconds": 5, "decision_seconds": 20},
        name="E2E Survivor",
    )
    for name in NAMES:
        user_create(username=name, password=PASSWORD)
    with live_server("e2e-survivor") as url:
        pages = []
        for name in NAMES:
            page = browser.new_context(viewport={"width": 420, "height": 900}).new_page()
            page.goto(f"{url}/accounts/login/")
            page.fill("input[name=username]", name)
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit]")
            page.goto(f"{url}/lobby/")
            page.click("text=E2E Survivor")
            page.wait_for_selector("#connection.ok", timeout=10_000)
            pages.append(page)
        # All three sit within the pause before the round's first ante call.
        for page in pages:
            page.click("form.action-sit button")
        for page in pages:
            page.wait_for_selector("form.action-ante button", timeout=30_000)
            page.keyboard.press("a")
        for page in pages:
            page.wait_for_selector("form.action-declare button", timeout=15_000)
            assert len(page.query_selector_all("#you svg.card")) == 3
        pages[0].keyboard.press("i")
        pages[1].keyboard.press("i")
        pages[2].keyboard.press("o")
        for index, page in enumerate(pages):
            page.wait_for_selector("#log .winner", timeout=15_000)
            page.screenshot(path=str(ARTIFACTS / f"survivor-{NAMES[index]}.png"), full_page=True)
        winner_line = pages[2].inner_text("#log li")
        assert re.search(r"#1 (ann|ben) won \$\d+\.\d\d", winner_line), winner_line
    hand = Hand.objects.get(table=table, number=1)
    assert hand.ended is not None
    call_command("audit_ledger")
