"""The context of the table page, shared by the page view and the page's socket.

One function builds it, so the first render and every push draw the same partials from the
same data.
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext

from accounts.models import TransferKind, User
from accounts.money import format_cents
from accounts.selectors import bankroll_balance
from cardroom.models import Table
from cardroom.presentation import describe_table
from cardroom.presentation.house_rules import house_rules
from cardroom.presentation.howto import GAME_PAGES
from cardroom.presentation.payment_words import payments_said
from cardroom.tables.chips import CHIPS_REFUSED
from cardroom.tables.hand_log import SUMMARIES
from cardroom.tables.snapshots import snapshot_from_db, state_frame, table_from

__all__ = ["page_context", "result_banner", "table_page_context", "void_banner"]

#: After a hand, while its result is on the table (the pause before the next one), the viewer
#: is told what it meant for them in a banner: the log below says it for everyone. A stage's
#: result (3-5-7, Toh...) shows while ``stage_over``.
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
    if table.plays_for_chips:
        _without_refused(context)
    _top_up_within(context, bankroll_cents)
    recent = [_in_words(hand) for hand in snapshot.get("recent", [])]
    shown = shown_result(context, recent, snapshot.get("commitment"))
    if shown is not None:
        # The winners of the result on show are lit on their seats.
        won = _stage_nets(context) if context.get("phase") == "stage_over" else {}
        names = {name for name, cents in won.items() if cents > 0}
        names |= {row["player"] for row in shown.get("winners", [])}
        names |= {row["player"] for row in shown.get("nets", []) if row["amount"] > 0}
        for seat in context.get("seats", []):
            seat["won"] = seat.get("player") in names
    context.update(
        result_banner=result_banner(context, recent, snapshot.get("commitment")),
        table=table,
        recent=recent,
        commitment=snapshot["commitment"],
        house_rules=house_rules(table),
        bankroll_cents=bankroll_cents,
        oob=oob,
    )
    return context


def _without_refused(context: dict[str, Any]) -> None:
    """A tournament's table offers no control its runtime refuses there (sitting down, a
    top-up, leaving: cardroom/tables/chips.py), nor their amounts typed in dollars from the
    bankroll."""
    for name in ("buttons", "decisions", "seat_controls"):
        if name in context:
            context[name] = [button for button in context[name] if button.kind not in CHIPS_REFUSED]
    context["sit_here"] = None


def _top_up_within(context: dict[str, Any], bankroll_cents: int) -> None:
    """The top-up form's most: the table's room under its largest stack (the game's ``max``,
    when it has one) and never more than the viewer's bankroll, whence the chips come (the
    ledger refuses more). The least is a cent, as the games take any amount above $0.00. With
    nothing that could be added (an empty bankroll), no form."""
    for button in context.get("seat_controls", []):
        field = button.amount_input
        if button.kind != "top_up" or field is None:
            continue
        room = field.get("max")
        most = bankroll_cents if room is None else min(room, bankroll_cents)
        least = field.get("min") or 1
        if most < least:
            for name in ("seat_controls", "buttons"):
                context[name] = [other for other in context[name] if other is not button]
            continue
        field.update(min=least, max=most, min_text=format_cents(least), max_text=format_cents(most))


#: The kind of transfer that is a pot won (its phrases lead the log's line).
WON = TransferKind.POT_WIN


def _in_words(hand: dict[str, Any]) -> dict[str, Any]:
    """A hand of the table's log with its words in the reader's language: the snapshot, shared
    by every viewer, keeps the English and the key of its sentence (``summary_key``), and its
    payments as JSON (``said``: them in phrases)."""
    key = hand.get("summary_key")
    said = payments_said(hand.get("payments") or [])
    words = {
        "said": said,
        # The line leads with who won; the other payments follow.
        "said_wins": [phrase["text"] for phrase in said if phrase["kind"] == WON],
        "said_rest": [phrase["text"] for phrase in said if phrase["kind"] != WON],
    }
    if key not in SUMMARIES:
        return {**hand, **words}
    return {**hand, "summary": gettext(SUMMARIES[key]), **words}


def shown_result(
    context: dict[str, Any], recent: list[dict[str, Any]], commitment: dict[str, Any] | None
) -> dict[str, Any] | None:
    """The result on show for the viewer's table now: a stage's (``{}``: it is in the view's
    ``stage_result``) while ``stage_over``; in a pause, the last hand of the log, if it is the
    deal just ended (no hand has been opened since: the open hand's ``commitment``); else
    ``None``. A result belongs to its deal or stage, never to the next."""
    phase = context.get("phase")
    if phase not in RESULT_PHASES:
        return None
    if phase == "stage_over":
        return {}
    if not recent:
        return None
    last = recent[0]
    if commitment is not None and int(commitment.get("number", 0)) > int(last["number"]):
        return None  # the next hand has begun: its antes or its deal
    return last


def _stage_nets(context: dict[str, Any]) -> dict[str, int]:
    """Each player's money won (positive) or paid in the stage just settled, by name: its
    payments between players and into the pot (``stage_result``)."""
    view = context.get("view") or {}
    names = {seat.get("seat"): seat.get("player") for seat in view.get("seats", [])}
    nets: dict[str, int] = {}
    for line in view.get("stage_result") or []:
        amount = line.get("amount")
        if not isinstance(amount, int):
            continue
        if line.get("kind") == "paid":
            for seat, sign in ((line.get("payer"), -1), (line.get("payee"), 1)):
                name = names.get(seat)
                if name is not None:
                    nets[name] = nets.get(name, 0) + sign * amount
        elif line.get("kind") == "matched":
            name = names.get(line.get("seat"))
            if name is not None:
                nets[name] = nets.get(name, 0) - amount
    return nets


def void_banner(
    recent: list[dict[str, Any]], commitment: dict[str, Any] | None, name: str | None
) -> dict[str, Any] | None:
    """A hand the house voided (cardroom/tables/control.py), said to every viewer until the
    next hand begins, whatever the phase the table went back to: with what came back to the
    viewer ``name`` (the void's transfers to them less those from them), when anything did."""
    if not recent or not recent[0].get("void"):
        return None
    last = recent[0]
    if commitment is not None and int(commitment.get("number", 0)) > int(last["number"]):
        return None  # the next hand has begun
    voids = [row for row in last.get("payments") or [] if row.get("kind") == TransferKind.VOID]
    back = sum(row["amount"] for row in voids if name is not None and row.get("to") == name)
    back -= sum(row["amount"] for row in voids if name is not None and row.get("from") == name)
    if back > 0:
        # Translators: number is the hand's number; amount is the money returned to the reader.
        text = gettext(
            "The house voided hand #%(number)s and returned every stake: %(amount)s back to you."
        ) % {"number": last["number"], "amount": format_cents(back)}
    else:
        text = gettext("The house voided hand #%(number)s and returned every stake.") % {
            "number": last["number"]
        }
    return {"kind": "void", "text": text, "hand": last["number"], "stage": None}


def result_banner(
    context: dict[str, Any],
    recent: list[dict[str, Any]],
    commitment: dict[str, Any] | None = None,
) -> dict[str, Any] | None:
    """ "You won $12.40" / "You pay $10.00": what the result on show (``shown_result``) meant
    for the viewer, with the ``hand`` and ``stage`` it belongs to (``stage``: ``None`` for a
    deal's result). None when it moved no money of theirs, and once the next deal or stage
    has begun. A voided hand is said instead (``void_banner``), to seated and watching alike."""
    you = next((seat for seat in context.get("seats", []) if seat.get("is_you")), None)
    voided = void_banner(recent, commitment, you.get("player") if you else None)
    if voided is not None:
        return voided
    shown = shown_result(context, recent, commitment)
    if you is None or shown is None:
        return None
    name = you.get("player")
    if not shown:
        stage = (context.get("view") or {}).get("stage") or {}
        net = _stage_nets(context).get(str(name), 0)
        hand = commitment.get("number") if commitment else None
        belongs = {"hand": hand, "stage": stage.get("number")}
        if net > 0:
            text = gettext("You won %(amount)s") % {"amount": format_cents(net)}
            return {"kind": "won", "text": text, **belongs}
        if net < 0:
            # Translators: what the viewer must match into the pot after losing a hand.
            text = gettext("You pay %(amount)s") % {"amount": format_cents(-net)}
            return {"kind": "lost", "text": text, **belongs}
        return None
    belongs = {"hand": shown.get("number"), "stage": None}
    won = sum(row["amount"] for row in shown.get("winners", []) if row["player"] == name)
    net = sum(row["amount"] for row in shown.get("nets", []) if row["player"] == name)
    owes = sum(row["amount"] for row in shown.get("owed", []) if row["player"] == name)
    if won or net > 0:
        text = gettext("You won %(amount)s") % {"amount": format_cents(won or net)}
        return {"kind": "won", "text": text, **belongs}
    if owes:
        # Translators: what the viewer must match into the pot after losing a hand.
        text = gettext("You pay %(amount)s") % {"amount": format_cents(owes)}
        return {"kind": "lost", "text": text, **belongs}
    if net < 0:
        text = gettext("You lost %(amount)s") % {"amount": format_cents(-net)}
        return {"kind": "lost", "text": text, **belongs}
    return None
