"""The table chat over the JSON socket (docs/protocol.md, "Table chat"): who may write, the
limits, mutes, room-wide mutes, the history on connect; every frame each socket got is read."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from cardroom.chat import HISTORY_LINES, RATE_LINES
from cardroom.models import ChatBan, ChatLine, ChatMute, Table
from cardroom.realtime.chat_socket import ChatSocket
from tests.cardroom.chat.talk import api, heard, of_type, player, say, sit

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def table(db):
    from cardroom.tables.runtime import table_create

    return table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Chat table"
    )


async def test_two_players_and_a_spectator_read_each_others_lines(table: Table):
    ann, ben, cat = [await player(n) for n in ("ann", "ben", "cat")]
    await sit(table, ann)
    await sit(table, ben)
    ann_socket, ben_socket, cat_socket = [await api(table, u) for u in (ann, ben, cat)]

    said = await say(ann_socket, "  good luck all  ", id="c1")
    assert said["type"] == "chat"
    await heard(ben_socket, "good luck all")
    await heard(cat_socket, "good luck all")
    for socket in (ann_socket, ben_socket, cat_socket):
        (line,) = of_type(socket, "chat")
        assert line["from"] == "ann"
        assert line["text"] == "good luck all"  # trimmed
        moment = datetime.fromisoformat(line["at"])
        assert moment.utcoffset() == timedelta(0)
        assert "user_id" not in line
    await say(ben_socket, "thanks")
    await heard(ann_socket, "thanks")
    assert [f["text"] for f in of_type(ann_socket, "chat")] == ["good luck all", "thanks"]
    stored = await sync_to_async(list)(ChatLine.objects.order_by("at").values("name", "text"))
    assert stored == [{"name": "ann", "text": "good luck all"}, {"name": "ben", "text": "thanks"}]
    for socket in (ann_socket, ben_socket, cat_socket):
        await socket.close()


async def test_the_name_said_is_the_display_name_and_the_hand_in_play_is_kept(table: Table):
    ann = await player("ann", display_name="Lucky Ann")
    await sit(table, ann)
    socket = await api(table, ann)
    line = await say(socket, "hello")
    assert line["from"] == "Lucky Ann"
    stored = await ChatLine.objects.aget(pk=line["id"])
    await table.arefresh_from_db()
    assert stored.name == "Lucky Ann"
    assert stored.hand_id == table.open_hand_id
    await socket.close()


async def test_a_spectator_is_refused_in_words_and_nothing_is_stored(table: Table):
    ann, cat = await player("ann"), await player("cat")
    await sit(table, ann)
    ann_socket, cat_socket = await api(table, ann), await api(table, cat)
    refusal = await say(cat_socket, "let me in", id=7)
    assert refusal["type"] == "error"
    assert refusal["code"] == "refused"
    assert refusal["id"] == 7
    assert "seated" in refusal["message"]
    await sit(table, cat)  # seated now: cat's next line is the first anyone reads
    await say(cat_socket, "seated now")
    await heard(ann_socket, "seated now")
    assert [f["text"] for f in of_type(ann_socket, "chat")] == ["seated now"]
    assert await ChatLine.objects.acount() == 1
    await ann_socket.close()
    await cat_socket.close()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "empty"),
        ("   \t  ", "empty"),
        ("x" * 201, "at most 200 characters"),
        ("two\nlines", "control characters"),
        ("bell\x07", "control characters"),
        ("turned \u202eedacba", "control characters"),
        (12, "string"),
        (None, "string"),
    ],
)
async def test_bad_lines_are_refused_with_bad_chat(table: Table, text, words):
    ann, ben = await player("ann"), await player("ben")
    await sit(table, ann)
    ann_socket, ben_socket = await api(table, ann), await api(table, ben)
    refusal = await say(ann_socket, text)
    assert refusal["type"] == "error"
    assert refusal["code"] == "bad_chat"
    assert words in refusal["message"]
    assert not await ChatLine.objects.aexists()
    await say(ann_socket, "a good one")
    await heard(ben_socket, "a good one")
    assert [f["text"] for f in of_type(ben_socket, "chat")] == ["a good one"]
    await ann_socket.close()
    await ben_socket.close()


async def test_two_hundred_characters_are_enough(table: Table):
    ann = await player("ann")
    await sit(table, ann)
    socket = await api(table, ann)
    line = await say(socket, "é" * 200)
    assert line["type"] == "chat"
    assert line["text"] == "é" * 200
    await socket.close()


async def test_lines_beyond_the_rate_are_refused_saying_when_to_try_again(table: Table):
    ann = await player("ann")
    await sit(table, ann)
    socket = await api(table, ann)
    for number in range(RATE_LINES):
        assert (await say(socket, f"line {number}"))["type"] == "chat"
    refusal = await say(socket, "one too many")
    assert refusal["code"] == "rate_limited"
    assert "try again in" in refusal["message"]
    assert await ChatLine.objects.acount() == RATE_LINES
    # Ten seconds on (the lines' times moved back), the player may speak again.
    earlier = timezone.now() - timedelta(seconds=11)
    await ChatLine.objects.all().aupdate(at=earlier)
    assert (await say(socket, "back again"))["type"] == "chat"
    await socket.close()


async def test_a_mute_hides_the_muted_players_lines_from_the_muter_only(table: Table):
    ann, ben, cat = [await player(n) for n in ("ann", "ben", "cat")]
    await sit(table, ann)
    await sit(table, ben)
    await say(ann_socket := await api(table, ann), "before the mute")
    ben_socket, cat_socket = await api(table, ben), await api(table, cat)

    await cat_socket.send({"type": "chat_mute", "player": "ANN"})  # names match in any case
    history = None
    while history is None:
        frame = await cat_socket.receive()
        if frame["type"] == "chat_history":
            history = frame
    assert history["lines"] == []  # the muted player's lines are hidden in the history too
    assert history["muted"] == ["ann"]
    assert await ChatMute.objects.filter(muter=cat, muted=ann).aexists()

    await say(ann_socket, "after the mute")
    await heard(ben_socket, "after the mute")
    await say(ben_socket, "ben speaks")  # said after Ann's line, so it comes after it
    await heard(cat_socket, "ben speaks")
    cat_read = [f["text"] for f in of_type(cat_socket, "chat")]
    assert cat_read == ["ben speaks"]

    # A new socket of the muter's reads the mute too.
    second = await api(table, cat)
    (opening,) = of_type(second, "chat_history")
    assert [line["text"] for line in opening["lines"]] == ["ben speaks"]

    histories = {socket: len(of_type(socket, "chat_history")) for socket in (cat_socket, second)}
    await cat_socket.send({"type": "chat_unmute", "player": "ann"})
    for socket, before in histories.items():  # each reads its mutes again: a fresh history
        while len(of_type(socket, "chat_history")) == before:
            await socket.receive()
    await say(ann_socket, "heard again")
    await heard(cat_socket, "heard again")
    await heard(second, "heard again")
    assert [f["text"] for f in of_type(cat_socket, "chat")][-1] == "heard again"
    assert [f["text"] for f in of_type(second, "chat")] == ["heard again"]
    for socket in (ann_socket, ben_socket, cat_socket, second):
        await socket.close()


async def test_the_socket_that_mutes_judges_the_next_line_by_the_change_at_once(
    table: Table, monkeypatch
):
    """A JSON socket's lines reach it through its process's hub, the news of a mute through
    its own channel; the socket that made the change must not depend on that news."""
    ann, ben = [await player(n) for n in ("ann", "ben")]
    await sit(table, ann)
    await sit(table, ben)
    ann_socket, ben_socket = await api(table, ann), await api(table, ben)

    async def news_lost(self, event) -> None:
        pass

    monkeypatch.setattr(ChatSocket, "chat_mutes", news_lost)
    await ben_socket.send({"type": "chat_mute", "player": "ann"})
    await say(ben_socket, "muted")  # a socket takes its messages one at a time: the mute is done
    await say(ann_socket, "unread")
    # The hub hands each line to the table's sockets in turn, in order: once Ben reads his
    # next line, Ann's was judged for him.
    await ben_socket.send({"type": "chat", "text": "still muted"})
    await heard(ben_socket, "still muted")
    await ben_socket.send({"type": "chat_unmute", "player": "ann"})
    await say(ben_socket, "unmuted")
    await say(ann_socket, "read")
    await heard(ben_socket, "read")
    read = [frame["text"] for frame in of_type(ben_socket, "chat")]
    assert read == ["muted", "still muted", "unmuted", "read"]
    for socket in (ann_socket, ben_socket):
        await socket.close()


async def test_muting_nobody_or_oneself_is_refused(table: Table):
    ann = await player("ann")
    socket = await api(table, ann)
    for name, words in (("nobody", "no player"), ("ann", "yourself"), (None, "no player")):
        await socket.send({"type": "chat_mute", "player": name})
        frame = await socket.receive()
        assert frame["type"] == "error"
        assert frame["code"] == "refused"
        assert words in frame["message"]
    assert not await ChatMute.objects.aexists()
    await socket.close()


async def test_a_room_wide_mute_refuses_saying_until_when(table: Table):
    ann, boss = await player("ann"), await player("boss")
    await sit(table, ann)
    until = timezone.now() + timedelta(hours=2)
    await ChatBan.objects.acreate(user=ann, until=until, reason="abuse", by=boss)
    socket = await api(table, ann)
    refusal = await say(socket, "hello")
    assert refusal["code"] == "refused"
    assert f"{until:%Y-%m-%d %H:%M} UTC" in refusal["message"]
    assert not await ChatLine.objects.aexists()
    await ChatBan.objects.all().aupdate(lifted=timezone.now())
    assert (await say(socket, "hello again"))["type"] == "chat"
    await socket.close()


async def test_the_recent_lines_come_after_the_state_on_connect(table: Table):
    ann = await player("ann")
    await sit(table, ann)
    now = timezone.now()
    await ChatLine.objects.abulk_create(
        ChatLine(table=table, user=ann, name="ann", text=f"line {n}", at=now + timedelta(seconds=n))
        for n in range(HISTORY_LINES + 5)
    )
    socket = await api(table, ann)
    kinds = [frame["type"] for frame in socket.frames]
    assert kinds[:2] == ["state", "chat_history"]
    lines = socket.frames[1]["lines"]
    assert len(lines) == HISTORY_LINES
    assert lines[0]["text"] == "line 5"  # the latest fifty, oldest first
    assert lines[-1]["text"] == f"line {HISTORY_LINES + 4}"
    assert set(lines[0]) >= {"type", "id", "from", "text", "at"}
    await socket.close()
