"""The read side of tournaments: the JSON's summary, the lobby's list, the leaderboards'
periods and ranks, a player's tournament figures, and the queries each costs."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from cardroom.models.tournaments import EntryStatus, TournamentStatus
from cardroom.stats.period import Period
from cardroom.stats.tournaments import tournament_figures
from cardroom.tournaments.leaderboard import leaderboard, period_bounds
from cardroom.tournaments.selectors import lobby_tournaments, tournament_summary
from tests.cardroom.queries import queries
from tests.cardroom.tournaments.builders import enter, finished, running, tournament

pytestmark = pytest.mark.django_db

KEYS = {
    "id", "name", "game", "preset", "status", "seats", "registered", "buy_in", "fee",
    "prize_pool", "chips", "level", "stake", "next_stake", "level_ends", "places_paid",
    "prizes", "entrants", "table",
}  # fmt: skip


def test_a_registering_tournament_summed_up(make_player):
    sng = tournament()
    ann, ben, cat = (make_player(name) for name in ("ann", "ben", "cat"))
    enter(sng, ann)
    enter(sng, ben)
    enter(sng, cat, status=EntryStatus.UNREGISTERED)

    summary = tournament_summary(sng)

    assert set(summary) == KEYS
    assert summary["status"] == "registering"
    assert (summary["registered"], summary["seats"]) == (2, 6)
    assert (summary["buy_in"], summary["fee"], summary["prize_pool"]) == (1_000, 100, 2_000)
    assert (summary["level"], summary["stake"], summary["next_stake"]) == (1, 10, 20)
    assert summary["level_ends"] is None and summary["table"] is None
    assert summary["places_paid"] == 2 and summary["prizes"] == [1_300, 700]
    assert [row["player"] for row in summary["entrants"]] == ["ann", "ben"]
    assert summary["entrants"][0] == {
        "player": "ann", "status": "registered", "place": None, "prize": 0, "points": 0,
    }  # fmt: skip


def test_a_running_tournament_gives_its_level_and_deadline(make_player, survivor_table):
    sng = tournament(payouts=[5_000, 3_000, 2_000])
    for name in ("ann", "ben", "cat"):
        enter(sng, make_player(name))
    deadline = datetime(2026, 12, 3, 18, 30, tzinfo=UTC)
    running(sng, survivor_table, level=1, deadline=deadline)

    summary = tournament_summary(sng)

    assert (summary["status"], summary["table"]) == ("running", survivor_table.pk)
    assert (summary["level"], summary["stake"], summary["next_stake"]) == (2, 20, 40)
    assert summary["level_ends"] == "2026-12-03T18:30:00Z"
    # 3,000 split 50/30/20: no rounding left over here.
    assert summary["prizes"] == [1_500, 900, 600] and sum(summary["prizes"]) == 3_000

    sng.level = 2  # the last level never ends
    assert tournament_summary(sng)["level_ends"] is None
    assert tournament_summary(sng)["next_stake"] is None


def test_the_rounding_of_prizes_goes_to_first_place_and_they_sum_to_the_pool(make_player):
    sng = tournament(buy_in=333, payouts=[5_000, 3_000, 2_000])
    for name in ("ann", "ben", "cat"):
        enter(sng, make_player(name))
    prizes = tournament_summary(sng)["prizes"]
    assert prizes == [501, 299, 199] and sum(prizes) == 999


def test_entrants_still_in_come_first_then_by_place(make_player):
    sng = tournament()
    ann, ben, cat, dan = (make_player(name) for name in ("ann", "ben", "cat", "dan"))
    enter(sng, ann, status=EntryStatus.ELIMINATED, place=4)
    enter(sng, ben, status=EntryStatus.PLAYING)
    enter(sng, cat, status=EntryStatus.ELIMINATED, place=3)
    enter(sng, dan, status=EntryStatus.PLAYING)
    order = [row["player"] for row in tournament_summary(sng)["entrants"]]
    assert order == ["ben", "dan", "cat", "ann"]


def test_the_summary_costs_one_query_whatever_the_entrants(make_player):
    sng = tournament(seats=9)
    for number in range(9):
        enter(sng, make_player(f"p{number}"))
    assert queries(lambda: tournament_summary(sng)) == 1


def test_the_lobby_lists_open_and_running_ones_with_the_viewers_entry(make_player):
    ann, ben = make_player("ann"), make_player("ben")
    open_one = tournament("Open")
    enter(open_one, ann)
    enter(open_one, ben, status=EntryStatus.UNREGISTERED)
    tournament("Chinese", game="chinese_poker", preset="unit-1")
    tournament("Done", status=TournamentStatus.FINISHED)
    tournament("Off", status=TournamentStatus.CANCELLED)

    rows = lobby_tournaments(user=ann)
    assert [row.tournament.name for row in rows] == ["Open", "Chinese"]
    assert [(row.registered, row.entered) for row in rows] == [(1, True), (0, False)]
    assert not lobby_tournaments(user=ben)[0].entered
    assert [row.tournament.name for row in lobby_tournaments(game="chinese_poker")] == ["Chinese"]


def test_the_lobby_list_is_one_query_whatever_its_size(make_player):
    ann = make_player("ann")
    for number in range(12):
        enter(tournament(f"T{number}"), ann)
    assert queries(lambda: lobby_tournaments(user=ann)) == 1


def test_weeks_start_on_monday_and_months_on_the_first_in_utc():
    week = period_bounds("week", date(2026, 12, 6))  # a Sunday
    assert (week.start, week.end) == (
        datetime(2026, 11, 30, tzinfo=UTC), datetime(2026, 12, 7, tzinfo=UTC),
    )  # fmt: skip
    assert (week.previous, week.following, week.last_day) == (
        date(2026, 11, 29), date(2026, 12, 7), date(2026, 12, 6),
    )  # fmt: skip
    month = period_bounds("month", date(2026, 12, 31))
    assert (month.start, month.end) == (
        datetime(2026, 12, 1, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC),
    )  # fmt: skip
    with pytest.raises(ValueError, match="week, month"):
        period_bounds("year", date(2026, 12, 1))


@pytest.fixture
def results(make_player):
    """Three finished Guts tournaments: two this week (from Monday 2026-11-30), one the week
    before; and a Chinese Poker one this week."""
    ann, ben, cat, dan = (make_player(name) for name in ("ann", "ben", "cat", "dan"))
    finished(
        tournament("A"), datetime(2026, 11, 30, 0, 0, tzinfo=UTC),
        [(ann, 1, 2_600, 30), (ben, 2, 1_400, 20), (cat, 3, 0, 10), (dan, 4, 0, 5)],
    )  # fmt: skip
    finished(
        tournament("B"), datetime(2026, 12, 2, 12, tzinfo=UTC),
        [(ben, 1, 2_600, 30), (ann, 2, 1_400, 20), (cat, 3, 0, 10), (dan, 3, 0, 10)],
    )  # fmt: skip
    finished(
        tournament("Before"), datetime(2026, 11, 29, 23, 59, tzinfo=UTC),
        [(dan, 1, 2_600, 30), (cat, 2, 1_400, 20)],
    )  # fmt: skip
    finished(
        tournament("CP", game="chinese_poker", preset="unit-1"),
        datetime(2026, 12, 1, tzinfo=UTC),
        [(cat, 1, 1_000, 99), (dan, 2, 0, 10)],
    )  # fmt: skip
    running_one = tournament("Running", status=TournamentStatus.RUNNING)
    enter(running_one, dan, status=EntryStatus.ELIMINATED, place=2, points=500)
    return ann, ben, cat, dan


def test_the_week_counts_the_tournaments_that_ended_in_it_and_ranks_ties_equal(results):
    rows = leaderboard(game="guts", period="week", at=date(2026, 12, 3))
    assert [(r.rank, r.player, r.points, r.tournaments, r.wins, r.prizes) for r in rows] == [
        (1, "ann", 50, 2, 1, 4_000),
        (1, "ben", 50, 2, 1, 4_000),
        (3, "cat", 20, 2, 0, 0),
        (4, "dan", 15, 2, 0, 0),
    ]


def test_points_then_wins_then_prizes_rank_the_players(results):
    _ann, _ben, cat, dan = results
    finished(
        tournament("C"), datetime(2026, 12, 5, tzinfo=UTC),
        [(cat, 1, 100, 30), (dan, 2, 0, 35)],
    )  # fmt: skip
    rows = leaderboard(game="guts", period="week", at=date(2026, 12, 3))
    # dan 50 points and no win; cat 50 points and a win: cat first among them.
    assert [(r.rank, r.player, r.points, r.wins) for r in rows] == [
        (1, "ann", 50, 1), (1, "ben", 50, 1), (3, "cat", 50, 1), (4, "dan", 50, 0),
    ]  # fmt: skip
    assert rows[2].prizes == 100 and rows[0].prizes == 4_000


def test_the_month_and_the_other_game_have_their_own_boards(results):
    month = leaderboard(game="guts", period="month", at=date(2026, 11, 1))
    assert [(r.rank, r.player, r.points, r.wins, r.prizes) for r in month] == [
        (1, "dan", 35, 1, 2_600), (2, "ann", 30, 1, 2_600), (3, "cat", 30, 0, 1_400),
        (4, "ben", 20, 0, 1_400),
    ]  # fmt: skip
    chinese = leaderboard(game="chinese_poker", period="week", at=date(2026, 12, 1))
    assert [(r.rank, r.player, r.points) for r in chinese] == [(1, "cat", 99), (2, "dan", 10)]
    assert leaderboard(game="guts", period="week", at=date(2027, 1, 4)) == []


def test_a_leaderboard_is_one_query_whatever_its_size(results, make_player):
    players = [make_player(f"p{number}") for number in range(10)]
    finished(
        tournament("Big", seats=10), datetime(2026, 12, 4, tzinfo=UTC),
        [(player, place, 0, 10 - place) for place, player in enumerate(players, start=1)],
    )  # fmt: skip
    assert queries(lambda: leaderboard(game="guts", period="week", at=date(2026, 12, 3))) == 1


def test_a_players_tournament_figures(results):
    ann, _ben, cat, dan = results
    every = tournament_figures(user=ann, period=Period())
    assert (every.entered, every.won, every.in_the_money) == (2, 1, 2)
    assert (every.prizes, every.fees, every.net) == (4_000, 200, 4_000 - 2_000 - 200)
    week = Period(start=datetime(2026, 11, 30, tzinfo=UTC), end=datetime(2026, 12, 1, tzinfo=UTC))
    cats = tournament_figures(user=cat, period=week)
    assert (cats.entered, cats.won, cats.prizes, cats.net) == (1, 0, 0, -1_100)
    assert queries(lambda: tournament_figures(user=dan, period=Period())) == 1
    nothing = tournament_figures(user=dan, period=Period(start=datetime(2027, 1, 1, tzinfo=UTC)))
    assert (nothing.entered, nothing.net) == (0, 0)


def test_house_bots_take_places_but_are_not_ranked(make_player):
    bot = make_player("house-bot-1")
    bot.is_bot = True
    bot.save()
    ann = make_player("ann")
    ended = datetime(2026, 12, 2, 20, tzinfo=UTC)
    finished(tournament("With a bot"), ended, [(bot, 1, 1_300, 20), (ann, 2, 700, 10)])
    rows = leaderboard(game="guts", period="week", at=date(2026, 12, 3))
    assert [(row.rank, row.player, row.points) for row in rows] == [(1, "ann", 10)]
