"""The cardroom in the admin, read-only: tables change through the operator console, hands
and their events only through the table runtime, and nothing here adds, edits or deletes.

A table's state and a hand in play hold cards nobody may see yet, so the admin never shows a
table's state, and shows a hand's private events and its deck only once the hand has ended
(docs/architecture.md, "Fairness and the deck commitment": auditors see the full deck).
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy

from accounts.admin import ReadOnlyAdmin
from accounts.language import said
from accounts.models import Transfer
from cardroom.models import Hand, HandEvent, OperatorAction, Round, Seat, Table
from cardroom.models.responsible import Exclusion, LimitChange, PlayerLimits
from cardroom.responsible.terms import limit_value_words
from games.deck import CommitmentError, DeckCommitment
from games.words import sentence_of

__all__ = ["hand_audit", "shown_event_data"]

# The room's own name on the admin's pages, instead of Django's.
admin.site.site_header = gettext_lazy("Cardroom administration")
admin.site.site_title = gettext_lazy("Cardroom administration")
admin.site.index_title = gettext_lazy("Cardroom administration")


def shown_event_data(event: HandEvent, hand: Hand | None) -> Any:
    """An event's data as the admin may show it: a private event of a hand still in play (or
    of no hand) is withheld, since it holds cards nobody at the table has seen."""
    if event.private_to is not None and (hand is None or hand.ended is None):
        return None
    return event.data


def hand_audit(hand: Hand) -> dict[str, Any]:
    """A hand's events in order, its transfers, and whether its deck matches its commitment.

    ``verified``: the stored deck and salts hash to the published root and leaves
    (``DeckCommitment.from_json`` recomputes every hash and raises on a mismatch).
    """
    events = [
        {"event": event, "data": shown_event_data(event, hand), "hidden": False}
        for event in hand.events.order_by("seq")
    ]
    for entry in events:
        entry["hidden"] = entry["data"] is None
        entry["json"] = "" if entry["hidden"] else json.dumps(entry["data"], sort_keys=True)
    problem = ""
    deck: list[dict[str, Any]] = []
    try:
        commitment = DeckCommitment.from_json(hand.deck)
    except (CommitmentError, KeyError, TypeError, ValueError) as error:
        # Translators: %(error)s says what does not match.
        problem = _("the stored deck does not verify: %(error)s") % {
            "error": said(sentence_of(error))
        }
    else:
        if commitment.root != hand.commitment_root:
            problem = _("the stored deck's root is not the published commitment root")
        elif list(commitment.leaves) != list(hand.commitment.get("leaves", [])):
            problem = _("the stored deck's leaves are not the published leaves")
        if hand.ended is not None:
            deck = [
                {"position": index, "card": str(card), "salt": salt}
                for index, (card, salt) in enumerate(
                    zip(commitment.deck, commitment.salts, strict=True)
                )
            ]
    return {
        "hand": hand,
        "events": events,
        "deck": deck,
        "verified": not problem,
        "problem": problem,
        "transfers": Transfer.objects.filter(hand_id=hand.pk)
        .select_related("source", "target")
        .order_by("id"),
    }


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = (
        "id",
        "name",
        "game",
        "preset",
        "status",
        "stakes",
        "bots",
        "version",
        "updated",
    )
    list_filter = ("game", "status")
    search_fields = ("name",)
    exclude = ("state",)


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ("table", "number", "user", "joined", "left", "connections")
    list_filter = ("table",)
    list_select_related = ("table", "user")


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("table", "number", "started", "ended", "end_reason")
    list_filter = ("table",)


@admin.register(Hand)
class HandAdmin(ReadOnlyAdmin):
    list_display = ("id", "table", "number", "started", "ended", "commitment_root", "void_reason")
    list_filter = ("table",)
    list_select_related = ("table",)
    date_hierarchy = "started"

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        """The hand's audit page instead of a form: events, transfers, deck, verification."""
        hand = get_object_or_404(Hand.objects.select_related("table"), pk=object_id)
        if not self.has_view_permission(request, hand):
            raise PermissionDenied
        context = {
            **self.admin_site.each_context(request),
            **hand_audit(hand),
            "opts": self.opts,
            # Translators: %(table)s is a table's name, %(number)s the hand's number.
            "title": _("%(table)s: hand %(number)s")
            % {"table": hand.table.name, "number": hand.number},
        }
        return TemplateResponse(request, "admin/cardroom/hand/audit.html", context)


