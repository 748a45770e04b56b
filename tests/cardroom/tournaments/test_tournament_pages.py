"""The tournament pages and their JSON as players and operators read them: the list, a
tournament's page (places, prizes, level and time left, its table and hands), the lobby's
section, the table's panel, the leaderboards, hand histories naming the tournament, the
statistics, the console's list and form, who may see what, and names escaped everywhere."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from cardroom.history.export import SCHEMA, hand_records, hand_text
from cardroom.models import Hand
from cardroom.models.tournaments import EntryStatus, TournamentStatus
from tests.cardroom.history.hands import survivor_hand
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)
from tests.cardroom.queries import queries
from tests.cardroom.tournaments.builders import enter, finished, running, tournament

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert("x")</script>'


def test_the_list_shows_open_ones_and_finished_ones(client, make_player):
    tournament("Open Survivor")
    finished(tournament("Last night"), datetime(2026, 12, 1, tzinfo=UTC), [])
    page = client.get(reverse("tournaments")).content.decode()
    assert "Open Survivor" in page and "Last night" in page
    assert "$10.00 + $1.00" in page and "0 / 6" in page


def test_a_tournaments_page_gives_places_prizes_and_points(client, make_player):
    ann, ben, cat = (make_player(name) for name in ("ann", "ben", "cat"))
    sng = finished(
        tournament("Finished one", seats=3), datetime(2026, 12, 1, tzinfo=UTC),
        [(ann, 1, 1_950, 30), (ben, 2, 1_050, 20), (cat, 3, 0, 10)],
    )  # fmt: skip
    page = client.get(reverse("tournament", args=[sng.pk])).content.decode()
    entrants = page[page.index('id="tournament-entrants"') :]
    assert entrants.index("ann") < entrants.index("ben") < entrants.index("cat")
    assert "$19.50" in entrants and "$10.50" in entrants
    prizes = page[page.index('id="tournament-prizes"') : page.index('id="tournament-entrants"')]
    assert "65%" in prizes and "35%" in prizes and "$19.50" in prizes
    assert "1,500 chips" in page and "Finished" in page
    assert 'hx-trigger="every 15s"' not in page  # over: nothing to follow


def test_a_running_tournament_shows_its_level_time_left_table_and_hands(
    client, monkeypatch, survivor_table, seated
):
    hand = survivor_hand(monkeypatch, survivor_table, seated)
    sng = tournament("Live one")
    for player in seated:
        enter(sng, player)
    deadline = timezone.now() + timedelta(minutes=4, seconds=5)
    running(sng, survivor_table, level=0, deadline=deadline)
    client.force_login(seated[0])

    page = client.get(reverse("tournament", args=[sng.pk])).content.decode()

    assert "Level 1: 10 chips" in page and "20 chips" in page
    assert f'data-level-ends="{deadline.isoformat()}"' in page
    assert ">4:0" in page  # 4:04 or 4:05 left, by the time the page is drawn
    assert reverse("table", args=[survivor_table.pk]) in page
    assert reverse("hand", args=[survivor_table.pk, hand.number]) in page
    assert reverse("hand-replay", args=[survivor_table.pk, hand.number]) in page
    # The page follows the tournament: drawn again every 15 s while it runs.
    assert 'hx-select="#tournament-page"' in page and 'hx-trigger="every 15s"' in page


def test_the_json_is_the_summary(client, make_player):
    sng = tournament("JSON one")
    enter(sng, make_player("ann"))
    data = client.get(reverse("tournament-json", args=[sng.pk])).json()
    assert data["id"] == sng.pk and data["registered"] == 1
    assert data["entrants"][0]["player"] == "ann"
    assert {"level", "next_stake", "level_ends", "places_paid", "prizes"} <= set(data)
    assert client.get(reverse("tournament-json", args=[sng.pk + 99])).status_code == 404


def test_names_are_escaped_on_every_page(client, make_player):
    player = make_player("eve")
    sng = tournament(HOSTILE)
    enter(sng, player)
    client.force_login(player)
    for url in (
        reverse("tournaments"),
        reverse("tournament", args=[sng.pk]),
        reverse("lobby"),
    ):
        page = client.get(url).content.decode()
        assert HOSTILE not in page, url
        assert "&lt;script&gt;" in page, url
    data = json.loads(client.get(reverse("tournament-json", args=[sng.pk])).content)
    assert data["name"] == HOSTILE  # JSON carries the name as it is; pages escape it


def test_the_lobby_lists_tournaments_with_register_buttons_in_its_query_budget(client, make_player):
    ann = make_player("ann")
    mine = tournament("Mine")
    enter(mine, ann)
    tournament("Other")
    tournament("Full one", seats=2)
    full = tournament("Full one", seats=2)
    for name in ("x1", "x2"):
        enter(full, make_player(name))
    tournament("Chinese", game="chinese_poker", preset="unit-1")
    client.force_login(ann)

    page = client.get(reverse("lobby")).content.decode()
    section = page[page.index('id="lobby-tournaments"') :]
    assert reverse("tournament-unregister", args=[mine.pk]) in section
    assert reverse("tournament-register", args=[mine.pk]) not in section
    assert reverse("tournament-register", args=[full.pk]) not in section
    assert "you are in" in section and "2 / 2" in section
    assert 'hx-post="' + reverse("tournament-unregister", args=[mine.pk]) in section

    assert 'hx-get="' + reverse("tournament-rows") + "?next=/lobby/" in section
    rows = client.get(reverse("tournament-rows") + "?game=chinese_poker&next=/lobby/")
    rows = rows.content.decode()
    assert "Chinese" in rows and "Mine" not in rows and "<html" not in rows
    assert 'name="next" value="/lobby/"' in rows
    none = client.get(reverse("lobby") + "?game=three_card_poker").content.decode()
    assert "No tournament is open now." in none

    def lobby():
        client.get(reverse("lobby"))

    few = queries(lobby)
    for number in range(8):
        enter(tournament(f"More {number}"), make_player(f"m{number}"))
    assert queries(lobby) == few


def test_the_table_page_shows_the_tournament_panel(client, survivor_table, seated):
    sng = tournament("Panel one", payouts=[10_000])
    for player in seated:
        enter(sng, player)
    running(sng, survivor_table, level=2, deadline=None)
    client.force_login(seated[0])

    page = client.get(reverse("table", args=[survivor_table.pk])).content.decode()
    panel = page[page.index('id="tournament-panel"') :]
    panel = panel[: panel.index("</section>")]
    assert reverse("tournament", args=[sng.pk]) in panel
    assert "Level 3: 40 chips" in panel and "lasts to the end" in panel
    assert "1: $30.00" in panel
    assert reverse("tournament-panel", args=[sng.pk]) in panel
    polled = client.get(reverse("tournament-panel", args=[sng.pk])).content.decode()
    assert "Level 3: 40 chips" in polled and "<html" not in polled


def test_a_cash_table_has_no_panel(client, survivor_table, seated):
    client.force_login(seated[0])
    page = client.get(reverse("table", args=[survivor_table.pk])).content.decode()
    assert 'id="tournament-panel"' not in page


def test_hand_histories_name_the_tournament(client, monkeypatch, survivor_table, seated):
    hand = survivor_hand(monkeypatch, survivor_table, seated)
    sng = tournament("History one")
    for player in seated:
        enter(sng, player)
    running(sng, survivor_table, level=0, deadline=None)
    client.force_login(seated[0])

    page = client.get(reverse("hand", args=[survivor_table.pk, hand.number])).content.decode()
    assert 'id="hand-tournament"' in page and reverse("tournament", args=[sng.pk]) in page

    hands = Hand.objects.filter(pk=hand.pk)
    (record,) = hand_records(hands, viewer=seated[0].pk)
    assert record["schema"] == SCHEMA == "cardroom.hand/2"
    assert record["tournament"] == {"id": sng.pk, "name": "History one"}
    assert f"Tournament #{sng.pk}: History one" in hand_text(record).splitlines()[1]


def test_a_cash_tables_hands_name_no_tournament(monkeypatch, survivor_table, seated):
    hand = survivor_hand(monkeypatch, survivor_table, seated)
    (record,) = hand_records(Hand.objects.filter(pk=hand.pk), audit=True)
    assert record["tournament"] is None
    assert "Tournament #" not in hand_text(record)


def test_the_statistics_page_has_a_tournaments_section(client, make_player):
    ann, ben = make_player("ann"), make_player("ben")
    finished(
        tournament("Stats one", seats=2, payouts=[10_000]), timezone.now() - timedelta(hours=1),
        [(ann, 1, 2_000, 20), (ben, 2, 0, 10)],
    )  # fmt: skip
    client.force_login(ann)
    page = client.get(reverse("stats") + "?preset=all").content.decode()
    section = page[page.index('id="stats-tournaments"') :]
    section = section[: section.index("</section>")]
    assert "$20.00" in section and "$1.00" in section  # prizes, fees paid
    assert "+$9.00" in section  # net: $20.00 less $10.00 and $1.00
    client.force_login(ben)
    page = client.get(reverse("stats") + "?preset=all").content.decode()
    assert "−$11.00" in page or "-$11.00" in page
    client.force_login(make_player("cat"))
    assert 'id="stats-tournaments"' not in client.get(reverse("stats")).content.decode()


def test_the_leaderboard_page_and_json(client, make_player):
    ann, ben = make_player("ann"), make_player("ben")
    finished(
        tournament("Board one"), datetime(2026, 12, 2, tzinfo=UTC),
        [(ann, 1, 2_600, 30), (ben, 2, 1_400, 20)],
    )  # fmt: skip
    page = client.get(reverse("leaderboards") + "?game=guts&period=week&at=2026-12-03")
    text = page.content.decode()
    board = text[text.index('id="leaderboard"') :]
    assert board.index("ann") < board.index("ben") and "$26.00" in board
    assert "2026-11-30 to 2026-12-06" in text
    assert "at=2026-11-29" in text and "at=2026-12-07" in text  # previous and next weeks

    data = client.get(reverse("leaderboards-json") + "?game=guts&period=week&at=2026-12-03")
    assert data.json() == {
        "game": "guts",
        "period": "week",
        "start": "2026-11-30",
        "end": "2026-12-06",
        "rows": [
            {"rank": 1, "player": "ann", "points": 30, "tournaments": 1, "wins": 1,
             "prizes": 2_600},
            {"rank": 2, "player": "ben", "points": 20, "tournaments": 1, "wins": 0,
             "prizes": 1_400},
        ],
    }  # fmt: skip
    month = client.get(reverse("leaderboards-json") + "?game=guts&period=month&at=2026-11-15")
    assert month.json()["rows"] == []


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("game=poker", "no leaderboard for that game"),
        ("period=year", "a week or a month"),
        ("at=yesterday", "yesterday is not a day: write YYYY-MM-DD"),
    ],
)
def test_a_bad_leaderboard_query_is_refused_in_words(client, query, words):
    response = client.get(reverse("leaderboards-json") + "?" + query)
    assert response.status_code == 400 and words in response.json()["error"]
    page = client.get(reverse("leaderboards") + "?" + query)
    assert page.status_code == 200 and words in page.content.decode()


def test_the_leaderboard_page_is_few_queries_whatever_its_size(client, make_player):
    def board():
        client.get(reverse("leaderboards") + "?game=guts&period=week&at=2026-12-03")

    few = queries(board)
    players = [make_player(f"p{number}") for number in range(8)]
    finished(
        tournament("Big", seats=8), datetime(2026, 12, 2, tzinfo=UTC),
        [(player, place, 0, 9 - place) for place, player in enumerate(players, start=1)],
    )  # fmt: skip
    assert queries(board) == few


def test_only_operators_open_the_console(as_user, player, operator):
    tournament("Console one")
    url = reverse("operators-tournaments")
    assert as_user(None).get(url).status_code == 302
    assert as_user(player).get(url).status_code == 403
    page = as_user(operator).get(url)
    assert page.status_code == 200 and "Console one" in page.content.decode()
    assert as_user(player).post(reverse("operators-tournament-new"), {}).status_code == 403
    cancel = reverse("operators-tournament-cancel", args=[1])
    assert as_user(player).post(cancel, {"reason": "x"}).status_code == 403
    assert (
        reverse("operators-tournaments")
        in as_user(operator).get(reverse("operators")).content.decode()
    )


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("buy_in", "ten", "type dollars"),
        ("levels", "10 5\nlots", "Line 2 (lots) is not a level"),
        ("payouts", "65 abc", "abc is not a share"),
        ("seats", "1", "greater than or equal to 2"),
        ("preset", "unit-1", "not a preset of Guts"),
    ],
)
def test_a_bad_form_is_refused_in_words_and_creates_nothing(as_user, operator, field, value, words):
    form = {
        "name": "Bad one", "game": "guts", "preset": "survivor", "seats": "6",
        "buy_in": "10", "fee": "1", "chips": "1500", "bots": "0", **{field: value},
    }  # fmt: skip
    response = as_user(operator).post(reverse("operators-tournament-new"), form)
    assert response.status_code == 400 and words in response.content.decode()
    from cardroom.models.tournaments import Tournament

    assert not Tournament.objects.exists()


def test_a_cancel_without_a_reason_or_of_a_finished_one_changes_nothing(as_user, operator):
    open_one = tournament("Open")
    done = tournament("Done", status=TournamentStatus.FINISHED)
    client = as_user(operator)
    answer = client.post(
        reverse("operators-tournament-cancel", args=[open_one.pk]), {"reason": " "}, follow=True
    )
    assert "Give a reason" in answer.content.decode()
    answer = client.post(
        reverse("operators-tournament-cancel", args=[done.pk]), {"reason": "oops"}, follow=True
    )
    assert "already ended" in answer.content.decode()
    open_one.refresh_from_db()
    done.refresh_from_db()
    assert (open_one.status, done.status) == ("registering", "finished")
    assert EntryStatus.REFUNDED == "refunded"
