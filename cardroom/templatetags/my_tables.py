"""The "my tables" strip of every page (templates/base.html): the tables the logged-in player
sits at, with a "your turn" mark where a decision of theirs is awaited
(cardroom/presentation/my_tables.py). A table page in its compact mode (``?compact=1``, a tile
of the tiled view) draws no strip but still loads the strip's script, which tells the other
pages of the browser when the turn comes and goes there."""

from __future__ import annotations

from typing import Any

from django import template

from cardroom.presentation.my_tables import my_tables

register = template.Library()


@register.inclusion_tag("cardroom/partials/_my_tables.html", takes_context=True)
def my_tables_strip(context: template.Context) -> dict[str, Any]:
    """The strip's context: nothing for a visitor; for a player their tables (one query), none
    read in the compact mode, which draws no strip."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if request is None or user is None or not user.is_authenticated:
        return {"player": False}
    compact = request.GET.get("compact") == "1"
    tables = [] if compact else my_tables(user)
    return {"player": True, "compact": compact, "tables": tables, "tiled": len(tables) > 1}
