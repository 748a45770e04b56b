"""What a seasoned player expects of the table page, clicked in Chromium: an error notice goes
away once an action succeeds, and leaving with a hand in play asks first, says that the player
leaves after the hand, and says so until it ends."""

from __future__ import annotations

import pytest

from accounts.services import user_create
from cardroom.models import Seat
from cardroom.tables.runtime import table_create
from tests.e2e.players import PASSWORD, WAIT_MS, enter_table
from tests.live import live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLE = "E2E Manners"


def test_the_notice_clears_and_leaving_mid_hand_asks_first(browser):
    table = table_create(
        game="guts",
        preset="survivor",
        options={"ante": 100, "seats": 6, "decision_seconds": 30, "ante_seconds": 30},
        name=TABLE,
    )
    for name in ("ann", "ben"):
        user_create(username=name, password=PASSWORD)
    with live_server("e2e-manners") as url:
        ann, ben = (enter_table(browser, url, name, TABLE) for name in ("ann", "ben"))
        sent: list[str] = []
        ann.page.on(
            "websocket",
            lambda socket: socket.on("framesent", lambda payload: sent.append(str(payload))),
        )
        # The socket opened before the listener: reload, so the new one is recorded.
        ann.page.reload()
        ann.page.wait_for_selector("#connection.ok", timeout=WAIT_MS)

        # A refused buy-in shows a notice; the next applied action clears it.
        ann.page.fill("#amount-sit", "1")
        ann.page.click("form.action-sit button")
        refused = "#notice:has-text('the least you may sit down with')"
        ann.page.wait_for_selector(refused, timeout=WAIT_MS)
        ann.page.fill("#amount-sit", "100")
        ann.page.click("form.action-sit button")
        ann.page.wait_for_selector("#seats li.seat.you", timeout=WAIT_MS)
        ann.page.wait_for_function(
            "document.getElementById('notice').textContent.trim() === ''", timeout=WAIT_MS
        )

        ben.page.click("form.action-sit button")
        for player in (ann, ben):
            player.page.wait_for_selector("form.action-ante button", timeout=WAIT_MS * 2)
            player.page.keyboard.press("a")
        ann.page.wait_for_selector("form.action-declare button", timeout=WAIT_MS)

        # Leave with three cards in hand: asked; "no" sends nothing and keeps the seat.
        questions: list[str] = []

        def answer(dialog, accept: bool) -> None:
            questions.append(dialog.message)
            dialog.accept() if accept else dialog.dismiss()

        # The button says the leave waits for the hand's end; its question, what becomes of
        # the hand (ann has not declared: she is Out at once).
        assert ann.page.inner_text("form.action-leave button") == "Leave after this hand"
        ann.page.once("dialog", lambda dialog: answer(dialog, False))
        before = len(sent)
        ann.page.click("form.action-leave button")
        ann.page.wait_for_function("true")  # let the dialog's answer run
        assert questions == [
            "Leave the table? You are Out of this hand at once, and you leave with your stack"
            " when it ends."
        ]
        assert sent, "the page's frames are recorded"
        assert not any('"leave"' in frame for frame in sent[before:])
        assert Seat.objects.filter(table=table, user__username="ann", left__isnull=True).exists()

        # "Yes" leaves.
        ann.page.once("dialog", lambda dialog: answer(dialog, True))
        ann.page.click("form.action-leave button")
        ann.page.wait_for_selector(
            "#actions .leaving-note:has-text('You will leave after this hand.')", timeout=WAIT_MS
        )
        assert len(questions) == 2
        assert any('"leave"' in frame for frame in sent[before:])
        assert not ann.page.locator("form.action-leave").count()
        # Until the hand ends: then she stands up, and the note goes with the seat.
        ben.page.click("form.action-declare button:has-text('In')")
        ann.page.wait_for_selector("form.action-sit button", timeout=WAIT_MS)
        assert not ann.page.locator("#actions .leaving-note").count()
