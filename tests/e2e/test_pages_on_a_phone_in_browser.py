"""The lobby on phones from 360 to 430 px: opening "Who is here" clips nothing, and each table's
Join button stays in sight and works; every date is shown in the reader's own time zone, in the
page language's one pattern, with the zone's name."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import pytest

from accounts.services import user_create
from cardroom.tables.runtime import table_act, table_create
from tests.e2e.accessibility import overflow
from tests.e2e.players import PASSWORD, WAIT_MS
from tests.live import live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def log_in(browser, url: str, name: str, *, width: int = 390, zone: str = "UTC", language="en"):
    context = browser.new_context(viewport={"width": width, "height": 844}, timezone_id=zone)
    context.add_cookies([{"name": "django_language", "value": language, "url": url}])
    page = context.new_page()
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda address: "/accounts/login/" not in address, timeout=WAIT_MS)
    return page


def test_the_lobby_fits_a_phone_with_who_is_here_open(browser):
    ann, ben, _cat = (
        user_create(username=name, password=PASSWORD) for name in ("ann", "ben", "cat")
    )
    # A long name and a long preset: the widest row a phone has to fit.
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100}, name="The Long Evening Table"
    )
    for player in (ann, ben):
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    with live_server("e2e-lobby-phone") as url:
        for width in (360, 390, 430):
            page = log_in(browser, url, "cat", width=width)
            page.goto(f"{url}/lobby/")
            row = page.locator("#lobby-rows tr").first
            row.locator("details.preview summary").click()
            assert row.locator("details.preview").get_attribute("open") is not None
            assert row.locator("details.preview li").count() == 2
            assert overflow(page) == 0, width
            # Nor is anything hidden in a table's own sideways scroll (the tables', and the
            # sit-and-go tournaments' below them).
            hidden = "t => t.scrollWidth - t.clientWidth"
            lobby_tables = page.locator("table.lobby").all()
            assert len(lobby_tables) == 2, width
            for lobby_table in lobby_tables:
                assert lobby_table.evaluate(hidden) <= 0, width
            for cell in row.locator("td").all():
                if cell.is_visible():
                    box = cell.bounding_box()
                    assert box is not None and box["x"] + box["width"] <= width + 0.5, width
            join = row.locator(".join.show-narrow a.button")
            assert join.is_visible()
            box = join.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, box
            name = row.locator("td").first.locator("a").first
            name_box = name.bounding_box()
            assert name_box is not None and name_box["x"] + name_box["width"] <= width
            join.click()
            page.wait_for_url(re.compile(rf"/tables/{table.pk}/$"), timeout=WAIT_MS)
            page.context.close()


@pytest.mark.parametrize(
    ("language", "pattern"), [("en", "%Y-%m-%d %H:%M"), ("nb", "%d.%m.%Y %H:%M")]
)
def test_dates_are_shown_in_the_readers_zone_with_its_name(browser, language, pattern):
    user_create(username="ann", password=PASSWORD)
    with live_server("e2e-local-times") as url:
        # India is 5 h 30 ahead of UTC: the hours and the minutes both move.
        page = log_in(browser, url, "ann", zone="Asia/Kolkata", language=language)
        page.goto(f"{url}/accounts/cashier/")
        moment = page.locator("table.statement time").first
        page.wait_for_function("() => document.querySelector('time[data-local][title]')")
        written = moment.inner_text()
        at = datetime.fromisoformat(moment.get_attribute("datetime").replace("Z", "+00:00"))
        local = (at + timedelta(hours=5, minutes=30)).strftime(pattern)
        assert written.startswith(local + " "), (written, local)
        assert not written.endswith("UTC")
        assert moment.get_attribute("title") in ("Asia/Kolkata", "Asia/Calcutta")  # one zone
