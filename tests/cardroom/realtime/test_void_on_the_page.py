"""A hand the house voids is said on the table page over its socket: the result banner says
the hand was voided and the stakes returned, with what came back to this player."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from accounts.services import user_create
from cardroom.models import Table
from cardroom.realtime.auth import token_create
from cardroom.tables.control import hand_void
from tests.cardroom.sockets import Page, advance

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(db):
    from cardroom.tables.runtime import table_create

    return table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Void table"
    )


async def test_a_void_pushes_a_banner_with_the_stake_returned(table: Table):
    pages = []
    for name in ("ann", "ben"):
        user = await sync_to_async(user_create)(username=name)
        page = Page(table.pk, await sync_to_async(token_create)(user=user))
        await page.open()
        await page.submit(kind="sit", buy_in="200")
        pages.append(page)
    await advance(table)
    for page in pages:
        await page.settle(table)
    ann, ben = pages
    await ann.submit(kind="ante")  # ben has not anted: nothing of his comes back
    await ann.settle(table)
    ann.frames.clear()
    ben.frames.clear()
    await sync_to_async(hand_void)(table_id=table.pk, reason="misdeal")
    for page in pages:
        await page.settle(table)
    said = "The house voided hand #1 and returned every stake"
    ann_banner = [frame for frame in ann.frames if 'class="result-banner void"' in frame]
    assert ann_banner and f"{said}: $1.00 back to you." in ann_banner[-1]
    ben_banner = [frame for frame in ben.frames if 'class="result-banner void"' in frame]
    assert ben_banner and f"{said}." in ben_banner[-1] and "back to you" not in ben_banner[-1]
    for page in pages:
        await page.communicator.disconnect()
