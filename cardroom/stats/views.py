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
from django.utils.translation import gettext, ngettext

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
    return [
        {"name": name, "words": str(PRESET_WORDS[name]), "chosen": name == chosen} for name in names
    ]


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
    # Translators: the bankroll chart described for screen readers; {period}: "the last 7
    # days" or "2026-11-01 to 2026-11-30".
    desc = gettext(
        "Your bankroll went from %(opening)s to %(closing)s over %(period)s, in %(changes)s "
        "changes; with your chips on tables, from %(held_opening)s to %(held_closing)s. The "
        "tables below the chart list the points."
    ) % {
        "opening": format_cents(bankroll.opening),
        "closing": format_cents(bankroll.closing),
        "period": period.words,
        "changes": bankroll.changes,
        "held_opening": format_cents(stats.holdings.opening),
        "held_closing": format_cents(stats.holdings.closing),
    }
    return line_chart(
        chart_id="bankroll-chart",
        # Translators: the bankroll chart's title; {period}: "the last 7 days".
        title=gettext("Bankroll over %(period)s") % {"period": period.words},
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
    hourly = stats.bucket == "hour"
    hands, rake = [], []
    for index, bucket in enumerate(stats.buckets):
        label = bucket.start.strftime(label_fmt) if index % every == 0 else ""
        when = bucket.start.strftime(fmt)
        # Translators: one bar of the chart of hands dealt: its hour or day, and the hands.
        hands_words = ngettext(
            "%(when)s: %(count)s hand", "%(when)s: %(count)s hands", bucket.hands
        ) % {"when": when, "count": bucket.hands}
        hands.append(Bar(label, bucket.hands, hands_words))
        rake_words = gettext("%(when)s: %(amount)s rake") % {
            "when": when,
            "amount": format_cents(bucket.rake),
        }
        rake.append(Bar(label, bucket.rake, rake_words))
    # Translators: the charts' span of time, "2026-11-01 10:00 to 2026-11-02 18:00 UTC".
    span = gettext("%(first)s to %(last)s UTC") % {
        "first": f"{stats.buckets[0].start:%Y-%m-%d %H:00}",
        "last": f"{stats.buckets[-1].start:{fmt}}",
    }
    values = {
        "table": stats.table.name,
        "span": span,
        "hands": stats.hands,
        "rake": format_cents(stats.rake),
    }
    if hourly:
        hands_title, rake_title = gettext("Hands dealt per hour"), gettext("Rake per hour")
        # Translators: the chart described for screen readers; {span}: its span of time.
        hands_desc = gettext("Hands dealt at %(table)s per hour, %(span)s: %(hands)s in all.")
        rake_desc = gettext("Rake taken at %(table)s per hour, %(span)s: %(rake)s in all.")
    else:
        hands_title, rake_title = gettext("Hands dealt per day"), gettext("Rake per day")
        # Translators: the chart described for screen readers; {span}: its span of time.
        hands_desc = gettext("Hands dealt at %(table)s per day, %(span)s: %(hands)s in all.")
        rake_desc = gettext("Rake taken at %(table)s per day, %(span)s: %(rake)s in all.")
    return {
        "hands_chart": bar_chart(
            chart_id="hands-chart",
            title=hands_title,
            desc=hands_desc % values,
            bars=hands,
        ),
        "rake_chart": bar_chart(
            chart_id="rake-chart",
            title=rake_title,
            desc=rake_desc % values,
            bars=rake,
            words=format_cents,
            colour="#b7791f",
        ),
    }
