"""The terms of the rules (docs/responsible-gaming.md) and how they read to a player.

Periods are rolling windows ending now: a day is the last 24 hours, a week the last 7 days, a
month the last 30 days. Times are written in UTC and say so; a date alone for an exclusion's
end, which is what a player remembers.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils.translation import gettext as _

from accounts.language import day_text, moment_text, said
from accounts.money import format_cents
from games.words import Sentence, words

__all__ = [
    "INCREASE_DELAY",
    "SELF_EXCLUSION_DAYS",
    "SESSION_GAP",
    "SESSION_MINUTES",
    "TIME_OUT_DAYS",
    "WINDOWS",
    "date_words",
    "duration_words",
    "limit_value_words",
    "moment_words",
]

#: Each period's window, by the suffix of the limits' names.
WINDOWS: dict[str, timedelta] = {
    "day": timedelta(hours=24),
    "week": timedelta(days=7),
    "month": timedelta(days=30),
}
#: An increase or a removal of a limit takes effect this long after it is asked for.
INCREASE_DELAY = timedelta(hours=24)
#: A session goes on across a break shorter than this without a seat anywhere.
SESSION_GAP = timedelta(minutes=30)
#: The lengths a player may choose, inclusive.
TIME_OUT_DAYS = (1, 42)
SELF_EXCLUSION_DAYS = (183, 1826)
SESSION_MINUTES = (10, 24 * 60)
REALITY_MINUTES = (10, 240)
#: The largest money limit a player may set: $1,000,000.00.
MAX_LIMIT_CENTS = 100_000_000


def moment_words(moment: datetime) -> str:
    """A moment as the refusals write it: as the pages do, in UTC (accounts/language.py).

    >>> from datetime import UTC
    >>> moment_words(datetime(2026, 12, 2, 14, 5, 31, tzinfo=UTC))
    '2026-12-02 14:05 UTC'
    """
    return moment_text(moment)


def date_words(moment: datetime) -> str:
    """The day an exclusion ends.

    >>> from datetime import UTC
    >>> date_words(datetime(2027, 5, 30, 9, 0, tzinfo=UTC))
    '2027-05-30'
    """
    return day_text(moment.date())


def duration_words(minutes: int) -> Sentence:
    """Minutes in hours and minutes, as people say them: a sentence of the rules
    (games.words), so the refusals that name a duration say it in the reader's language, and a
    page says it with ``accounts.language.said``.

    >>> duration_words(120), duration_words(90), duration_words(45), duration_words(61)
    ('2 hours', '1 hour 30 minutes', '45 minutes', '1 hour 1 minute')
    """
    hours, rest = divmod(int(minutes), 60)
    # Spanish and Norwegian, like English, say the singular for one alone.
    hour_words = words("1 hour") if hours == 1 else words("{hours} hours", hours=hours)
    minute_words = words("1 minute") if rest == 1 else words("{minutes} minutes", minutes=rest)
    if hours and rest:
        # Translators: a duration: {hours} such as "1 hour", {minutes} such as "30 minutes".
        return words("{hours} {minutes}", hours=hour_words, minutes=minute_words)
    return hour_words if hours else minute_words


def limit_value_words(limit: str, value: int | None) -> str:
    """A limit's value: dollars, or a duration for the session and the reality check, in the
    active language (for pages).

    >>> limit_value_words("loss_day", 5000), limit_value_words("session_minutes", 90)
    ('$50.00', '1 hour 30 minutes')
    >>> limit_value_words("buy_in_week", None)
    'no limit'
    """
    if value is None:
        return _("no limit")
    if limit.endswith("_minutes"):
        return said(duration_words(value))
    return format_cents(value)
