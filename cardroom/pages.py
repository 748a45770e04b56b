"""The context of the table page, shared by the page view and the page's socket.

One function builds it, so the first render and every push draw the same partials from the
same data.
"""

from __future__ import annotations

from typing import Any

from accounts.models import User
from accounts.selectors import bankroll_balance
from cardroom.house_rules import house_rules
from cardroom.models import Table
from cardroom.presentation import describe_table
from cardroom.selectors import current_commitment, recent_hands, table_state

__all__ = ["table_page_context"]


def table_page_context(*, table: Table, user: User, oob: bool = False) -> dict[str, Any]:
    """Everything the table page's regions draw, for one viewer."""
    context = describe_table(table_state(table=table, user_id=user.pk))
    context.update(
        table=table,
        recent=recent_hands(table=table),
        commitment=current_commitment(table=table),
        house_rules=house_rules(table),
        bankroll_cents=bankroll_balance(user=user),
        oob=oob,
    )
    return context
