"""The context of the table page, shared by the page view and the page's socket.

One function builds it, so the first render and every push draw the same partials from the
same data.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext

from accounts.models import User
from accounts.money import format_cents
from accounts.selectors import bankroll_balance
from cardroom.howto import GAME_PAGES
from cardroom.models import Table
from cardroom.presentation import describe_table
from cardroom.presentation.house_rules import house_rules
from cardroom.presentation.payment_words import payments_said
from cardroom.tables.selectors import SUMMARIES
from cardroom.tables.snapshots import snapshot_from_db, state_frame, table_from

__all__ = ["page_context", "result_banner", "table_page_context"]

#: After a hand, while its result is on the table (the pause before the next one), the viewer
#: is told what it meant for them in a banner: the log below says it for everyone.
RESULT_PHASES = frozenset({"pause", "stage_over", "showdown"})


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
    recent = [_in_words(hand) for hand in snapshot.get("recent", [])]
    if recent and context.get("phase") in RESULT_PHASES:
        # The last hand's winners are lit on their seats while its result shows.
        won = {row["player"] for row in recent[0].get("winners", [])}
        won |= {row["player"] for row in recent[0].get("nets", []) if row["amount"] > 0}
        for seat in context.get("seats", []):
            seat["won"] = seat.get("player") in won
    context.update(
        result_banner=result_banner(context, recent),
        table=table,
        recent=recent,
        commitment=snapshot["commitment"],
        house_rules=house_rules(table),
        bankroll_cents=bankroll_cents,
        oob=oob,
    )
    return context


def _in_words(hand: dict[str, Any]) -> dict[str, Any]:
    """A hand of the table's log with its words in the reader's language: the snapshot, shared
    by every viewer, keeps the English and the key of its sentence (``summary_key``), and its
    payments as JSON (``said``: them in phrases)."""
    key = hand.get("summary_key")
    said = payments_said(hand.get("payments") or [])
    if key not in SUMMARIES:
        return {**hand, "said": said}
    return {**hand, "summary": gettext(SUMMARIES[key]), "said": said}


def result_banner(context: dict[str, Any], recent: list[dict[str, Any]]) -> dict[str, str] | None:
    """ "You won $12.40" / "You pay $10.00" for the last hand, while its result is shown."""
    you = next((seat for seat in context.get("seats", []) if seat.get("is_you")), None)
    if you is None or not recent or context.get("phase") not in RESULT_PHASES:
        return None
    hand, name = recent[0], you.get("player")
    won = sum(row["amount"] for row in hand.get("winners", []) if row["player"] == name)
    net = sum(row["amount"] for row in hand.get("nets", []) if row["player"] == name)
    owes = sum(row["amount"] for row in hand.get("owed", []) if row["player"] == name)
    if won or net > 0:
        text = gettext("You won %(amount)s") % {"amount": format_cents(won or net)}
        return {"kind": "won", "text": text}
    if owes:
        # Translators: what the viewer must match into the pot after losing a hand.
        text = gettext("You pay %(amount)s") % {"amount": format_cents(owes)}
        return {"kind": "lost", "text": text}
    if net < 0:
        text = gettext("You lost %(amount)s") % {"amount": format_cents(-net)}
        return {"kind": "lost", "text": text}
    return None
