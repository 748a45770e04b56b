"""The chat on the page socket: lines appended to the panel, Mute beside others' names only,
a mute redrawing the panel without the muted player's lines, and the page drawn with them."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client as WebClient
from django.urls import reverse

from cardroom.models import ChatMute, Table
from tests.cardroom.chat.talk import page, page_until, player, sit

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(db):
    from cardroom.tables.runtime import table_create

    return table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Chat table"
    )


async def test_a_mute_on_the_page_redraws_the_panel_without_the_muted_lines(table: Table):
    ann, ben = await player("ann"), await player("ben")
    await sit(table, ann)
    await sit(table, ben)
    ann_page, ben_page = await page(table, ann), await page(table, ben)
    await ann_page.submit(type="chat", text="hello ben")
    own = await page_until(ann_page, "hello ben")
    seen = await page_until(ben_page, "hello ben")
    assert 'hx-swap-oob="beforeend:#chat-lines"' in seen
    assert 'value="chat_mute"' not in own  # nobody mutes themselves
    assert 'value="chat_mute"' in seen
    assert 'name="player" value="ann"' in seen

    await ben_page.submit(type="chat_mute", player="ann")
    assert await ChatMute.objects.filter(muter=ben, muted=ann).aexists()
    redrawn = await page_until(ben_page, 'value="chat_unmute"')
    assert 'id="chat-lines"' in redrawn
    assert "hello ben" not in redrawn
    assert 'value="chat_unmute"' in redrawn
    await ann_page.submit(type="chat", text="still there?")
    await page_until(ann_page, "still there?")
    await ben_page.submit(type="chat", text="ben speaks now")  # after Ann's, in order
    await page_until(ben_page, "ben speaks now")
    assert not any("still there?" in frame for frame in ben_page.frames)

    # The page drawn again leaves the muted player's lines out too.
    client = WebClient()
    await sync_to_async(client.force_login)(ben)
    body = (await sync_to_async(client.get)(reverse("table", args=[table.pk]))).content.decode()
    assert 'id="chat-lines"' in body
    assert "still there?" not in body
    assert "hello ben" not in body
    assert 'value="chat_unmute"' in body

    ben_page.frames.clear()
    await ben_page.submit(type="chat_unmute", player="ann")
    assert 'id="chat-lines"' in await page_until(ben_page, "still there?")
