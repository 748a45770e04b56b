"""Hand export: JSON lines and text, a player's own hands as they saw them, an auditor's period
with everything; streamed. Whatever is played, a player's export names no card their hand page
does not (the property at the end)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from io import StringIO
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.core.management import CommandError, call_command
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from cardroom.history.export import (
    SCHEMA,
    Period,
    hand_records,
    hand_text,
    hands_between,
    player_hands,
)
from cardroom.history.history import hand_history
from cardroom.models import Hand
from tests.cardroom.history.hands import HANDS, VARIANTS, played, survivor_hand
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)
from tests.cardroom.plays import PROPERTY, TABLES, Play, named_cards, play_and_check

pytestmark = pytest.mark.django_db

EVERYTHING = Period.parse("2000-01-01", "2999-12-31")
CAT_MUCKED = set(HANDS["cat"].split())


@pytest.fixture
def hand(monkeypatch, survivor_table, seated) -> Hand:
    return survivor_hand(monkeypatch, survivor_table, seated)


def lines(response) -> list[dict[str, Any]]:
    return [json.loads(line) for line in b"".join(response.streaming_content).decode().splitlines()]


def test_a_period_is_days_or_times_in_utc():
    day = Period.parse("2026-12-01", "2026-12-01")
    assert day.start == datetime(2026, 12, 1, tzinfo=UTC)
    assert day.end == datetime(2026, 12, 2, tzinfo=UTC)  # the last day included
    times = Period.parse("2026-12-01T10:00", "2026-12-01T12:30:00+01:00")
    assert times.end == datetime(2026, 12, 1, 11, 30, tzinfo=UTC)
    with pytest.raises(ValueError, match="is not a date: write YYYY-MM-DD"):
        Period.parse("yesterday", "2026-12-01")
    with pytest.raises(ValueError, match="ends"):
        Period.parse("2026-12-02", "2026-12-01")


def test_a_player_exports_their_hands_as_they_saw_them(client, hand, seated):
    ann = seated[0]
    client.force_login(ann)
    response = client.get(reverse("my-hands-download") + "?format=jsonl")
    assert response.streaming
    assert response["Content-Type"].startswith("application/x-ndjson")
    assert 'filename="my-hands.jsonl"' in response["Content-Disposition"]
    (record,) = lines(response)
    assert record["schema"] == SCHEMA
    assert record["id"] == f"{hand.table_id}-1"
    assert record["viewer"] == {"audit": False, "user": "ann"}
    assert "deck" not in record and "transfers" not in record
    seats = {seat["player"]: seat for seat in record["seats"]}
    assert seats["ann"] == {"seat": 0, "player": "ann", "start": 20_000, "end": 19_600,
                            "net": -400, "you": True}  # fmt: skip
    assert seats["ben"]["net"] == 191 and seats["cat"]["net"] == -100
    assert record["rake"] == 9
    assert record["events"] == hand_history(hand=hand, user_id=ann.pk)["events"]
    assert not named_cards(record) & CAT_MUCKED
    assert {opening["card"] for opening in record["openings"]} == {
        *HANDS["ann"].split(), *HANDS["ben"].split()
    }  # fmt: skip
    assert all(opening["verified"] for opening in record["openings"])


def test_cat_exports_her_own_mucked_hand(client, hand, seated):
    client.force_login(seated[2])
    (record,) = lines(client.get(reverse("my-hands-download")))
    assert named_cards(record) >= CAT_MUCKED


def test_someone_who_did_not_sit_exports_nothing(client, hand, make_player):
    client.force_login(make_player("wat"))
    assert lines(client.get(reverse("my-hands-download"))) == []
    assert client.get(reverse("my-hands-download") + "?format=csv").status_code == 400
    assert client.get(reverse("my-hands-download") + "?from=soon").status_code == 400


def test_the_text_format_reads_like_a_rooms_hand_history(client, hand, seated):
    client.force_login(seated[0])
    response = client.get(reverse("my-hands-download") + "?format=text")
    text = b"".join(response.streaming_content).decode()
    started = hand.started.astimezone(UTC)
    heading = (
        f"Cardroom Hand #{hand.table_id}-1: Survivor Guts ($1.00 ante) - "
        f"{started:%Y/%m/%d %H:%M:%S} UTC"
    )
    assert text.startswith(heading + "\nTable 'Survivor $1' Seat 0 is the button\n")
    assert "Seat 0: ann ($200.00 in chips)\nSeat 1: ben ($200.00 in chips)\n" in text
    for line in (
        "*** ANTES ***\nann: antes $1.00",
        "ann: is dealt 7d Th 5h",
        "*** SHOWDOWN ***\nben: shows Qs Ah 9c (ace-high (A-Q-9))",
        "ben: wins $2.91 from the pot",
        "*** SUMMARY ***\nTotal pot $3.00 | Rake $0.09\nSeat 0: ann (button) lost $4.00\n"
        "Seat 1: ben won $1.91\nSeat 2: cat lost $1.00\n",
        f"Deck commitment {hand.commitment_root}",
    ):
        assert line in text
    assert not CAT_MUCKED & named_cards(text)
    assert text.endswith("matches\n\n")


@pytest.mark.parametrize(
    ("game", "preset", "options"),
    [variant for variant in VARIANTS if variant[1] in
     ("monte_carlo", "kitty", "three_five_seven", "unit-1", "standard")],
    ids=["monte_carlo", "kitty", "three_five_seven", "unit-1", "standard"],
)  # fmt: skip
def test_every_game_exports_as_json_lines_and_text(monkeypatch, make_player, game, preset, options):
    table, _, hands = played(monkeypatch, make_player, game, preset, options)
    out = StringIO()
    call_command("export_hands", "--from", "2000-01-01", "--to", "2999-12-31", stdout=out)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [record["hand"] for record in records] == [hand.number for hand in hands]
    for record in records:
        text = hand_text(record)
        assert text.startswith(f"Cardroom Hand #{table.pk}-{record['hand']}: ")
        assert "*** SUMMARY ***" in text and "*** DEAL ***" in text
        for seat in record["seats"]:
            assert f"Seat {seat['seat']}: {seat['player']} (" in text
        assert record["viewer"]["audit"] is True
        assert len(record["deck"]["cards"]) == len(record["deck"]["salts"]) == 52
        assert record["transfers"] and all(o["verified"] for o in record["openings"])
        assert sum(seat["net"] for seat in record["seats"]) <= 0  # the house never pays in
    text = StringIO()
    call_command("export_hands", "--from", "2000-01-01", "--to", "2999-12-31",
                 "--format", "text", "--table", str(table.pk), stdout=text)  # fmt: skip
    assert text.getvalue().count("Cardroom Hand #") == len(hands)


def test_the_command_exports_the_hands_that_began_in_the_period(hand, make_player):
    from cardroom.tables.runtime import table_act, table_create
    from tests.cardroom.driving import play_to_declare

    Hand.objects.filter(pk=hand.pk).update(started=datetime(2026, 11, 30, 23, 59, tzinfo=UTC))
    out = StringIO()
    call_command("export_hands", "--from", "2026-11-30", "--to", "2026-11-30", stdout=out)
    (record,) = [json.loads(line) for line in out.getvalue().splitlines()]
    assert record["hand"] == 1 and record["viewer"]["user"] is None
    assert named_cards(record["events"]) >= CAT_MUCKED  # the auditor's view: everything
    assert {t["kind"] for t in record["transfers"]} >= {"ante", "rake", "pot_win", "match"}
    out = StringIO()
    call_command("export_hands", "--from", "2026-12-01T00:00", "--to", "2026-12-02", stdout=out)
    assert out.getvalue() == ""
    other = table_create(game="guts", preset="survivor", options={"ante": 100}, name="Other")
    players = [make_player(name) for name in ("dan", "eve")]
    for player in players:
        table_act(table_id=other.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    play_to_declare(other, players)  # a hand still in play: left out
    out = StringIO()
    call_command("export_hands", "--from", "2000-01-01", "--to", "2999-12-31", stdout=out)
    assert [json.loads(line)["hand"] for line in out.getvalue().splitlines()] == [1]
    with pytest.raises(CommandError, match="is not a date"):
        call_command("export_hands", "--from", "last week", "--to", "2026-12-01")


def test_the_export_reads_a_bounded_number_of_queries_per_hand(monkeypatch, make_player):
    """Each hand costs the same few queries whatever the period holds (no rescan of the table's
    ledger for each hand), and the hands are read a chunk at a time."""
    options = {"ante": 100, "seats": 4}
    _, _, hands = played(monkeypatch, make_player, "guts", "survivor", options, hands=4)

    def queries(count: int) -> int:
        chosen = Hand.objects.filter(pk__in=[hand.pk for hand in hands[:count]])
        with CaptureQueriesContext(connection) as captured:
            records = list(hand_records(chosen.order_by("number"), audit=True, chunk_size=2))
        assert len(records) == count
        return len(captured)

    two, four = queries(2), queries(4)
    assert (four - two) / 2 <= 10


def test_your_hands_lists_each_hand_with_its_result_and_links(client, hand, seated):
    client.force_login(seated[0])
    page = client.get(reverse("my-hands")).content.decode()
    assert "lost $4.00" in page
    assert reverse("hand-replay", args=[hand.table_id, 1]) in page
    assert reverse("hand", args=[hand.table_id, 1]) in page
    assert reverse("my-hands-download") + "?format=text" in page
    client.force_login(seated[1])
    assert "won $1.91" in client.get(reverse("my-hands")).content.decode()
    later = client.get(reverse("my-hands") + "?from=2999-01-01").content.decode()
    assert "No hands in this period yet." in later
    assert "format=jsonl&amp;from=2999-01-01" in later
    assert client.get(reverse("my-hands") + "?from=soon").status_code == 400


def test_auditors_export_any_period_from_the_admin(client, hand, auditor, two_factor_login):
    two_factor_login(client, auditor)
    url = reverse("audit-hands-export")
    form = client.get(url)
    assert form.status_code == 200 and b"Export hands" in form.content
    day = hand.started.astimezone(UTC).date()
    response = client.get(url, {"from": str(day), "to": str(day), "format": "jsonl",
                                "table": str(hand.table_id), "download": "1"})  # fmt: skip
    assert response.streaming
    (record,) = lines(response)
    assert record["viewer"]["audit"] and len(record["deck"]["cards"]) == 52
    assert named_cards(record["events"]) >= CAT_MUCKED
    text = client.get(url, {"from": str(day), "to": str(day), "format": "text", "download": "1"})
    assert b"".join(text.streaming_content).decode().startswith("Cardroom Hand #")
    assert client.get(url, {"from": "soon", "download": "1"}).status_code == 400


def test_only_auditors_export_from_the_admin(as_user, client, player, staff_only, two_factor_login):
    url = reverse("audit-hands-export") + "?download=1"
    assert as_user(player).get(url).status_code == 302  # the admin's login
    two_factor_login(client, staff_only)
    assert client.get(url).status_code == 403


@pytest.mark.django_db(transaction=True)
async def test_under_asgi_the_download_streams_in_batches(async_client, hand, seated):
    await async_client.aforce_login(seated[0])
    response = await async_client.get(reverse("my-hands-download") + "?format=text")
    assert response.streaming and response.is_async
    text = b"".join([piece async for piece in response.streaming_content]).decode()
    assert text.startswith("Cardroom Hand #")
    # The server closes the worker thread's connection when the response ends; the test
    # client does not (it keeps the test database's), so close it here, as the server would.
    await sync_to_async(connections.close_all)()


# Whatever is played: a player's export (JSON and text) names no card their hand page does not.


def check_exports(play: Play) -> None:
    for user in play.players:
        records = list(hand_records(player_hands(user.pk), viewer=user.pk))
        for record in records:
            hand = Hand.objects.get(table=play.table, number=record["hand"])
            history = hand_history(hand=hand, user_id=user.pk)
            page = named_cards([event["data"] for event in history["events"]])
            page |= {opening["card"] for opening in history["openings"]}
            named = named_cards(record) | named_cards(hand_text(record))
            assert named <= page, f"hand {hand.number}: {user} exports {named - page}"
            assert named <= play.shown[user.pk]
    assert set(player_hands(play.watcher.pk)) == set()


@pytest.mark.parametrize("name", sorted(TABLES))
@PROPERTY
@given(data=st.data())
def test_no_export_shows_a_card_the_hand_page_hides(name, data):
    play_and_check(name, data, check_exports)


def test_hands_between_leaves_out_hands_in_play_and_other_tables(hand, survivor_table, seated):
    from cardroom.tables.runtime import table_create

    other = table_create(game="guts", preset="survivor", options={"ante": 100}, name="Other")
    assert list(hands_between(EVERYTHING)) == [hand]
    assert list(hands_between(EVERYTHING, table_id=other.pk)) == []
    later = Period.parse(str(hand.started.date() + timedelta(days=1)), "2999-12-31")
    assert list(hands_between(later)) == []


def test_json_lines_stay_english_for_programs_and_the_text_follows_the_reader(client, hand, seated):
    client.force_login(seated[0])
    url = reverse("my-hands-download")
    english = lines(client.get(url + "?format=jsonl"))
    spanish = lines(client.get(url + "?format=jsonl", headers={"accept-language": "es"}))
    assert spanish == english and english[0]["table"]["stakes_text"] == "$1.00 ante"

    def text(language: str) -> str:
        answer = client.get(url + "?format=text", headers={"accept-language": language})
        return b"".join(answer.streaming_content).decode()

    assert "*** SUMMARY ***" in text("en")
    in_spanish = text("es")
    assert "*** SUMMARY ***" not in in_spanish and "2,91\xa0$" in in_spanish


def test_who_sat_where_is_read_once_per_hand(monkeypatch, client, hand, seated, make_player):
    """The hand page and the export each read a hand's seats once, for its history and its
    replay alike (each read is a query)."""
    import cardroom.history.export
    import cardroom.history.history
    import cardroom.history.replayer
    import cardroom.views

    reads: list[int] = []
    read = cardroom.history.history.seat_names

    def counted(*, hand: Hand) -> dict[int, str]:
        reads.append(hand.pk)
        return read(hand=hand)

    for module in (cardroom.history.history, cardroom.history.replayer, cardroom.history.export,
                   cardroom.views):  # fmt: skip
        monkeypatch.setattr(module, "seat_names", counted)
    client.force_login(seated[0])
    page = client.get(reverse("hand", args=[hand.table_id, hand.number]))
    assert page.status_code == 200
    assert reads == [hand.pk]
    reads.clear()
    for audit in (False, True):
        records = list(hand_records(Hand.objects.filter(pk=hand.pk), audit=audit))
        assert len(records) == 1
    assert reads == [hand.pk, hand.pk]
