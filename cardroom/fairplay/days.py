"""A report's day as the moments it spans, in the cardroom's time zone."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

from django.utils import timezone


def day_span(day: date, days: int = 1) -> tuple[datetime, datetime]:
    """The start of the first of ``days`` days ending on ``day`` and the end of ``day``
    (exclusive), aware, in the current time zone."""
    zone = timezone.get_current_timezone()
    end = timezone.make_aware(datetime.combine(day + timedelta(days=1), time()), zone)
    start = timezone.make_aware(datetime.combine(day - timedelta(days=days - 1), time()), zone)
    return start, end
