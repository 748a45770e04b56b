"""A table page whose login is taken away elsewhere, in Chromium: its next click is refused
(4401) and the page loads again, to the login page when the browser is logged out, back to the
table when only its session key was renewed (a password change made in another tab)."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from accounts.services import user_create
from cardroom.models import Seat
from cardroom.realtime.logins import LOGIN_CHECK_SECONDS
from cardroom.tables.runtime import table_create
from tests.e2e.players import PASSWORD, WAIT_MS, enter_table
from tests.live import live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLE = "E2E Logged out"


def test_a_logged_out_table_page_goes_to_the_login_and_a_renewed_one_comes_back(browser):
    table = table_create(game="guts", preset="survivor", options={"ante": 100}, name=TABLE)
    user_create(username="ann", password=PASSWORD)
    with live_server("e2e-logged-out") as url:
        # A password changed in another tab of the same browser: this tab's session key was
        # renewed, so its socket is refused, and the reload brings the table back.
        ann = enter_table(browser, url, "ann", TABLE).page
        loads = count_loads(ann)
        change_password(ann.context.new_page(), url, PASSWORD, "a-new-e2e-passphrase-2")
        time.sleep(LOGIN_CHECK_SECONDS + 0.2)  # another process: its clock cannot be set
        click_until_loaded_again(ann, loads)
        ann.wait_for_selector("#connection.ok", timeout=WAIT_MS)
        assert f"/tables/{table.pk}/" in ann.url
        assert not Seat.objects.filter(table=table).exists()

        # Another browser changes the password again, which ends every other session (as
        # "log out everywhere" does): this page's reload asks for a login.
        laptop = browser.new_context().new_page()
        laptop.goto(f"{url}/accounts/login/")
        laptop.fill("input[name=username]", "ann")
        laptop.fill("input[name=password]", "a-new-e2e-passphrase-2")
        laptop.click("button[type=submit]")
        laptop.wait_for_url(lambda address: "/accounts/login/" not in address, timeout=WAIT_MS)
        change_password(laptop, url, "a-new-e2e-passphrase-2", "a-third-e2e-passphrase-3")
        loads.clear()
        time.sleep(LOGIN_CHECK_SECONDS + 0.2)
        click_until_loaded_again(ann, loads)
        ann.wait_for_url(lambda address: "/accounts/login/" in address, timeout=WAIT_MS)
        assert not Seat.objects.filter(table=table).exists()


def count_loads(page) -> list[str]:
    """The addresses the page's main frame loads from now on, appended as they come."""
    loads: list[str] = []
    page.on("framenavigated", lambda frame: frame == page.main_frame and loads.append(frame.url))
    return loads


def click_until_loaded_again(page, loads: list[str]) -> None:
    """Click the table's Sit until the page loads again. The page loads again at its next click
    (4401), or before it when the freshness round's check of a socket that only listens (every
    10 seconds) finds the login gone first: that check can win the race, and a click on the
    page it loaded would then sit the player down (renewed) or find no table (logged out)."""
    if not loads:
        try:
            with page.expect_navigation(timeout=WAIT_MS):
                page.click("form.action-sit button", timeout=WAIT_MS)
        except PlaywrightTimeoutError:
            pass  # loaded again meanwhile: the wait below says so, or fails
    deadline = time.monotonic() + WAIT_MS / 1000
    while not loads and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert loads, "the page never loaded again after its login was taken away"


def change_password(page, url: str, old: str, new: str) -> None:
    page.goto(f"{url}/accounts/password/")
    page.fill("input[name=old_password]", old)
    for field in ("new_password1", "new_password2"):
        page.fill(f"input[name={field}]", new)
    page.click("section.panel form button[type=submit]")
    page.wait_for_url(lambda address: "/accounts/password/" not in address, timeout=WAIT_MS)
