"""The seat map in Chromium: a seat chosen on the map is the seat taken; the map fits a phone
with nothing over the buttons and no serious accessibility violation; with reduced motion asked
for, nothing on the page is animated, where otherwise the deal and the chips move."""

from __future__ import annotations

import pytest

from accounts.services import user_create
from cardroom.models import Seat
from cardroom.tables.runtime import table_create
from tests.e2e.accessibility import overflow, serious_violations
from tests.e2e.players import PASSWORD, WAIT_MS, enter_table
from tests.live import live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLE = "E2E Seat map"
WIDTHS = (360, 390, 430)

#: Counts every Web Animations call the page makes, from before its own scripts run.
COUNT_ANIMATIONS = """
window.__animations = 0;
const animate = Element.prototype.animate;
Element.prototype.animate = function () {
  window.__animations += 1;
  return animate.apply(this, arguments);
};
"""

#: The buttons of the actions bar that something else covers (by its centre point).
COVERED_BUTTONS = """() => Array.from(document.querySelectorAll('#actions button')).filter((b) => {
  b.scrollIntoView({block: 'center'});
  const box = b.getBoundingClientRect();
  const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return !(top && (top === b || b.contains(top)));
}).map((b) => b.textContent.trim())"""


def _table() -> None:
    table_create(
        game="guts",
        preset="survivor",
        # The first ante call comes a pause (showdown_seconds) after the second sit: short, so
        # the test does not wait for it; the call itself and the decisions stay open while the
        # page is measured.
        options={
            "ante": 100,
            "seats": 6,
            "ante_seconds": 60,
            "decision_seconds": 60,
            "showdown_seconds": 1,
        },
        name=TABLE,
    )
    for name in ("ann", "ben"):
        user_create(username=name, password=PASSWORD)


def test_a_seat_chosen_on_the_map_on_a_phone(browser):
    _table()
    with live_server("e2e-seat-map") as url:
        ann = enter_table(browser, url, "ann", TABLE)
        page = ann.page
        # Every seat is drawn, the open ones offering themselves.
        assert page.locator("#seats li.place").count() == 6
        assert page.locator("#seats li.place.open .sit-here button").count() == 6
        page.click('#seats li.place.open[data-place="3"] .sit-here button')
        page.wait_for_selector('#seats li.seat.you[data-seat="3"]', timeout=WAIT_MS)
        assert Seat.objects.get(user__username="ann", left__isnull=True).number == 3
        # The viewer's own seat is drawn at the bottom middle, with initials, name and stack.
        mine = page.locator("#seats li.seat.you")
        assert mine.get_attribute("style").replace(" ", "").startswith("grid-row:3;grid-column:2")
        assert mine.locator(".avatar").inner_text() == "AN"
        assert mine.locator(".stack").inner_text().startswith("$")
        # Seated, the open seats no longer offer a seat.
        page.wait_for_selector("#seats .sit-here", state="detached", timeout=WAIT_MS)

        # Ben takes the first seat the map offers him; the Sit down form still works alongside.
        ben = enter_table(browser, url, "ben", TABLE)
        ben.page.click('#seats li.place.open[data-place="0"] .sit-here button')
        ben.page.wait_for_selector('#seats li.seat.you[data-seat="0"]', timeout=WAIT_MS)
        page.wait_for_selector('#seats li.seat[data-seat="0"] >> text=ben', timeout=WAIT_MS)
        page.wait_for_selector("form.action-ante button", timeout=WAIT_MS * 3)

        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 800})
            assert overflow(page) == 0, width
            assert page.evaluate(COVERED_BUTTONS) == [], width
        page.set_viewport_size({"width": 390, "height": 844})
        assert serious_violations(page) == []


def test_reduced_motion_moves_nothing_and_otherwise_the_deal_moves(browser):
    _table()
    with live_server("e2e-seat-motion") as url:
        ann = enter_table(browser, url, "ann", TABLE, reduced_motion="reduce")
        ben = enter_table(browser, url, "ben", TABLE, reduced_motion="no-preference")
        for player in (ann, ben):
            player.page.add_init_script(COUNT_ANIMATIONS)
            player.page.reload()
            player.page.wait_for_selector("#connection.ok", timeout=WAIT_MS)
            player.page.click("form.action-sit button")
            player.page.wait_for_selector("#seats li.seat.you", timeout=WAIT_MS)
        for player in (ann, ben):
            player.page.wait_for_selector("form.action-ante button", timeout=WAIT_MS * 3)
            player.page.click("form.action-ante button")
        for player in (ann, ben):
            player.page.wait_for_selector("#you .your-cards .card", timeout=WAIT_MS)
            player.page.wait_for_selector("form.action-declare button", timeout=WAIT_MS)
        # The buttons are there at once, whatever moves.
        assert ann.page.locator("form.action-declare button").first.is_enabled()
        assert ann.page.evaluate("window.__animations") == 0
        assert ann.page.evaluate("document.getAnimations().length") == 0
        assert ann.page.locator(".motion-chip").count() == 0
        assert ben.page.evaluate("window.__animations") > 0
