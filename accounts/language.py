"""The player's language: amounts for the locale, the rules' sentences translated, and the
language of a socket (docs/languages.md).

Pages take the language from Django's LocaleMiddleware (the switcher's cookie, else the
browser's Accept-Language). A socket has no request: ``scope_language`` reads the same cookie
and header from its handshake, and its consumer says every message under that language.

It lives in accounts, the lower of the two apps, so that the cashier's pages and the cardroom's
say amounts and the rules' sentences alike while accounts imports nothing of the cardroom.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import UTC, date, datetime
from typing import Any

from django.conf import settings
from django.utils import dateformat, formats, translation
from django.utils.translation import gettext
from django.utils.translation.trans_real import parse_accept_lang_header

from games.words import say

__all__ = [
    "DAY_FORMATS",
    "MINUS",
    "MOMENT_FORMATS",
    "cash_text",
    "chips_text",
    "counting_chips",
    "day_text",
    "moment_format",
    "moment_text",
    "money_text",
    "said",
    "scope_language",
]


#: The one minus sign of every amount a person reads, in every language: U+2212, as wide as
#: the plus and never split from its number. Exports read by programs (CSV, JSON) carry plain
#: integers with the ASCII "-" instead.
MINUS = "\u2212"


#: Whether the amounts being drawn are a tournament's chips (``Table.plays_for_chips``), not
#: money: set for one render by :func:`counting_chips`. A context variable, so each thread and
#: each socket's task has its own, and a cash table's render pays one read of it and no more.
_CHIPS: ContextVar[bool] = ContextVar("counting_chips", default=False)


@contextmanager
def counting_chips(chips: bool) -> Iterator[None]:
    """Within the block, :func:`money_text` (so ``format_cents``, the ``|cents`` filter and
    :func:`said`) writes amounts as chips when ``chips`` (a tournament's table is drawn) and as
    money otherwise; the render that reads a table sets it from ``table.plays_for_chips``.
    Real money drawn inside such a block (the bankroll, a tournament's prizes) is written with
    :func:`cash_text` (the ``|cash`` filter), which is always money."""
    token = _CHIPS.set(chips)
    try:
        yield
    finally:
        _CHIPS.reset(token)


def money_text(cents: int) -> str:
    """An amount of the table being drawn: money (:func:`cash_text`) or, inside
    :func:`counting_chips`, a tournament's chips (:func:`chips_text`)."""
    return chips_text(cents) if _CHIPS.get() else cash_text(cents)


def cash_text(cents: int) -> str:
    """Dollars and cents with the active language's separators; the currency stays the
    dollar: "$1,234.56" in English, "1.234,56 $" in Spanish, "1 234,56 $" in Norwegian; a
    negative amount starts with :data:`MINUS` ("−$5.00", "−5,00 $")."""
    sign = MINUS if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    thousands = str(formats.get_format("THOUSAND_SEPARATOR"))
    decimal = str(formats.get_format("DECIMAL_SEPARATOR"))
    grouped = f"{whole:,}".replace(",", thousands)
    if (translation.get_language() or "en").startswith("en"):
        return f"{sign}${grouped}{decimal}{rest:02d}"
    return f"{sign}{grouped}{decimal}{rest:02d}\xa0$"


def chips_text(count: int) -> str:
    """A number of tournament chips, which are whole and not money: the number alone, grouped
    as the active language groups its money ("1,500" in English, "1 500" in Spanish and
    Norwegian, with a no-break space), with no currency sign, where a table's money would say
    "$15.00"; a negative count starts with :data:`MINUS`."""
    sign = MINUS if count < 0 else ""
    thousands = str(formats.get_format("THOUSAND_SEPARATOR"))
    return sign + f"{abs(int(count)):,}".replace(",", thousands)


#: Each language's one way of writing a moment and a day (Django's date format characters,
#: only Y m d H i: static/js/local_times.js writes the same pattern in the reader's own time
#: zone). Days come first where the language writes them first; the clock has 24 hours.
MOMENT_FORMATS = {"en": "Y-m-d H:i", "es": "d/m/Y H:i", "nb": "d.m.Y H:i"}
DAY_FORMATS = {"en": "Y-m-d", "es": "d/m/Y", "nb": "d.m.Y"}


def _language() -> str:
    code = (translation.get_language() or "en").split("-")[0]
    return code if code in MOMENT_FORMATS else "en"


def moment_format() -> str:
    """The active language's pattern for a moment (:data:`MOMENT_FORMATS`)."""
    return MOMENT_FORMATS[_language()]


def moment_text(moment: datetime) -> str:
    """A moment as every page writes it before the reader's browser rewrites it in their own
    zone: in UTC, in the active language's pattern, saying its zone ("2026-12-02 14:05 UTC",
    "02/12/2026 14:05 UTC", "02.12.2026 14:05 UTC")."""
    return f"{dateformat.format(moment.astimezone(UTC), moment_format())} UTC"


def day_text(day: date) -> str:
    """A calendar day in the active language's pattern ("2027-05-30", "30/05/2027")."""
    return str(dateformat.format(day, DAY_FORMATS[_language()]))


def said(text: str) -> str:
    """A sentence of the rules (games.words) or a plain message in the active language."""
    return say(text, gettext, money_text)


def _supported(code: str | None) -> str | None:
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code)
    except LookupError:
        return None


def scope_language(scope: Mapping[str, Any]) -> str:
    """The language of a socket's handshake: the switcher's cookie, else Accept-Language,
    else the site's default."""
    cookies = scope.get("cookies") or {}
    chosen = _supported(cookies.get(settings.LANGUAGE_COOKIE_NAME))
    if chosen:
        return chosen
    headers = dict(scope.get("headers") or ())
    accept = headers.get(b"accept-language", b"").decode("latin-1")
    for code, _quality in parse_accept_lang_header(accept):
        found = _supported(code)
        if found:
            return found
    return str(settings.LANGUAGE_CODE)
