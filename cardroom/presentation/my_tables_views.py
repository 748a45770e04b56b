"""The pages of a player at several tables: the strip's JSON and the tiled view.

``/my-tables.json`` is what the strip of every page polls (static/js/my_tables.js): the
player's own tables only, never cached. ``/tables/tiled/`` shows up to :data:`TILES` of them
side by side, each a working table page in its compact mode (framed from this site only: the
table page allows its own origin to frame it).
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache

from accounts.models import User
from cardroom.presentation.my_tables import TILES, my_tables, tables_json

__all__ = ["my_tables_json", "tiled_tables"]


@never_cache
def my_tables_json(request: HttpRequest) -> HttpResponse:
    """The player's tables and turns (:func:`tables_json`); 401 with a sentence when logged
    out (a poll gets words, not the login page's HTML)."""
    if not request.user.is_authenticated:
        return JsonResponse({"error": gettext("Log in to see your tables.")}, status=401)
    user: User = request.user
    return JsonResponse(tables_json(user))


@login_required
def tiled_tables(request: HttpRequest) -> HttpResponse:
    """Up to four of the player's tables in a grid: those chosen (``?t=<id>`` repeated, in the
    player's own tables only), else the first four joined."""
    user: User = request.user  # type: ignore[assignment]
    tables = my_tables(user)
    chosen = {value for value in request.GET.getlist("t") if value.isdigit()}
    shown = [table for table in tables if str(table.id) in chosen][:TILES] or tables[:TILES]
    context = {
        "tables": tables,
        "shown": shown,
        "shown_ids": {table.id for table in shown},
        "tiles": TILES,
    }
    return render(request, "cardroom/tiled.html", context)
