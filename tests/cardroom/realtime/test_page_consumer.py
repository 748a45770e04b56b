"""The table page's socket: htmx forms in, out-of-band fragments back, no hidden card in any."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async

from accounts.services import user_create
from cardroom.models import HandEvent, Seat, Table
from cardroom.realtime.auth import token_create
from tests.cardroom.sockets import Page, advance

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(db):
    from cardroom.tables.runtime import table_create

    return table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Page table"
    )


async def test_a_hand_played_on_the_page_shows_nobody_a_hidden_card(table: Table):
    pages, users = [], []
    for name in ("ann", "ben", "cat"):
        user = await sync_to_async(user_create)(username=name)
        page = Page(table.pk, await sync_to_async(token_create)(user=user))
        await page.open()
        pages.append(page)
        users.append(user)
    assert all('hx-swap-oob="true"' in page.frames[0] for page in pages)
    for page in pages:
        await page.submit(kind="sit", buy_in="200")  # dollars, as the form sends them
    await advance(table)
    for page in pages:
        await page.settle(table)
        await page.submit(kind="ante")
    for page in pages:
        await page.settle(table)
    dealt = {
        event.private_to: set(event.data["cards"])
        async for event in HandEvent.objects.filter(table=table, type="cards_dealt")
    }
    # Seats are given in the order the sits arrive: read each page's seat, don't assume it.
    seat_of = [
        (await Seat.objects.aget(table=table, user=user, left__isnull=True)).number
        for user in users
    ]
    hands = [dealt[seat] for seat in seat_of]
    for page, hand in zip(pages, hands, strict=True):  # before the reveal: one's own cards
        assert page.cards_seen() == hand
    await pages[0].submit(kind="declare", choice="in")
    await pages[1].submit(kind="declare", choice="in")
    await pages[2].submit(kind="declare", choice="out")
    for page in pages:
        await page.settle(table)
    shown = hands[0] | hands[1]
    assert pages[0].cards_seen() == shown
    assert pages[1].cards_seen() == shown
    assert pages[2].cards_seen() == shown | hands[2]
    for page in pages:
        await page.communicator.disconnect()


async def test_a_bad_amount_on_the_page_gets_a_notice_and_changes_nothing(table: Table):
    user = await sync_to_async(user_create)(username="ann")
    page = Page(table.pk, await sync_to_async(token_create)(user=user))
    await page.open()
    await page.submit(kind="sit", buy_in="12.345")
    assert "at most two decimals" in page.frames[-1]
    await table.arefresh_from_db()
    assert table.version == 0
    await page.communicator.disconnect()


async def test_an_applied_action_clears_the_notice_once(table: Table):
    user = await sync_to_async(user_create)(username="ann")
    page = Page(table.pk, await sync_to_async(token_create)(user=user))
    await page.open()
    await page.submit(kind="sit", buy_in="12.345")
    assert "at most two decimals" in page.frames[-1]

    page.frames.clear()
    await page.submit(kind="sit", buy_in="100")
    cleared = [frame for frame in page.frames if 'id="notice"' in frame]
    assert len(cleared) == 1
    assert re.search(r'<div id="notice"[^>]*hx-swap-oob="true"></div>', cleared[0])

    page.frames.clear()
    await page.submit(kind="sit_out")
    assert not [frame for frame in page.frames if 'id="notice"' in frame]
    await page.communicator.disconnect()