@admin.register(HandEvent)
class HandEventAdmin(ReadOnlyAdmin):
    list_display = ("table", "hand", "seq", "type", "private_to", "created")
    list_filter = ("type",)
    list_select_related = ("table", "hand")
    exclude = ("data",)
    readonly_fields = ("data_shown",)

    @admin.display(description=gettext_lazy("data"))
    def data_shown(self, event: HandEvent) -> str:
        data = shown_event_data(event, event.hand)
        if data is None:
            return _("(private: shown once the hand has ended)")
        return json.dumps(data, sort_keys=True)


@admin.register(OperatorAction)
class OperatorActionAdmin(ReadOnlyAdmin):
    list_display = ("created", "actor", "kind", "table", "reason")
    list_filter = ("kind", "actor")
    list_select_related = ("actor", "table")
    search_fields = ("reason", "actor__username")


# Responsible gaming (docs/responsible-gaming.md): who is excluded or limited and every change,
# with its times; read-only like everything here (players change their own limits, support
# records exclusions with manage.py exclude, operators lift one in their console).
#: The periods of the limits, as the lists name them.
PERIODS = {
    "day": pgettext_lazy("limit period", "day"),
    "week": pgettext_lazy("limit period", "week"),
    "month": pgettext_lazy("limit period", "month"),
}


def _periods(row: PlayerLimits, kind: str) -> str:
    shown = []
    for period, words in PERIODS.items():
        name = f"{kind}_{period}"
        shown.append(f"{words} {limit_value_words(name, getattr(row, name))}")
    return " · ".join(shown)


@admin.register(PlayerLimits)
class PlayerLimitsAdmin(ReadOnlyAdmin):
    list_display = (
        "user",
        "loss_limits",
        "buy_in_limits",
        "session",
        "reality_minutes",
        "pending_from",
        "excluded_kind",
        "excluded_until",
        "updated",
    )
    list_filter = ("excluded_kind",)
    list_select_related = ("user",)
    search_fields = ("user__username",)
    ordering = ("user__username",)

    @admin.display(description=gettext_lazy("loss limits"))
    def loss_limits(self, row: PlayerLimits) -> str:
        return _periods(row, "loss")

    @admin.display(description=gettext_lazy("buy-in limits"))
    def buy_in_limits(self, row: PlayerLimits) -> str:
        return _periods(row, "buy_in")

    @admin.display(description=gettext_lazy("session limit"))
    def session(self, row: PlayerLimits) -> str:
        return limit_value_words("session_minutes", row.session_minutes)


@admin.register(LimitChange)
class LimitChangeAdmin(ReadOnlyAdmin):
    list_display = (
        "requested",
        "user",
        "limit",
        "from_value",
        "to_value",
        "effective",
        "applied",
        "cancelled",
        "by",
    )
    list_filter = ("limit",)
    list_select_related = ("user", "by")
    search_fields = ("user__username",)
    date_hierarchy = "requested"

    @admin.display(description=pgettext_lazy("limit change", "from"))
    def from_value(self, change: LimitChange) -> str:
        return limit_value_words(change.limit, change.before)

    @admin.display(description=pgettext_lazy("limit change", "to"))
    def to_value(self, change: LimitChange) -> str:
        return limit_value_words(change.limit, change.after)


@admin.register(Exclusion)
class ExclusionAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "start", "end", "recorded_by", "reason", "lifted", "lifted_by")
    list_filter = ("kind",)
    list_select_related = ("user", "recorded_by", "lifted_by")
    search_fields = ("user__username", "reason")
    date_hierarchy = "start"
