"""The "How to play" pages: the rules in ``docs/rules/``, served as pages of the site.

The Markdown files are the one source of the rules, read the same in the repository and here;
a page translated into the reader's language lives beside them in ``docs/rules/<language>/``
(docs/languages.md), and a page not translated yet is shown in English.
They are ours, so they are rendered as Python-Markdown renders them, with no extra raw-HTML
passthrough; each render is cached until its file changes. Links between the pages (a sibling
file's name, maybe with an anchor) become links to the served pages, and tables take the site's
table style.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import markdown
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

if TYPE_CHECKING:  # django-stubs is a development tool: at run time the name is a string
    from django_stubs_ext import StrOrPromise

__all__ = ["GAME_PAGES", "PAGES", "Page", "howto_index", "howto_page", "page_html", "rules_path"]

RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "rules"


@dataclass(frozen=True, slots=True)
class Page:
    """One rules page: its slug (the file's name), title (the file's heading), a line saying
    what it covers, and the table games (``cardroom.models.Game``) whose rules it holds."""

    slug: str
    title: StrOrPromise  # translated when shown (lazy)
    summary: StrOrPromise
    games: tuple[str, ...]


PAGES: tuple[Page, ...] = (
    Page(
        "guts-online",
        _("Guts online: Monte Carlo and Survivor"),
        _("Three cards, In or Out at once on a timer; losers match the pot."),
        ("guts",),
    ),
    Page(
        "guts-classic",
        _("Classic Guts and its house rules"),
        _("The home game: ghost hands, pot limit and reserve, Hi-Lo, 3-5-7, Nuts, Toh and more."),
        ("classic_guts",),
    ),
    Page(
        "chinese-poker",
        _("Chinese Poker"),
        _("Thirteen cards set into three rows, scored pair by pair."),
        ("chinese_poker",),
    ),
    Page(
        "three-card-poker",
        _("Three Card Poker"),
        _("Ante, Play and Pair Plus against the house, with the exact odds."),
        ("three_card_poker",),
    ),
)
_BY_SLUG = {page.slug: page for page in PAGES}
#: A table's game → the slug of the page with its rules.
GAME_PAGES: dict[str, str] = {game: page.slug for page in PAGES for game in page.games}

#: A link to a sibling page as the Markdown files write it: its file name, maybe an anchor.
_PAGE_LINK = re.compile(r'href="([a-z-]+)\.md(#[^"]*)?"')


def rules_path(slug: str, language: str | None = None) -> Path:
    """The page's Markdown in ``language`` (the active one by default), else the English."""
    language = language or translation.get_language() or "en"
    translated = RULES_DIR / language / f"{slug}.md"
    return translated if translated.exists() else RULES_DIR / f"{slug}.md"


def page_html(slug: str, language: str | None = None) -> SafeString:
    """The page's HTML, rendered again only when its file has changed."""
    path = rules_path(slug, language)
    # Safe to mark: the files are the project's own, rendered without extra HTML passthrough.
    return mark_safe(_render(path, path.stat().st_mtime_ns))


@lru_cache(maxsize=16)
def _render(path: Path, mtime_ns: int) -> str:
    # attr_list: a translated heading keeps the English heading's anchor ({#hand-rankings}), so
    # links between pages and from the tables work in every language.
    text = path.read_text(encoding="utf-8")
    html = markdown.markdown(text, extensions=["tables", "toc", "attr_list"])
    html = _PAGE_LINK.sub(_served_link, html)
    return html.replace("<table>", '<table class="ledger">')


def _served_link(match: re.Match[str]) -> str:
    slug, anchor = match.group(1), match.group(2) or ""
    if slug not in _BY_SLUG:
        return match.group(0)
    return f'href="{reverse("howto-page", args=[slug])}{anchor}"'


def howto_index(request: HttpRequest) -> HttpResponse:
    """Every rules page, for anyone (no login needed to read the rules)."""
    return render(request, "cardroom/howto_index.html", {"pages": PAGES})


def howto_page(request: HttpRequest, slug: str) -> HttpResponse:
    """One game's rules."""
    page = _BY_SLUG.get(slug)
    if page is None:
        raise Http404("no such rules page")
    language = translation.get_language() or "en"
    context = {
        "page": page,
        "body": page_html(slug, language),
        "pages": PAGES,
        # Said on the page when the rules are not translated into the reader's language yet.
        "in_english": not language.startswith("en")
        and rules_path(slug, language) == RULES_DIR / f"{slug}.md",
    }
    return render(request, "cardroom/howto_page.html", context)
