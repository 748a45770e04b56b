"""Hostile chat text: carried as the raw text in JSON frames, escaped in every fragment of the
page socket and on the rendered table page, never run as a template or a format string."""

from __future__ import annotations

import html
import json
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db.models import F
from django.test import Client as WebClient
from django.urls import reverse

from cardroom.models import ChatLine, Table
from tests.cardroom.chat.talk import api, heard, of_type, page, page_until, player, say, sit

pytestmark = [pytest.mark.django_db(transaction=True)]

HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "{{ user.password }} {% debug %}",
    "%(x)s %s {0} {name}",
    "right-to-left \u200f mark ' & \\",
    "W" * 200,  # one very long word
]
#: What must never appear unescaped in any HTML the page gets.
RAW = ["<script>alert(1)", "<img src=x", 'onerror=alert(1)>"', '"><img']


@pytest.fixture
def table(db):
    from cardroom.tables.runtime import table_create

    return table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Chat table"
    )


async def test_hostile_lines_are_raw_in_json_and_escaped_in_html(table: Table):
    ann, ben, cat = [await player(n) for n in ("ann", "ben", "cat")]
    await sit(table, ann)
    await sit(table, ben)
    ann_socket, ben_socket = await api(table, ann), await api(table, ben)
    cat_page = await page(table, cat)
    for text in HOSTILE:
        line = await say(ann_socket, text)
        assert line["type"] == "chat", line
        # Aged past the rate's window, so six lines in a row are let through.
        await ChatLine.objects.all().aupdate(at=F("at") - timedelta(seconds=11))
    await heard(ben_socket, HOSTILE[-1])
    await page_until(cat_page, HOSTILE[-1])
    # JSON: the raw text as a JSON string, exactly as said.
    assert [frame["text"] for frame in of_type(ben_socket, "chat")] == HOSTILE
    for frame in ben_socket.frames:
        assert json.loads(json.dumps(frame)) == frame
    # HTML: each line escaped, nothing raw in any fragment.
    fragments = "".join(cat_page.frames)
    for text in HOSTILE:
        assert f'<bdi class="chat-text">{html.escape(text)}</bdi>' in fragments
    for frame in cat_page.frames:
        for raw in RAW:
            assert raw not in frame
    assert "{% debug %}" in fragments  # shown as text, not run as a tag

    # The table page drawn afterwards shows the stored lines escaped, in the chat panel.
    client = WebClient()
    await sync_to_async(client.force_login)(cat)
    response = await sync_to_async(client.get)(reverse("table", args=[table.pk]))
    body = response.content.decode()
    assert 'id="chat-lines"' in body
    for text in HOSTILE:
        assert f'<bdi class="chat-text">{html.escape(text)}</bdi>' in body
    for raw in RAW:
        assert raw not in body
    await ann_socket.close()
    await ben_socket.close()


async def test_direction_overrides_and_control_characters_are_refused_everywhere(table: Table):
    ann, ben = await player("ann"), await player("ben")
    await sit(table, ann)
    ann_page, ben_socket = await page(table, ann), await api(table, ben)
    for text in ("evil \u202egnp.exe", "isolate \u2066x\u2069", "esc\x1b[31m", "bell\x07"):
        await ann_page.submit(type="chat", text=text)
        assert "control characters" in ann_page.frames[-1]
        assert 'id="chat-notice"' in ann_page.frames[-1]
    # A NUL is refused before the chat reads the frame: no database column takes it.
    await ann_page.submit(type="chat", text="nul\x00")
    assert "NUL" in ann_page.frames[-1]
    assert not await ChatLine.objects.aexists()
    # A good line from the page clears the chat's notice and reaches the other socket.
    await ann_page.submit(type="chat", text="fine now")
    await heard(ben_socket, "fine now")
    assert [f["text"] for f in of_type(ben_socket, "chat")] == ["fine now"]
    assert '<p class="chat-notice" id="chat-notice" role="alert" hx-swap-oob="true"></p>' in (
        "".join(ann_page.frames)
    )
    await ben_socket.close()
