"""The console's chat log: operators only, filters, pages, and room-wide mutes in the log."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from cardroom.models import ChatBan, ChatLine, OperatorAction, OperatorActionKind
from cardroom.operators.log_words import action_words
from cardroom.tables.runtime import table_create
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)

pytestmark = pytest.mark.django_db

LOG = reverse("operators-chat")


@pytest.fixture
def lines(make_player):
    """Two tables; ann says three lines at the first, ben two at the second."""
    first = table_create(game="guts", preset="survivor", options={"ante": 100}, name="First")
    second = table_create(game="guts", preset="survivor", options={"ante": 100}, name="Second")
    ann, ben = make_player("ann"), make_player("ben")
    ben.display_name = "Big Ben"
    ben.save(update_fields=["display_name"])
    start = timezone.now() - timedelta(minutes=5)
    said = [(first, ann, "ann"), (first, ann, "ann"), (first, ann, "ann")]
    said += [(second, ben, "Big Ben"), (second, ben, "Big Ben")]
    for number, (table, user, name) in enumerate(said):
        ChatLine.objects.create(
            table=table, user=user, name=name, text=f"line {number} <b>", at=start + timedelta(
                seconds=number
            )
        )  # fmt: skip
    return {"first": first, "second": second, "ann": ann, "ben": ben}


def texts(response) -> list[str]:
    body = response.content.decode()
    return [
        html.unescape(part.split("</bdi>")[0]) for part in body.split('<bdi class="chat-text">')[1:]
    ]


def test_only_operators_read_the_chat_log(as_user, operator, player, auditor, lines):
    assert as_user(None).get(LOG).status_code == 302  # to the login page
    assert as_user(player).get(LOG).status_code == 403
    assert as_user(auditor).get(LOG).status_code == 403
    for url in (
        reverse("operators-chat-mute", args=[lines["ann"].pk]),
        reverse("operators-chat-unmute", args=[lines["ann"].pk]),
    ):
        assert as_user(player).post(url, {"hours": "24", "reason": "x"}).status_code == 403
    assert not ChatBan.objects.exists()
    response = as_user(operator).get(LOG)
    assert response.status_code == 200
    assert texts(response) == [f"line {n} <b>" for n in (4, 3, 2, 1, 0)]  # newest first
    assert "line 4 &lt;b&gt;" in response.content.decode()


def test_the_console_nav_links_the_chat_log(as_user, operator):
    body = as_user(operator).get(reverse("operators")).content.decode()
    assert f'href="{LOG}"' in body


def test_the_log_filters_by_table_and_by_player(as_user, operator, lines):
    client = as_user(operator)
    by_table = client.get(LOG, {"table": lines["second"].pk})
    assert texts(by_table) == ["line 4 <b>", "line 3 <b>"]
    for name in ("Big Ben", "ben", "BIG BEN"):
        assert texts(client.get(LOG, {"player": name})) == ["line 4 <b>", "line 3 <b>"]
    both = client.get(LOG, {"player": "ann", "table": lines["second"].pk})
    assert texts(both) == []
    assert texts(client.get(LOG, {"table": "nonsense"})) == texts(client.get(LOG))


def test_the_log_comes_a_page_at_a_time(as_user, operator, lines):
    table, ann = lines["first"], lines["ann"]
    now = timezone.now()
    ChatLine.objects.bulk_create(
        ChatLine(table=table, user=ann, name="ann", text=f"more {n}", at=now + timedelta(seconds=n))
        for n in range(60)
    )
    client = as_user(operator)
    first = texts(client.get(LOG))
    assert len(first) == 50
    assert first[0] == "more 59"
    second = texts(client.get(LOG, {"page": 2}))
    assert len(second) == 15
    assert second[-1] == "line 0 <b>"


def test_a_room_wide_mute_and_its_lifting_are_logged(as_user, operator, lines):
    client = as_user(operator)
    ann = lines["ann"]
    page = client.get(LOG, {"player": "ann"}).content.decode()
    assert reverse("operators-chat-mute", args=[ann.pk]) in page
    back = f"{LOG}?player=ann"
    response = client.post(
        reverse("operators-chat-mute", args=[ann.pk]),
        {"hours": "24", "reason": "insults", "next": back},
    )
    assert response.status_code == 302
    assert response["Location"] == back
    ban = ChatBan.objects.get(user=ann)
    assert ban.in_force(timezone.now())
    assert ban.by == operator
    assert timedelta(hours=23) < ban.until - timezone.now() <= timedelta(hours=24)
    logged = OperatorAction.objects.get(kind=OperatorActionKind.CHAT_BAN)
    assert logged.actor == operator
    assert logged.reason == "insults"
    assert "ann's chat muted at every table until" in action_words(logged)
    page = client.get(back).content.decode()
    assert reverse("operators-chat-unmute", args=[ann.pk]) in page
    assert "insults" in page

    # A mute without a reason, or for a length not offered, changes nothing.
    client.post(reverse("operators-chat-mute", args=[ann.pk]), {"hours": "5", "reason": "x"})
    client.post(reverse("operators-chat-unmute", args=[ann.pk]), {"reason": ""})
    assert ChatBan.objects.count() == 1
    assert ChatBan.objects.get().lifted is None

    client.post(reverse("operators-chat-unmute", args=[ann.pk]), {"reason": "apologised"})
    ban.refresh_from_db()
    assert ban.lifted is not None
    assert ban.lifted_by == operator
    lifted = OperatorAction.objects.get(kind=OperatorActionKind.CHAT_UNBAN)
    assert lifted.reason == "apologised"
    assert action_words(lifted) == "ann may chat again"
    # Lifting again: refused, not logged twice.
    client.post(reverse("operators-chat-unmute", args=[ann.pk]), {"reason": "again"})
    assert OperatorAction.objects.filter(kind=OperatorActionKind.CHAT_UNBAN).count() == 1


def test_an_offsite_next_goes_back_to_the_log(as_user, operator, lines):
    response = as_user(operator).post(
        reverse("operators-chat-mute", args=[lines["ann"].pk]),
        {"hours": "1", "reason": "spam", "next": "https://evil.example/"},
    )
    assert response["Location"] == LOG
