"""The operators' console in a browser: a table opened through the new-table form (the preset
chosen swaps the form's options in place), and a hand voided after its preview, axe clean."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import Permission
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import Transfer
from accounts.services import user_create
from cardroom.models import Table
from cardroom.tables.runtime import table_act, table_create
from tests.cardroom.driving import play_to_declare
from tests.e2e.accessibility import serious_violations
from tests.e2e.players import PASSWORD, WAIT_MS, operator_page
from tests.live import live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def assert_axe_clean(page) -> None:
    found = serious_violations(page)
    assert not found, "\n" + json.dumps(found, indent=1)


def test_an_operator_opens_a_table_by_the_form_and_voids_a_hand_after_its_preview(browser):
    ann, ben = (user_create(username=name, password=PASSWORD) for name in ("ann", "ben"))
    olga = user_create(username="olga", password=PASSWORD)
    olga.user_permissions.add(Permission.objects.get(codename="operate_tables"))
    device = TOTPDevice.objects.create(user=olga, name="app", confirmed=True)
    # A declare clock longer than the test: the hand must stand still between the preview and
    # the confirmation, or the confirmation rightly shows a changed preview instead.
    survivor = table_create(
        game="guts",
        preset="survivor",
        options={"ante": 100, "decision_seconds": 600},
        name="Busy",
    )
    for player in (ann, ben):
        table_act(table_id=survivor.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    play_to_declare(survivor, [ann, ben])  # two antes in the pot

    with live_server("e2e-console") as url:
        page = operator_page(browser, url, device)
        page.goto(f"{url}/operators/tables/new/?game=guts&preset=monte_carlo")
        assert page.locator("select[name=payer]").count() == 0  # Monte Carlo fixes who pays
        assert_axe_clean(page)
        page.fill("#id_name", "Lowest pays")
        # Another preset: its options replace the form's in place.
        page.select_option("#preset-choice", "custom")
        page.wait_for_selector("select[name=payer]", timeout=WAIT_MS)
        assert "Preset: Custom" in page.inner_text("#table-new-preset")
        labels = page.locator("select[name=payer] option").all_inner_texts()
        assert "Lowest loser pays (Survivor)" in labels
        assert_axe_clean(page)
        assert page.input_value("#id_name") == "Lowest pays"  # kept across the swap
        page.fill("#id_ante", "1")
        page.select_option("select[name=payer]", "lowest_loser")
        page.fill("#id_reason", "a custom table for the league")
        with page.expect_navigation(timeout=WAIT_MS):
            page.click("#table-new-form button[type=submit]")
        table = Table.objects.get(name="Lowest pays")
        assert (table.preset, table.config["payer"]) == ("custom", "lowest_loser")

        page.goto(f"{url}/operators/tables/{survivor.pk}/")
        page.select_option("#play_action", "void")
        page.fill("#play_reason", "misdeal reported")
        page.click("#play-form button[type=submit]")
        page.wait_for_selector("#preview-moves", timeout=WAIT_MS)
        preview = page.inner_text("#preview-totals")
        assert "ann: $1.00" in preview and "ben: $1.00" in preview
        assert not Transfer.objects.filter(kind="void").exists()  # nothing moved yet
        assert_axe_clean(page)
        with page.expect_navigation(timeout=WAIT_MS):
            page.click("#confirm-form button[type=submit]")
        assert page.url.endswith(f"/operators/tables/{survivor.pk}/")
        assert sum(t.amount for t in Transfer.objects.filter(kind="void")) == 200
