"""The context of the table page, shared by the page view and the page's socket.

One function builds it, so the first render and every push draw the same partials from the
same data.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from accounts.models import User
from accounts.selectors import bankroll_balance
from cardroom.howto import GAME_PAGES
from cardroom.models import Table
from cardroom.presentation import describe_table
from cardroom.presentation.house_rules import house_rules
from cardroom.tables.snapshots import snapshot_from_db, state_frame, table_from

__all__ = ["page_context", "table_page_context"]


def table_page_context(*, table: Table, user: User, oob: bool = False) -> dict[str, Any]:
    """Everything the table page draws, for one viewer, read from the database."""
    snapshot = snapshot_from_db(table)
    context = page_context(
        snapshot=snapshot,
        state=state_frame(snapshot, user.pk),
        bankroll_cents=bankroll_balance(user=user),
        oob=oob,
    )
    # The house rules panel links the rules page of the table's game.
    slug = GAME_PAGES.get(table.game)
    context["howto_url"] = reverse("howto-page", args=[slug]) if slug else reverse("howto")
    return context


def page_context(
    *, snapshot: dict[str, Any], state: dict[str, Any], bankroll_cents: int, oob: bool
) -> dict[str, Any]:
    """The regions' context from a snapshot and the viewer's frame: no database read, so the
    page's socket draws every push in memory."""
    table = table_from(snapshot)
    context = describe_table(state)
    context.update(
        table=table,
        recent=snapshot.get("recent", []),
        commitment=snapshot["commitment"],
        house_rules=house_rules(table),
        bankroll_cents=bankroll_cents,
        oob=oob,
    )
    return context
