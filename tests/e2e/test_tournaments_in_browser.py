"""Sit-and-go tournaments in Chromium, on a phone: the lobby's tournaments section (kept
current by the lobby's own refresh), a running tournament's page with its level's clock
counting down, its table's tournament panel, and the leaderboards; every page fits the phone
and has no serious accessibility violation (axe-core)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.services import user_create
from cardroom.models import Table
from cardroom.models.tournaments import Entry, EntryStatus, Tournament, TournamentStatus
from cardroom.tables.runtime import table_create
from cardroom.tournaments.templates import create_tournament
from tests.e2e.accessibility import PHONE, overflow, serious_violations
from tests.e2e.players import PASSWORD, WAIT_MS, operator_page
from tests.live import live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

LEVELS = [{"ante": 10, "minutes": 5}, {"ante": 20, "minutes": 5}, {"ante": 40, "minutes": 5}]


def _tournament(name: str, **fields) -> Tournament:
    values = {
        "game": "guts", "preset": "survivor", "seats": 3, "buy_in": 1_000, "fee": 100,
        "chips": 1_500, "levels": LEVELS, "payouts": [6_500, 3_500], **fields,
    }  # fmt: skip
    return Tournament.objects.create(name=name, **values)


def _log_in(browser, url: str, name: str):
    page = browser.new_context(viewport=PHONE).new_page()
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda address: "/accounts/login/" not in address, timeout=WAIT_MS)
    return page


def _checked(page, problems: dict, where: str) -> None:
    page.wait_for_load_state("networkidle")
    if wider := overflow(page):
        problems[f"{where} is {wider}px wider than a phone"] = True
    if found := serious_violations(page):
        problems[where] = found


def test_the_tournament_pages_in_a_browser(browser):
    users = {name: user_create(username=name, password=PASSWORD) for name in ("ann", "ben", "cat")}
    open_one = _tournament("E2E Open Survivor")
    Entry.objects.create(tournament=open_one, user=users["ann"])
    table = table_create(
        game="guts", preset="survivor", options={"ante": 10, "seats": 3}, name="E2E SNG table"
    )
    Table.objects.filter(pk=table.pk).update(plays_for_chips=True)
    live = _tournament(
        "E2E Live Survivor",
        status=TournamentStatus.RUNNING,
        table=table,
        level=1,
        level_deadline=timezone.now() + timedelta(minutes=3),
        started=timezone.now(),
    )
    for name in ("ann", "ben", "cat"):
        Entry.objects.create(tournament=live, user=users[name], status=EntryStatus.PLAYING)
    done = _tournament(
        "E2E Last night", status=TournamentStatus.FINISHED, ended=timezone.now(), seats=2
    )
    Entry.objects.create(
        tournament=done, user=users["ben"], status=EntryStatus.WON, place=1, prize=2_000,
        points=20,
    )  # fmt: skip
    Entry.objects.create(
        tournament=done, user=users["cat"], status=EntryStatus.ELIMINATED, place=2, points=10
    )
    problems: dict = {}
    with live_server("e2e-tournaments") as url:
        page = _log_in(browser, url, "ann")
        page.goto(f"{url}/lobby/")
        row = "#lobby-tournaments tr:has-text('E2E Open Survivor')"
        page.wait_for_selector(row, timeout=WAIT_MS)
        assert "you are in" in page.inner_text(row)
        assert page.is_visible(f"{row} button:has-text('Unregister')")
        assert "1 / 3" in page.inner_text(row)
        _checked(page, problems, "/lobby/")
        # The lobby's own refresh brings a tournament opened meanwhile.
        _tournament("E2E Opened later")
        page.wait_for_selector(
            "#lobby-tournaments tr:has-text('E2E Opened later') button:has-text('Register')",
            timeout=WAIT_MS,
        )

        page.goto(f"{url}/tournaments/{live.pk}/")
        assert "Level 2: 20 chips" in page.inner_text("#tournament-level")
        clock = page.locator("time.level-left")
        first = clock.inner_text()
        page.wait_for_function(
            f"document.querySelector('time.level-left').textContent !== {json.dumps(first)}",
            timeout=WAIT_MS,
        )
        assert clock.inner_text().startswith(("2:", "3:"))
        _checked(page, problems, "/tournaments/<id>/")

        page.click("#tournament-table")
        page.wait_for_selector("#tournament-panel", timeout=WAIT_MS)
        assert "Level 2: 20 chips" in page.inner_text("#panel-level")
        assert "40 chips" in page.inner_text("#panel-next")
        assert "$19.50" in page.inner_text("#panel-places")

        page.goto(f"{url}/leaderboards/")
        board = page.inner_text("#leaderboard")
        assert board.index("ben") < board.index("cat") and "$20.00" in board
        _checked(page, problems, "/leaderboards/")

        page.goto(f"{url}/tournaments/")
        assert "E2E Last night" in page.inner_text("#tournaments-done")
        _checked(page, problems, "/tournaments/")
    assert not problems, "\n" + json.dumps(problems, indent=1)


def test_the_consoles_tournaments_page_in_a_browser(browser):
    olga = user_create(username="olga", password=PASSWORD)
    olga.user_permissions.add(Permission.objects.get(codename="operate_tables"))
    device = TOTPDevice.objects.create(user=olga, name="app", confirmed=True)
    _tournament("E2E Console Survivor")
    problems: dict = {}
    with live_server("e2e-tournaments-console") as url:
        page = operator_page(browser, url, device, viewport=PHONE)
        page.goto(f"{url}/operators/tournaments/")
        row = "#console-tournaments tr:has-text('E2E Console Survivor')"
        assert page.is_visible(f"{row} button:has-text('Cancel')")
        _checked(page, problems, "/operators/tournaments/")
        # A form in words: a bad level line is refused beside its field, and nothing is made.
        page.fill("#id_name", "E2E New")
        page.fill("#id_seats", "6")
        page.fill("#id_buy_in", "10")
        page.fill("#id_fee", "1")
        page.fill("#id_chips", "1500")
        page.fill("#id_levels", "10 5\nlots")
        page.click("#tournament-new-form button[type=submit]")
        page.wait_for_selector("#field-id_levels .field-error", timeout=WAIT_MS)
        assert "Line 2 (lots) is not a level" in page.inner_text("#field-id_levels")
        assert not Tournament.objects.filter(name="E2E New").exists()
        _checked(page, problems, "/operators/tournaments/ (refused)")
        # Cancel asks for a reason, then says what it refunds before anything happens.
        page.fill(f"{row} input[name=reason]", "Testing the console")
        page.click(f"{row} button:has-text('Cancel')")
        page.wait_for_selector("#tournament-cancel-confirm", timeout=WAIT_MS)
        assert "Nobody has registered: nothing is refunded." in page.inner_text("main")
        _checked(page, problems, "the cancel's confirmation")
    assert not problems, "\n" + json.dumps(problems, indent=1)


def test_a_player_registers_and_unregisters_from_the_lobby(browser):
    """The lobby's Register and Unregister answer in place: the note, the row's button and the
    header's bankroll change together, and the entry and its money follow."""
    sng = create_tournament(
        name="E2E Real", game="guts", preset="survivor", seats=3, buy_in=1_000, fee=100,
        chips=1_500,
    )  # fmt: skip
    user_create(username="ann", password=PASSWORD)
    with live_server("e2e-register") as url:
        page = _log_in(browser, url, "ann")
        page.goto(f"{url}/lobby/")
        row = "#lobby-tournaments tr:has-text('E2E Real')"
        page.click(f"{row} button:has-text('Register')")
        page.wait_for_selector(
            "#tournament-note:has-text('You are registered for E2E Real.')", timeout=WAIT_MS
        )
        page.wait_for_selector(f"{row} button:has-text('Unregister')", timeout=WAIT_MS)
        page.wait_for_selector("#bankroll:has-text('$989.00')", timeout=WAIT_MS)
        assert Entry.objects.get(tournament=sng).status == EntryStatus.REGISTERED
        assert serious_violations(page) == []
        page.click(f"{row} button:has-text('Unregister')")
        page.wait_for_selector("#tournament-note:has-text('no longer registered')", timeout=WAIT_MS)
        page.wait_for_selector(f"{row} button:has-text('Register')", timeout=WAIT_MS)
        page.wait_for_selector("#bankroll:has-text('$1,000.00')", timeout=WAIT_MS)
        assert Entry.objects.get(tournament=sng).status == EntryStatus.UNREGISTERED
