"""The "How to play" pages: the rules in ``docs/rules/``, served as pages of the site.

The Markdown files are the one source of the rules, read the same in the repository and here.
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

import markdown
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

__all__ = ["GAME_PAGES", "PAGES", "Page", "howto_index", "howto_page", "page_html"]

RULES_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"


@dataclass(frozen=True, slots=True)
class Page:
    """One rules page: its slug (the file's name), title (the file's heading), a line saying
    what it covers, and the table games (``cardroom.models.Game``) whose rules it holds."""

    slug: str
    title: str
    summary: str
    games: tuple[str, ...]


PAGES: tuple[Page, ...] = (
    Page(
        "guts-online",
        "Guts online: Monte Carlo and Survivor",
        "Three cards, In or Out at once on a timer; losers match the pot.",
        ("guts",),
    ),
    Page(
        "guts-classic",
        "Classic Guts and its house rules",
        "The home game: ghost hands, pot limit and reserve, Hi-Lo, 3-5-7, Nuts, Toh and more.",
        ("classic_guts",),
    ),
    Page(
        "chinese-poker",
        "Chinese Poker",
        "Thirteen cards set into three rows, scored pair by pair.",
        ("chinese_poker",),
    ),
    Page(
        "three-card-poker",
        "Three Card Poker",
        "Ante, Play and Pair Plus against the house, with the exact odds.",
        ("three_card_poker",),
    ),
)
_BY_SLUG = {page.slug: page for page in PAGES}
#: A table's game → the slug of the page with its rules.
GAME_PAGES: dict[str, str] = {game: page.slug for page in PAGES for game in page.games}

#: A link to a sibling page as the Markdown files write it: its file name, maybe an anchor.
_PAGE_LINK = re.compile(r'href="([a-z-]+)\.md(#[^"]*)?"')


def page_html(slug: str) -> SafeString:
    """The page's HTML, rendered again only when its file has changed."""
    path = RULES_DIR / f"{slug}.md"
    # Safe to mark: the files are the project's own, rendered without extra HTML passthrough.
    return mark_safe(_render(path, path.stat().st_mtime_ns))


@lru_cache(maxsize=16)
def _render(path: Path, mtime_ns: int) -> str:
    html = markdown.markdown(path.read_text(encoding="utf-8"), extensions=["tables", "toc"])
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
    context = {"page": page, "body": page_html(slug), "pages": PAGES}
    return render(request, "cardroom/howto_page.html", context)
