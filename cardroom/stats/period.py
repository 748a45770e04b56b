"""The range of days a statistics page covers: ``from`` and ``to`` (both included) or a preset.

Days are calendar days in the project's time zone (UTC); a period is the half-open interval
from the first instant of its first day to the first instant after its last, or unbounded for
"all time".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from django.utils import timezone
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy

__all__ = ["PLAYER_PRESETS", "TABLE_PRESETS", "Period", "period_from"]

#: Preset name → how many days back it reaches, today included (``None``: all time).
PLAYER_PRESETS: dict[str, int | None] = {"7d": 7, "30d": 30, "all": None}
TABLE_PRESETS: dict[str, int | None] = {"1d": 1, "7d": 7, "30d": 30, "all": None}

#: Each preset in words (the pages say them in their reader's language: ``str()``).
PRESET_WORDS: dict[str, Promise] = {
    "1d": gettext_lazy("today"),
    "7d": gettext_lazy("the last 7 days"),
    "30d": gettext_lazy("the last 30 days"),
    "all": gettext_lazy("all time"),
}


@dataclass(frozen=True, slots=True)
class Period:
    """``start`` (included) to ``end`` (excluded); ``None`` leaves that side open.

    ``preset`` names the preset it came from ("" for a range of days asked for).

    >>> day = date(2026, 11, 30)
    >>> period = Period.of_days(date(2026, 11, 1), day)
    >>> period.start.isoformat(), period.end.isoformat(), period.words
    ('2026-11-01T00:00:00+00:00', '2026-12-01T00:00:00+00:00', '2026-11-01 to 2026-11-30')
    >>> Period().words, Period().start is None
    ('all time', True)
    """

    start: datetime | None = None
    end: datetime | None = None
    first_day: date | None = None
    last_day: date | None = None
    preset: str = "all"

    @classmethod
    def of_days(cls, first: date, last: date, preset: str = "") -> Period:
        zone = timezone.get_current_timezone()
        return cls(
            start=datetime.combine(first, time.min, tzinfo=zone),
            end=datetime.combine(last + timedelta(days=1), time.min, tzinfo=zone),
            first_day=first,
            last_day=last,
            preset=preset,
        )

    @property
    def words(self) -> str:
        if self.preset in PRESET_WORDS:
            return str(PRESET_WORDS[self.preset])
        if self.first_day is None:
            # Translators: a range of days open at its start, "up to 2026-11-30".
            return gettext("up to %(last)s") % {"last": self.last_day}
        # Translators: a range of days, "2026-11-01 to 2026-11-30".
        return gettext("%(first)s to %(last)s") % {"first": self.first_day, "last": self.last_day}

    def bounds(self, field: str) -> dict[str, datetime]:
        """The filter keeping ``field`` (a datetime) inside the period."""
        found = {}
        if self.start is not None:
            found[f"{field}__gte"] = self.start
        if self.end is not None:
            found[f"{field}__lt"] = self.end
        return found


def period_from(
    params: Mapping[str, str],
    *,
    today: date,
    presets: Mapping[str, int | None] = PLAYER_PRESETS,
    default: str = "all",
) -> tuple[Period, str]:
    """The period a page's query asks for, and an error in words ("" when none).

    ``range`` names a preset; otherwise ``from`` and ``to`` (YYYY-MM-DD; a missing one is open
    on that side up to today). A bad query gives the default preset with the reason.

    >>> today = date(2026, 11, 30)
    >>> period_from({"range": "7d"}, today=today)[0].first_day
    datetime.date(2026, 11, 24)
    >>> period_from({"from": "2026-11-02", "to": "2026-11-01"}, today=today)[1]
    'The range ends (2026-11-01) before it starts (2026-11-02).'
    """
    fallback = _preset(default, presets[default], today)
    wanted_from, wanted_to = params.get("from", "").strip(), params.get("to", "").strip()
    if not wanted_from and not wanted_to:
        name = params.get("range") or default
        if name not in presets:
            # Translators: {name} is the range asked for, in quotes.
            return fallback, gettext("There is no range called %(name)s.") % {
                "name": repr(name[:20])
            }
        return _preset(name, presets[name], today), ""
    try:
        first = date.fromisoformat(wanted_from) if wanted_from else None
        last = date.fromisoformat(wanted_to) if wanted_to else today
    except ValueError:
        return fallback, gettext("Dates are written YYYY-MM-DD, such as 2026-01-31.")
    if first is None:
        # Open at the start: everything up to the last day asked for.
        return Period(end=Period.of_days(last, last).end, last_day=last, preset=""), ""
    if last < first:
        return fallback, gettext("The range ends (%(last)s) before it starts (%(first)s).") % {
            "last": last,
            "first": first,
        }
    return Period.of_days(first, last), ""


def _preset(name: str, days: int | None, today: date) -> Period:
    if days is None:
        return Period(preset=name)
    return Period.of_days(today - timedelta(days=days - 1), today, preset=name)
