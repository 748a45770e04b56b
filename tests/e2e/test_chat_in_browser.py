"""The table chat, typed in Chromium: two players read each other's lines; after one mutes the
other, the muted player's new lines are hidden from the muter and still shown to a third."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.services import user_create
from cardroom.models import ChatLine, OperatorAction, OperatorActionKind
from cardroom.tables.runtime import table_act, table_create
from tests.cardroom.driving import play_to_declare, run_clock
from tests.e2e.accessibility import PHONE, overflow, serious_violations
from tests.e2e.players import PASSWORD, WAIT_MS, enter_table, operator_page, sit
from tests.live import live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLE = "E2E Chat"


def say(page, text: str) -> None:
    page.fill("#chat-text", text)
    page.press("#chat-text", "Enter")


def lines(page) -> list[str]:
    return page.locator("#chat-lines .chat-text").all_inner_texts()


def test_players_chat_and_a_mute_hides_lines_from_the_muter_only(browser):
    table_create(
        game="guts",
        preset="survivor",
        # Long timers: nobody acts, so the hand waits while the players talk.
        options={"ante": 100, "seats": 6, "decision_seconds": 60, "showdown_seconds": 60},
        name=TABLE,
    )
    for name in ("ann", "ben", "vic"):
        user_create(username=name, password=PASSWORD)
    with live_server("e2e-chat") as url:
        ann, ben, vic = (enter_table(browser, url, name, TABLE) for name in ("ann", "ben", "vic"))
        sit(ann)
        sit(ben)

        hostile = "<b>hi</b> ben"
        say(ann.page, hostile)
        for player in (ann, ben, vic):
            player.page.wait_for_selector(f"#chat-lines li:has-text('{hostile}')", timeout=WAIT_MS)
        assert ann.page.input_value("#chat-text") == ""  # emptied for the next line
        assert ben.page.locator("#chat-lines b").count() == 0  # text, not markup
        # Typing in the chat presses no action's shortcut ("a" would ante, "o" declare Out).
        say(ben.page, "a o i")
        ann.page.wait_for_selector("#chat-lines li:has-text('a o i')", timeout=WAIT_MS)
        assert lines(ann.page) == [hostile, "a o i"]

        # A spectator's line is refused in words, in the chat's notice.
        say(vic.page, "let me play")
        vic.page.wait_for_selector("#chat-notice:has-text('seated')", timeout=WAIT_MS)

        # Ann mutes Ben: his lines go from her panel, his next line never reaches her.
        ann.page.click("#chat-lines li:has-text('a o i') .chat-mute button")
        ann.page.wait_for_selector("#chat-muted:has-text('ben')", timeout=WAIT_MS)
        assert lines(ann.page) == [hostile]
        say(ben.page, "can you hear me")
        vic.page.wait_for_selector("#chat-lines li:has-text('can you hear me')", timeout=WAIT_MS)
        ben.page.wait_for_selector("#chat-lines li:has-text('can you hear me')", timeout=WAIT_MS)
        say(ann.page, "quiet now")
        ann.page.wait_for_selector("#chat-lines li:has-text('quiet now')", timeout=WAIT_MS)
        assert lines(ann.page) == [hostile, "quiet now"]  # Ben's line came before hers
        assert ann.page.locator("#chat-lines .chat-from").all_inner_texts() == ["ann", "ann"]
        # The panel, with its lines, notice and muted list, fits a phone and passes axe.
        for page in (ann.page, vic.page):
            assert overflow(page) == 0
            assert serious_violations(page) == []
        # A reload keeps the mute, in the history too.
        ann.page.reload()
        ann.page.wait_for_selector("#connection.ok", timeout=WAIT_MS)
        assert lines(ann.page) == [hostile, "quiet now"]

        # The panel hides and stays hidden across a reload; the dealer's tab is a click away.
        ann.page.click("#chat-toggle")
        assert not ann.page.is_visible("#chat-lines")
        ann.page.reload()
        ann.page.wait_for_selector("#connection.ok", timeout=WAIT_MS)
        assert not ann.page.is_visible("#chat-lines")
        ann.page.click("#chat-toggle")
        ann.page.click("#chat-tab-dealer")
        assert ann.page.is_visible("#chat-pane-dealer")
        assert not ann.page.is_visible("#chat-pane-chat")

        # Unmuted, Ben is heard again.
        ann.page.click("#chat-tab-chat")
        ann.page.click("#chat-muted button")
        ann.page.wait_for_selector("#chat-lines li:has-text('can you hear me')", timeout=WAIT_MS)


def test_an_operator_reads_the_chat_log_and_mutes_a_player_room_wide(browser):
    table = table_create(game="guts", preset="survivor", options={"ante": 100}, name=TABLE)
    ann = user_create(username="ann", password=PASSWORD)
    for text in ("<i>hello</i>", "buy chips at evil.example"):
        ChatLine.objects.create(table=table, user=ann, name="ann", text=text, at=timezone.now())
    olga = user_create(username="olga", password=PASSWORD)
    olga.user_permissions.add(Permission.objects.get(codename="operate_tables"))
    app = TOTPDevice.objects.create(user=olga, name="app", confirmed=True)
    with live_server("e2e-chat-log") as url:
        page = operator_page(browser, url, app, PHONE)

        page.click("nav.operator-nav >> text=Chat log")
        texts = page.locator(".chat-log-line .chat-text").all_inner_texts()
        assert texts == ["buy chips at evil.example", "<i>hello</i>"]
        assert overflow(page) == 0
        assert serious_violations(page) == []
        page.click(".chat-log-line >> nth=0 >> text=Mute or unmute…")
        page.select_option("#mute_hours", "168")
        page.fill("#mute_reason", "spam")
        page.click("text=Mute room-wide")
        page.wait_for_selector(".chat-player:has-text('spam')", timeout=WAIT_MS)
        # Read again without the "muted" message: base.html's messages list (an <li> with a
        # role) is a violation of its own, outside the chat.
        page.goto(page.url)
        assert serious_violations(page) == []
        page.fill("#unmute_reason", "a mistake")
        page.click(".chat-player >> text=Unmute room-wide")
        page.wait_for_selector(".chat-player button:has-text('Mute room-wide')", timeout=WAIT_MS)
        logged = OperatorAction.objects.order_by("id")
        assert [(a.kind, a.reason) for a in logged] == [
            (OperatorActionKind.CHAT_BAN, "spam"),
            (OperatorActionKind.CHAT_UNBAN, "a mistake"),
        ]


def test_the_dealer_tab_repeats_the_results_of_the_hands(browser):
    table = table_create(game="guts", preset="survivor", options={"ante": 100}, name=TABLE)
    ann, ben = (user_create(username=name, password=PASSWORD) for name in ("ann", "ben"))
    user_create(username="vic", password=PASSWORD)
    for user in (ann, ben):
        table_act(table_id=table.pk, user=user, action={"kind": "sit", "buy_in": 20_000})
    play_to_declare(table, [ann, ben])
    run_clock(table)  # nobody declares: the hand ends
    with live_server("e2e-chat-dealer") as url:
        vic = enter_table(browser, url, "vic", TABLE).page
        results = vic.locator("#log ol li:not(.empty)").all_inner_texts()
        assert len(results) == 1
        vic.click("#chat-tab-dealer")
        assert vic.get_attribute("#chat-tab-dealer", "aria-selected") == "true"
        said = vic.locator("#dealer-lines li").all_inner_texts()
        assert said == [" ".join(results[0].split())]
        assert not vic.is_visible("#dealer-empty")
        # The arrow keys move between the tabs, as a tab list's do.
        vic.focus("#chat-tab-dealer")
        vic.keyboard.press("ArrowLeft")
        assert vic.is_visible("#chat-pane-chat")
