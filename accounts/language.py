"""The player's language: amounts for the locale, the rules' sentences translated, and the
language of a socket (docs/languages.md).

Pages take the language from Django's LocaleMiddleware (the switcher's cookie, else the
browser's Accept-Language). A socket has no request: ``scope_language`` reads the same cookie
and header from its handshake, and its consumer says every message under that language.

It lives in accounts, the lower of the two apps, so that the cashier's pages and the cardroom's
say amounts and the rules' sentences alike while accounts imports nothing of the cardroom.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils import formats, translation
from django.utils.translation import gettext
from django.utils.translation.trans_real import parse_accept_lang_header

from games.words import say

__all__ = ["money_text", "said", "scope_language"]


def money_text(cents: int) -> str:
    """Dollars and cents with the active language's separators; the currency stays the
    dollar: "$1,234.56" in English, "1.234,56 $" in Spanish, "1 234,56 $" in Norwegian."""
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    thousands = str(formats.get_format("THOUSAND_SEPARATOR"))
    decimal = str(formats.get_format("DECIMAL_SEPARATOR"))
    grouped = f"{whole:,}".replace(",", thousands)
    if (translation.get_language() or "en").startswith("en"):
        return f"{sign}${grouped}{decimal}{rest:02d}"
    return f"{sign}{grouped}{decimal}{rest:02d}\xa0$"


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
