"""What a seasoned player found at the table in Chromium (issue 37), checked in Chromium: on a
phone one action area, every action button visible and not covered; Chinese Poker's reveal
with each row's cards on one line and the rows aligned, at 1280 x 800 and on a phone; and on a
touch screen no key hints, in <kbd> or in words."""

from __future__ import annotations

from typing import Any

import pytest

from accounts.services import user_create
from cardroom.tables.runtime import table_create
from tests.e2e.accessibility import PHONE, overflow
from tests.e2e.players import PASSWORD, WAIT_MS, enter_table, sit
from tests.live import live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}
#: A phone held in the hand: a finger for a pointer, no hover.
TOUCH = {"viewport": PHONE, "has_touch": True, "is_mobile": True}
COARSE = "matchMedia('(hover: none) and (pointer: coarse)').matches"

#: Each action button the page shows: whether the element at its centre, once scrolled into
#: view, is the button (or its own label): nothing sits on top of it.
UNCOVERED = """selector => Array.from(document.querySelectorAll(selector))
  .filter(button => button.offsetParent !== null)
  .map(button => {
    button.scrollIntoView({block: "center"});
    const box = button.getBoundingClientRect();
    const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    return {text: button.textContent.trim(), inView: box.top >= 0 && box.bottom <= innerHeight,
            uncovered: top !== null && button.contains(top)};
  })"""
#: The action areas stuck to the bottom of the screen.
STICKY = """() => Array.from(document.querySelectorAll('.actions'))
  .filter(node => node.offsetParent !== null && getComputedStyle(node).position === 'sticky')
  .length"""
#: Each revealed hand's rows: their cards' count, tops and left edges, and the hand's box.
REVEAL = """() => Array.from(document.querySelectorAll('.cp-reveal .cp-hand')).map(hand => ({
  right: hand.getBoundingClientRect().right,
  rows: Array.from(hand.querySelectorAll('.cp-row.small')).map(row => {
    const cards = Array.from(row.querySelectorAll('svg.card')).map(c => c.getBoundingClientRect());
    return {count: cards.length, tops: cards.map(r => Math.round(r.top)),
            left: Math.round(cards[0].left), right: Math.round(cards[cards.length - 1].right)};
  })}))"""


def assert_actions_uncovered(page: Any) -> None:
    """At most one sticky action area, and every action button in view and uncovered."""
    assert page.evaluate(STICKY) <= 1
    buttons = page.evaluate(UNCOVERED, "#actions button, .cp-actions button")
    assert buttons, "the page shows action buttons"
    for button in buttons:
        assert button["inView"] and button["uncovered"], button


def assert_reveal_tidy(page: Any) -> None:
    hands = page.evaluate(REVEAL)
    assert len(hands) == 2
    for hand in hands:
        assert [row["count"] for row in hand["rows"]] == [3, 5, 5]
        for row in hand["rows"]:
            assert len(set(row["tops"])) == 1, row  # one line
            assert row["right"] <= hand["right"], row
        assert len({row["left"] for row in hand["rows"]}) == 1, hand  # the rows aligned
    assert overflow(page) == 0


def take_suggestion_and_submit(page: Any) -> None:
    page.click("#game-board button:has-text('Suggest an arrangement')")
    page.wait_for_selector("#cp-suggestion .cp-row", timeout=WAIT_MS)
    page.click("#cp-suggestion button:has-text('Use these rows')")
    page.wait_for_selector("#game-board .cp-foul:has-text('Rows in order.')", timeout=WAIT_MS)
    page.click("#game-board button:has-text('Submit these rows')")


def test_chinese_poker_on_a_phone_and_its_reveal_at_both_sizes(browser):
    name = "E2E Fit Chinese"
    table_create(
        game="chinese_poker", preset="unit-1", name=name,
        options={"seats": 2, "set_seconds": 120, "pause_seconds": 2},
    )  # fmt: skip
    for player in ("ann", "ben"):
        user_create(username=player, password=PASSWORD)
    with live_server("e2e-fit-chinese") as url:
        ann = enter_table(browser, url, "ann", name, **TOUCH)
        ben = enter_table(browser, url, "ben", name, viewport=DESKTOP)
        assert ann.page.evaluate(COARSE) and not ben.page.evaluate(COARSE)
        for player in (ann, ben):
            sit(player)
        for player in (ann, ben):
            player.page.wait_for_selector("#cp-board.editable", timeout=WAIT_MS)
        # One action area on the phone: the board's buttons and the seat's, none covered.
        assert ann.page.locator(".cp-actions button").count() >= 3
        assert_actions_uncovered(ann.page)
        ann.page.evaluate("window.scrollTo(0, 0)")
        submit = ann.page.locator("#game-board button:has-text('Submit these rows')")
        box = submit.bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"], box
        # The board's name speaks of taps on the touch screen, of arrow keys at the desk.
        assert "key" not in ann.page.get_attribute("#cp-board", "aria-label")
        assert "arrow keys" in ben.page.get_attribute("#cp-board", "aria-label")

        # Ann sits out from the next hand, so the reveal stays on the table after the pause.
        ann.page.click("form.action-sit_out button")
        ann.page.wait_for_selector("form.action-sit_in button", timeout=WAIT_MS)
        for player in (ann, ben):
            take_suggestion_and_submit(player.page)
        for player in (ann, ben):
            player.page.wait_for_selector(".cp-reveal .cp-hand .cp-row", timeout=WAIT_MS)
        assert_reveal_tidy(ann.page)
        assert_reveal_tidy(ben.page)
        ben.page.set_viewport_size({"width": 390, "height": 844})
        assert_reveal_tidy(ben.page)
        assert_actions_uncovered(ann.page)


def test_no_key_hints_on_a_touch_screen(browser):
    name = "E2E Fit Touch"
    table_create(
        game="guts", preset="survivor", name=name,
        options={"ante": 100, "seats": 6, "decision_seconds": 60, "ante_seconds": 60},
    )  # fmt: skip
    for player in ("ann", "ben"):
        user_create(username=player, password=PASSWORD)
    with live_server("e2e-fit-touch") as url:
        ann = enter_table(browser, url, "ann", name, **TOUCH)
        ben = enter_table(browser, url, "ben", name, viewport=DESKTOP)
        for player in (ann, ben):
            sit(player)
        for player in (ann, ben):
            player.page.wait_for_selector("form.action-ante button", timeout=WAIT_MS * 2)
        # The desk shows the ante's key; the touch screen shows none, and names no key.
        assert ben.page.locator("#actions kbd").first.is_visible()
        assert ann.page.locator("#actions kbd").count() >= 1
        assert not any(kbd.is_visible() for kbd in ann.page.locator("kbd").all())
        for player in (ann, ben):
            player.page.click("form.action-ante button")
        ann.page.wait_for_selector("form.action-declare button", timeout=WAIT_MS)
        assert ann.page.locator("#actions kbd").count() >= 2  # I and O, drawn but hidden
        assert not any(kbd.is_visible() for kbd in ann.page.locator("kbd").all())
        words = ann.page.inner_text("body").lower()
        assert "key" not in words and "shortcut" not in words
        assert_actions_uncovered(ann.page)
