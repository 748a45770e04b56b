"""The statistics pages: a player's own (``/accounts/stats/``, any logged-in player) and a
table's for the operators (``/operators/tables/<id>/stats/``, the operators' permission).

The pages only read. The player's page sits under ``/accounts/`` beside the cashier, but lives
here: accounts sits below the cardroom and cannot read tables or hands.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.safestring import SafeString

from accounts.models import User
from accounts.money import format_cents
from cardroom.models import Table
from cardroom.operators.views import operator_only
from cardroom.stats.charts import Bar, Line, bar_chart, line_chart
from cardroom.stats.numbers import one_decimal
from cardroom.stats.period import PLAYER_PRESETS, PRESET_WORDS, TABLE_PRESETS, period_from
from cardroom.stats.player import PlayerStats, player_stats
from cardroom.stats.series import Series
from cardroom.stats.tables import TableStats, table_stats

__all__ = ["player_stats_page", "table_stats_page"]


def _presets(names: dict[str, int | None], chosen: str) -> list[dict[str, Any]]:
    return [{"name": name, "words": PRESET_WORDS[name], "chosen": name == chosen} for name in names]


@login_required
def player_stats_page(request: HttpRequest) -> HttpResponse:
    """The player's results over a range of days: bankroll chart, games, tables, sessions."""
    user: User = request.user  # type: ignore[assignment]
    now = timezone.now()
    period, error = period_from(request.GET, today=timezone.localdate(now))
    stats = player_stats(user=user, period=period)
    return render(
        request,
        "accounts/stats.html",
        {
            "stats": stats,
            "period": period,
            "error": error,
            "presets": _presets(PLAYER_PRESETS, period.preset),
            "chart": _bankroll_chart(stats, now),
            "chart_series": [stats.bankroll, stats.holdings],
        },
    )


def _line(series: Series, start: datetime) -> Line:
    """The series as drawn: its opening balance at the start, then each point kept."""
    points = [(point.at, point.cents) for point in series.points]
    if not points or points[0][0] > start:
        points.insert(0, (start, series.opening))
    return Line(series.label, points)


def _bankroll_chart(stats: PlayerStats, now: datetime) -> SafeString | None:
    """The bankroll (and everything held) through the period, or None with nothing to draw."""
    series = (stats.bankroll, stats.holdings)
    period = stats.period
    firsts = [s.points[0].at for s in series if s.points]
    start = period.start or (min(firsts) if firsts else None)
    if start is None:
        return None
    end = min(period.end or now, now)
    if end <= start:
        end = start + timedelta(hours=1)
    bankroll = stats.bankroll
    desc = (
        f"Your bankroll went from {format_cents(bankroll.opening)} to "
        f"{format_cents(bankroll.closing)} over {period.words}, in {bankroll.changes} "
        f"changes; with your chips on tables, from {format_cents(stats.holdings.opening)} to "
        f"{format_cents(stats.holdings.closing)}. The tables below the chart list the points."
    )
    return line_chart(
        chart_id="bankroll-chart",
        title=f"Bankroll over {period.words}",
        desc=desc,
        lines=[_line(s, start) for s in series],
        start=start,
        end=end,
    )


@operator_only
def table_stats_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """One table's hands, rake and players per hour over a range of days."""
    table = get_object_or_404(Table, pk=table_id)
    now = timezone.now()
    period, error = period_from(
        request.GET, today=timezone.localdate(now), presets=TABLE_PRESETS, default="7d"
    )
    stats = table_stats(table=table, period=period, now=now)
    return render(
        request,
        "operators/table_stats.html",
        {
            "table": table,
            "stats": stats,
            "period": period,
            "error": error,
            "presets": _presets(TABLE_PRESETS, period.preset),
            "hands_per_hour": one_decimal(stats.hands_per_hour),
            "players_per_hour": one_decimal(stats.players_per_hour),
            **_table_charts(stats),
        },
    )


def _table_charts(stats: TableStats) -> dict[str, Any]:
    if not stats.buckets:
        return {"hands_chart": None, "rake_chart": None}
    fmt = "%m-%d %H:00" if stats.bucket == "hour" else "%Y-%m-%d"
    label_fmt = "%H:00" if stats.bucket == "hour" else "%m-%d"
    every = max(1, len(stats.buckets) // 6)
    per = f"per {stats.bucket}"
    hands, rake = [], []
    for index, bucket in enumerate(stats.buckets):
        label = bucket.start.strftime(label_fmt) if index % every == 0 else ""
        when = bucket.start.strftime(fmt)
        hands.append(Bar(label, bucket.hands, f"{when}: {bucket.hands} hands"))
        rake.append(Bar(label, bucket.rake, f"{when}: {format_cents(bucket.rake)} rake"))
    span = f"{stats.buckets[0].start:%Y-%m-%d %H:00} to {stats.buckets[-1].start:{fmt}} UTC"
    return {
        "hands_chart": bar_chart(
            chart_id="hands-chart",
            title=f"Hands dealt {per}",
            desc=f"Hands dealt at {stats.table.name} {per}, {span}: {stats.hands} in all.",
            bars=hands,
        ),
        "rake_chart": bar_chart(
            chart_id="rake-chart",
            title=f"Rake {per}",
            desc=f"Rake taken at {stats.table.name} {per}, {span}: "
            f"{format_cents(stats.rake)} in all.",
            bars=rake,
            words=format_cents,
            colour="#b7791f",
        ),
    }
