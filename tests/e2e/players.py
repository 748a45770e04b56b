"""What the per-game browser tests share: a player who logs in, walks through the lobby to a
table and records every frame the table's socket pushes, and the checks run on those frames.

A card reaches a page only as a drawn face (``data-card="Ah"``) or inside a form's hidden row
fields (``value="As Ah 2h"``), so those two are what the frame check reads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from io import StringIO
from typing import Any

from django.core.management import call_command

from cardroom.models import Hand
from games.cards import CardError, parse_card
from games.events import event_cards
from tests.conftest import totp_code

PASSWORD = "e2e-passphrase-1"
#: A phone-sized viewport: every page must be usable on it.
PHONE = {"width": 420, "height": 900}
#: How long a step may wait for the server (a push, the clock): generous for a loaded machine,
#: and only ever a ceiling, never a sleep.
WAIT_MS = 15_000

_DRAWN = re.compile(r'data-card="([^"]*)"')
_FIELDS = re.compile(r'value="([^"]*)"')


def cards_shown(html: str) -> set[str]:
    """Every card a fragment of the page draws or carries in a form field."""
    found = set(_DRAWN.findall(html))
    for text in _FIELDS.findall(html):
        for token in text.split():
            try:
                found.add(str(parse_card(token)))
            except CardError:
                continue
    return found


@dataclass
class Player:
    """One person at the table: their page and the frames its socket received, in order."""

    name: str
    page: Any
    frames: list[str] = field(default_factory=list)

    def frames_before(self, marker: str) -> list[str]:
        """The frames received before the first one that contains ``marker``."""
        for index, frame in enumerate(self.frames):
            if marker in frame:
                return self.frames[:index]
        raise AssertionError(f"{self.name} never received a frame with {marker!r}")


def enter_table(browser: Any, url: str, name: str, table_name: str, **context: Any) -> Player:
    """Log in through the form, open the lobby, follow the table's link, wait for the socket.
    ``context``: Playwright's browser context options (such as ``reduced_motion``)."""
    page = browser.new_context(**{"viewport": PHONE, **context}).new_page()
    player = Player(name=name, page=page)

    def listen(socket: Any) -> None:
        if "/ws/tables/" in socket.url:
            socket.on("framereceived", lambda payload: player.frames.append(str(payload)))

    page.on("websocket", listen)
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", name)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(lambda address: "/accounts/login/" not in address, timeout=WAIT_MS)
    page.goto(f"{url}/lobby/")
    page.click(f"text={table_name}")
    page.wait_for_selector("#connection.ok", timeout=WAIT_MS)
    return player


def sit(player: Player) -> None:
    """Sit down with the buy-in the form offers, and wait until the seat is on the page."""
    player.page.click("form.action-sit button")
    player.page.wait_for_selector(f"#seats li.seat.you >> text={player.name}", timeout=WAIT_MS)


def log_payments(hand: Hand) -> str:
    """The payments a hand's line of the log says after who won (English), as the browser's
    text has them: the ledger's transfers of the hand in the log's phrases."""
    from cardroom.presentation.payment_words import payments_said
    from cardroom.storage.payments import hand_payments

    said = payments_said(hand_payments(hand))
    return " · ".join(phrase["text"] for phrase in said if phrase["kind"] != "pot_win")


def hand_events(hand: Hand) -> list[dict[str, Any]]:
    """A hand's events, in order, each as ``{"type", "data", "private_to"}``."""
    return [
        {"type": event.type, "data": event.data, "private_to": event.private_to}
        for event in hand.events.order_by("seq")
    ]


def private_cards(hand: Hand) -> dict[int, set[str]]:
    """The cards of each private event of a hand, by who may read it (-1: nobody yet)."""
    owners: dict[int, set[str]] = {}
    for event in hand.events.exclude(private_to__isnull=True):
        # Only the events' card fields hold cards: no name or other text is taken for one.
        owners.setdefault(event.private_to, set()).update(event_cards(event.data))
    return owners


def assert_no_foreign_cards(player: Player, seat: int, hand: Hand, marker: str) -> int:
    """No frame this player received before ``marker`` (the hand's end) drew a card of
    another seat or a card nobody may see yet; returns how many frames were checked."""
    owners = private_cards(hand)
    own = owners.get(seat, set())
    foreign = set().union(*(cards for owner, cards in owners.items() if owner != seat)) - own
    assert foreign, "the hand dealt nobody else a private card: nothing to check"
    checked = player.frames_before(marker)
    assert checked, f"{player.name} received no frame before the hand's end"
    for frame in checked:
        leaked = cards_shown(frame) & foreign
        assert not leaked, f"{player.name} was sent {sorted(leaked)} before the hand's end"
    return len(checked)


def assert_ledger_balances() -> None:
    """``audit_ledger`` recomputes every balance and finds nothing wrong."""
    out = StringIO()
    call_command("audit_ledger", stdout=out)
    assert "mismatches: 0" in out.getvalue()
    assert "ledger OK" in out.getvalue()


def operator_page(
    browser: Any, url: str, device: Any, viewport: dict[str, int] | None = None
) -> Any:
    """A page logged in as the operator ``olga`` (password PASSWORD), past the console's
    second factor with ``device``'s code (staff give it before the console opens)."""
    page = browser.new_context(viewport=viewport or {"width": 1280, "height": 900}).new_page()
    page.goto(f"{url}/accounts/login/")
    page.fill("input[name=username]", "olga")
    page.fill("input[name=password]", PASSWORD)
    page.click("main form button[type=submit]")
    page.wait_for_url(lambda address: "/accounts/login/" not in address, timeout=WAIT_MS)
    page.goto(f"{url}/operators/")
    page.fill("input[name=code]", totp_code(device))
    page.click("form.two-factor-code button[type=submit]")
    page.wait_for_url(lambda address: "/two-factor/" not in address, timeout=WAIT_MS)
    return page
