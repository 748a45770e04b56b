"""The leaderboards: per game, per week or month, players ranked by their tournament points.

Counted from the entries of finished tournaments, by the time each tournament ended: a week is
an ISO week, from Monday 00:00 UTC to the next Monday; a month a calendar month in UTC. Each
entry's points were written when its tournament finished (``games/tournament/points.py``).
Players are ranked by points, then wins, then prizes; players equal in all three share a rank
(1, 1, 3). One query, whatever the number of players or tournaments.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta

from django.db.models import Count, Q, Sum

from cardroom.models.tournaments import Entry, EntryStatus, TournamentStatus

__all__ = ["PERIODS", "Bounds", "Row", "leaderboard", "period_bounds"]

#: The periods a leaderboard covers.
PERIODS = ("week", "month")
#: The entries that finished: a place, points and maybe a prize.
FINISHED = (EntryStatus.WON, EntryStatus.ELIMINATED)


@dataclass(frozen=True, slots=True)
class Bounds:
    """A period: from ``start`` (included) to ``end`` (excluded), UTC; ``previous`` and
    ``following`` are days inside the periods either side."""

    start: datetime
    end: datetime

    @property
    def previous(self) -> date:
        return (self.start - timedelta(days=1)).date()

    @property
    def following(self) -> date:
        return self.end.date()

    @property
    def last_day(self) -> date:
        return (self.end - timedelta(days=1)).date()


@dataclass(frozen=True, slots=True)
class Row:
    """One player's line: ``prizes`` in cents."""

    rank: int
    player: str
    points: int
    tournaments: int
    wins: int
    prizes: int


def period_bounds(period: str, at: date) -> Bounds:
    """The week (ISO, from Monday) or month (calendar) holding ``at``, in UTC.

    >>> period_bounds("week", date(2026, 12, 3)).start.isoformat()
    '2026-11-30T00:00:00+00:00'
    >>> period_bounds("month", date(2026, 12, 3)).end.isoformat()
    '2027-01-01T00:00:00+00:00'
    """
    if period == "week":
        first = at - timedelta(days=at.weekday())
        start = datetime.combine(first, time(), UTC)
        return Bounds(start, start + timedelta(days=7))
    if period == "month":
        first = at.replace(day=1)
        following = (first + timedelta(days=32)).replace(day=1)
        start = datetime.combine(first, time(), UTC)
        return Bounds(start, datetime.combine(following, time(), UTC))
    raise ValueError(f"unknown period {period!r}; periods: week, month")


def leaderboard(*, game: str, period: str, at: date) -> list[Row]:
    """The leaderboard of ``game`` for the ``period`` ("week" or "month") holding ``at``."""
    bounds = period_bounds(period, at)
    totals = (
        Entry.objects.filter(
            status__in=FINISHED,
            tournament__status=TournamentStatus.FINISHED,
            tournament__game=game,
            tournament__ended__gte=bounds.start,
            tournament__ended__lt=bounds.end,
            # House bots take places (and the places below them count as such), but the
            # boards rank people only.
            user__is_bot=False,
        )
        .values("user_id", "user__username", "user__display_name")
        .annotate(
            total_points=Sum("points"),
            played=Count("id"),
            won=Count("id", filter=Q(place=1)),
            paid=Sum("prize"),
        )
    )
    ordered = sorted(
        totals,
        key=lambda row: (
            -int(row["total_points"] or 0),
            -int(row["won"]),
            -int(row["paid"] or 0),
            str(row["user__display_name"] or row["user__username"]).casefold(),
        ),
    )
    rows: list[Row] = []
    for index, row in enumerate(ordered):
        points, wins, prizes = int(row["total_points"] or 0), int(row["won"]), int(row["paid"] or 0)
        rank = index + 1
        if rows and (rows[-1].points, rows[-1].wins, rows[-1].prizes) == (points, wins, prizes):
            rank = rows[-1].rank  # equal in everything ranked: the same rank
        rows.append(
            Row(
                rank=rank,
                player=row["user__display_name"] or row["user__username"],
                points=points,
                tournaments=int(row["played"]),
                wins=wins,
                prizes=prizes,
            )
        )
    return rows
