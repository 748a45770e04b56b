"""A player at two tables, clicked in Chromium: the "my tables" strip marks the other table's
turn (from the open table pages of the browser, even with the strip's poll cut off), notifies
it when asked to, and the tiled view shows both tables, each playable in its tile."""

from __future__ import annotations

import pytest

from accounts.services import user_create
from cardroom.tables.runtime import table_act, table_create
from tests.e2e.accessibility import PHONE, serious_violations
from tests.e2e.players import PASSWORD, WAIT_MS
from tests.live import live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1400, "height": 1000}
#: Long decisions: the clock must not sit anyone out while the test clicks.
OPTIONS = {"ante": 100, "seats": 6, "ante_seconds": 120, "decision_seconds": 120}
SIT = {"kind": "sit", "buy_in": 20_000}

#: A stand-in for the browser's notifications: granted, and each one kept in ``__notes``.
FAKE_NOTIFICATIONS = """
window.__notes = [];
window.Notification = function (title, options) {
  window.__notes.push(title);
  this.close = function () {};
};
window.Notification.permission = "granted";
window.Notification.requestPermission = function () { return Promise.resolve("granted"); };
"""


def two_tables():
    alpha = table_create(game="guts", preset="survivor", options=OPTIONS, name="E2E Alpha")
    beta = table_create(game="guts", preset="survivor", options=OPTIONS, name="E2E Beta")
    ann, ben = (user_create(username=name, password=PASSWORD) for name in ("ann", "ben"))
    return alpha, beta, ann, ben


def log_in(browser, url: str, name: str, viewport=DESKTOP):
    context = browser.new_context(viewport=viewport)
    context.add_init_script(FAKE_NOTIFICATIONS)
    page = context.new_page()
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda address: "/accounts/login/" not in address, timeout=WAIT_MS)
    return page


def mark(table) -> str:
    return f'#my-tables li[data-table="{table.pk}"] .turn-mark'


def test_viewing_one_table_the_strip_marks_the_other_tables_turn(browser):
    alpha, beta, ann, ben = two_tables()
    table_act(table_id=alpha.pk, user=ann, action=SIT)
    for table in (alpha, beta):
        table_act(table_id=table.pk, user=ben, action=SIT)
    with live_server("e2e-several-tables") as url:
        page = log_in(browser, url, "ann")
        page.goto(f"{url}/tables/{alpha.pk}/")
        page.wait_for_selector("#connection.ok", timeout=WAIT_MS)
        assert page.get_attribute("#my-tables", "aria-label") == "My tables"
        # Notifications are off until she turns them on.
        notify = page.locator("#my-tables .my-tables-notify")
        assert notify.get_attribute("aria-pressed") == "false"
        notify.click()
        assert notify.get_attribute("aria-pressed") == "true"

        # She sits down at Beta in another tab; its ante call will await her there.
        other = page.context.new_page()
        other.goto(f"{url}/tables/{beta.pk}/")
        other.wait_for_selector("#connection.ok", timeout=WAIT_MS)
        other.click("form.action-sit button")
        other.wait_for_selector("form.action-ante button", timeout=WAIT_MS * 2)

        # On Alpha's page, Beta is marked in words and its turn notified (not in view there).
        page.wait_for_selector(mark(beta), timeout=WAIT_MS)
        assert page.inner_text(mark(beta)) == "Your turn"
        page.wait_for_function(
            "window.__notes.indexOf('Your turn at E2E Beta') >= 0", timeout=WAIT_MS
        )
        # Beta's own tab does not notify the table it shows (it may notify Alpha's ante call,
        # which is not in view there, depending on when that call came).
        assert "Your turn at E2E Beta" not in other.evaluate("window.__notes")
        page.wait_for_selector("#my-tables-said:has-text('Your turn at E2E Beta')")

        # Alpha's ante, posted on its page, takes Alpha's mark away; Beta's stays.
        page.wait_for_selector(mark(alpha), timeout=WAIT_MS)
        page.click("form.action-ante button")
        page.wait_for_selector(mark(alpha), state="detached", timeout=WAIT_MS)
        assert page.locator(mark(beta)).count() == 1

        # With the strip's poll cut off, Beta's page alone tells Alpha's that her ante there
        # ended her turn (the browser's channel between its pages).
        page.route("**/my-tables.json", lambda route: route.abort())
        other.click("form.action-ante button")
        page.wait_for_selector(mark(beta), state="detached", timeout=WAIT_MS)


def test_the_tiled_view_shows_both_tables_and_a_tile_can_be_played(browser):
    alpha, beta, ann, ben = two_tables()
    for table in (alpha, beta):
        for player in (ann, ben):
            table_act(table_id=table.pk, user=player, action=SIT)
    with live_server("e2e-tiled") as url:
        page = log_in(browser, url, "ann")
        page.click("#my-tables .tiled-link")
        page.wait_for_url(f"{url}/tables/tiled/", timeout=WAIT_MS)
        frames = {}
        for table in (alpha, beta):
            tile = f'.tile[data-table="{table.pk}"]'
            assert page.inner_text(f"{tile} .tile-head a") == table.name
            frames[table.pk] = page.frame_locator(f"{tile} iframe")
            frames[table.pk].locator("#connection.ok").wait_for(timeout=WAIT_MS)
            # The tile is the table page in its compact mode: no top bar, no strip.
            assert frames[table.pk].locator(".topbar").is_hidden()
            assert frames[table.pk].locator("#my-tables").count() == 0

        # Alpha's ante call: its tile is highlighted, and said so in words.
        alpha_tile = f'.tile[data-table="{alpha.pk}"]'
        page.wait_for_selector(f"{alpha_tile}.turn", timeout=WAIT_MS * 2)
        assert page.inner_text(f"{alpha_tile} .turn-mark") == "Your turn"
        frames[alpha.pk].locator("form.action-ante button").click()
        page.wait_for_selector(f"{alpha_tile}:not(.turn)", timeout=WAIT_MS)
        frames[alpha.pk].locator("form.action-ante").wait_for(state="detached", timeout=WAIT_MS)
        assert page.locator(f"{alpha_tile} .turn-mark").is_hidden()

        assert serious_violations(page) == []

        # On a phone the tiled view is a list of links to the tables, with no frames.
        phone = log_in(browser, url, "ann", viewport=PHONE)
        phone.goto(f"{url}/tables/tiled/")
        assert phone.locator(".tile iframe").count() == 0
        for table in (alpha, beta):
            link = phone.locator(f'.tile[data-table="{table.pk}"] .tile-head a')
            assert link.is_visible() and link.get_attribute("href") == f"/tables/{table.pk}/"
        assert serious_violations(phone) == []
