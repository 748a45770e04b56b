"""A table's pace for the operators: hands, rake and players per hour (docs/statistics.md,
"Tables").

Hands are the hands dealt at the table (voided ones left out), each counted in the hour of its
deal (its ``hand_started`` event); players are the distinct people dealt in (each deal's player
found as for a player's own figures, cardroom/stats/hands.py); rake is every transfer into the
house rake from the table (pot rake and hand fees) less any a void gave back, in the hour it
was taken, as the rake report counts it (cardroom/audit/reports.py). Per-hour figures are over
the hours in which the table dealt at least one hand. Hours are clock hours in UTC; a range
longer than a week is charted day by day.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from django.db.models import BigIntegerField, Case, Count, F, Q, QuerySet, Sum, When
from django.db.models.functions import TruncHour
from django.utils import timezone

from accounts.models import AccountKind, Transfer
from cardroom.models import HandEvent, Table
from cardroom.stats.hands import deal_events
from cardroom.stats.numbers import rounded_cents
from cardroom.stats.period import Period

__all__ = ["HOURLY_UP_TO", "Bucket", "TableStats", "table_stats"]

#: Ranges up to this long are charted hour by hour; longer ones day by day.
HOURLY_UP_TO = timedelta(days=7)
#: The most bars a chart fills in between the first and the last with figures.
MAX_BARS = 400


@dataclass(frozen=True, slots=True)
class Bucket:
    """One hour (or day) of the chart: hands dealt, rake in cents, distinct players."""

    start: datetime
    hands: int
    rake: int
    players: int


@dataclass(frozen=True, slots=True)
class TableStats:
    """The table's figures over the period; ``hours``: the hours with at least one hand."""

    table: Table
    period: Period
    hands: int
    rake: int
    players: int
    hours: int
    bucket: str
    buckets: list[Bucket]
    #: The distinct players of each hour with play.
    hourly_players: tuple[int, ...] = ()

    @property
    def hands_per_hour(self) -> Fraction:
        return Fraction(self.hands, self.hours) if self.hours else Fraction(0)

    @property
    def rake_per_hour(self) -> int:
        """Cents per hour with play, to the nearest cent."""
        return rounded_cents(Fraction(self.rake, self.hours)) if self.hours else 0

    @property
    def players_per_hour(self) -> Fraction:
        """The distinct players of each hour with play, on average."""
        if not self.hours:
            return Fraction(0)
        return Fraction(sum(self.hourly_players), self.hours)


def table_stats(*, table: Table, period: Period, now: datetime | None = None) -> TableStats:
    """The table's hands, rake and players over ``period`` (module docstring).

    Three queries, each grouped by the hour; days are added up from the hours here (players
    come as the distinct pairs of hour and player, so a day's and the range's distinct players
    are exact too)."""
    zone = timezone.get_current_timezone()
    hour = TruncHour("created", tzinfo=zone)
    started = HandEvent.objects.filter(
        table=table, type="hand_started", hand__isnull=False, hand__void_reason=""
    ).filter(**period.bounds("created"))
    hands = _by_hour(
        started.order_by().annotate(hour=hour).values("hour").annotate(n=Count("hand"))
    )
    rake = _by_hour(
        _rake(table, period).annotate(hour=hour).values("hour").annotate(n=Sum("signed"))
    )
    seen: dict[datetime, set[int]] = defaultdict(set)
    pairs = deal_events(period=period).filter(table=table).annotate(hour=hour)
    for at, player in pairs.values_list("hour", "player").distinct():
        seen[at].add(player)
    hours = sorted(at for at, count in hands.items() if count)
    span_start = period.start or (hours[0] if hours else None)
    span_end = period.end or now or timezone.now()
    daily = span_start is None or span_end - span_start > HOURLY_UP_TO

    def bucket_of(at: datetime) -> datetime:
        return at.replace(hour=0) if daily else at

    bucket_hands: dict[datetime, int] = defaultdict(int)
    bucket_rake: dict[datetime, int] = defaultdict(int)
    bucket_players: dict[datetime, set[int]] = defaultdict(set)
    for at, count in hands.items():
        bucket_hands[bucket_of(at)] += count
    for at, cents in rake.items():
        bucket_rake[bucket_of(at)] += cents
    for at, players in seen.items():
        bucket_players[bucket_of(at)] |= players
    buckets = [
        Bucket(at, bucket_hands[at], bucket_rake[at], len(bucket_players[at]))
        for at in _filled(set(bucket_hands) | set(bucket_rake) | set(bucket_players), daily)
    ]
    return TableStats(
        table=table,
        period=period,
        hands=sum(hands.values()),
        rake=sum(rake.values()),
        players=len(set().union(*seen.values())),
        hours=len(hours),
        bucket="day" if daily else "hour",
        buckets=buckets,
        hourly_players=tuple(len(seen[at]) for at in hours),
    )


def _by_hour(rows: Iterable[Mapping[str, Any]]) -> dict[datetime, int]:
    return {row["hour"]: int(row["n"] or 0) for row in rows}


def _filled(starts: set[datetime], daily: bool) -> list[datetime]:
    """The buckets with figures and the empty ones between them (a chart shows the quiet hours
    as gaps), unless that makes more than ``MAX_BARS``."""
    if not starts:
        return []
    step = timedelta(days=1) if daily else timedelta(hours=1)
    first, last = min(starts), max(starts)
    if (last - first) / step >= MAX_BARS:
        return sorted(starts)
    return [first + step * n for n in range(int((last - first) / step) + 1)]


def _rake(table: Table, period: Period) -> QuerySet[Transfer]:
    """The table's transfers into or out of the house rake in the period, each ``signed``."""
    return (
        Transfer.objects.filter(
            Q(target__kind=AccountKind.RAKE) | Q(source__kind=AccountKind.RAKE),
            table_id=table.pk,
            **period.bounds("created"),
        )
        .annotate(
            signed=Case(
                When(source__kind=AccountKind.RAKE, then=-F("amount")),
                default=F("amount"),
                output_field=BigIntegerField(),
            )
        )
        .order_by()
    )
