"""Which hands a player played: those they were dealt into (docs/statistics.md, "Hands").

One definition for every page that counts or lists a player's hands, so that the statistics'
"hands played" and the hands listed under "Your hands" agree: a sitter who sat a hand out,
or sat down while it was in play, was dealt nothing and did not play it.

A hand's events name seats, not people. Cards dealt face down to a seat are a private event
whose ``readers`` were fixed, when it was recorded, to the one user sitting there
(``HandEvent.readers``): that names the seat's player for the hand exactly, whoever sat there
before or after. No Peek deals blind, to be read by nobody, so for a blind deal the seat's
tenure (``Seat.joined`` to ``Seat.left``) names the player instead. Voided hands are left out:
everything in them went back.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from django.db.models import Exists, IntegerField, OuterRef, Q, QuerySet
from django.db.models.fields.json import KT
from django.db.models.functions import Cast

from cardroom.models import HandEvent, Seat

__all__ = ["BLIND_DEAL", "DEAL", "dealt", "player_deals", "seat_field", "tenure"]

#: Cards dealt face down to a seat, readable by its player.
DEAL = "cards_dealt"
#: No Peek: cards dealt face down that nobody may read until the reveal.
BLIND_DEAL = "blind_cards_dealt"


def seat_field(field: str) -> Cast:
    """The event's ``data[field]`` as a seat number."""
    return Cast(KT(f"data__{field}"), IntegerField())


def dealt(bounds: Mapping[str, datetime]) -> QuerySet[HandEvent]:
    """Every deal to a seat of a hand that was not voided, filtered by ``bounds`` (lookups on
    the event, such as ``{"created__gte": ...}``), each with its ``seat_number`` (no ordering:
    these are aggregated, and the model's ordering would join the table for nothing)."""
    return (
        HandEvent.objects.filter(type__in=(DEAL, BLIND_DEAL), hand__isnull=False)
        .filter(hand__void_reason="", **bounds)
        .annotate(seat_number=seat_field("seat"))
        .filter(seat_number__isnull=False)
        .order_by()
    )


def tenure() -> QuerySet[Seat]:
    """Seats held at the outer event's table, seat number and moment."""
    return Seat.objects.filter(
        Q(left__isnull=True) | Q(left__gte=OuterRef("created")),
        table=OuterRef("table"),
        number=OuterRef("seat_number"),
        joined__lte=OuterRef("created"),
    )


def player_deals(*, user_id: int, bounds: Mapping[str, datetime]) -> QuerySet[HandEvent]:
    """The deals to the user ``user_id`` within ``bounds`` (see the module docstring)."""
    tables = Seat.objects.filter(user_id=user_id).values("table_id")
    return (
        dealt(bounds)
        .filter(table_id__in=tables)
        .filter(
            Q(type=DEAL, readers__0=user_id)
            | Q(Exists(tenure().filter(user_id=user_id)), type=BLIND_DEAL)
        )
    )
