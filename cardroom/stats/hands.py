"""Whose hand was whose: a player's deals, read from the hand histories (docs/statistics.md).

A hand's events name seats, not people. Cards dealt face down to a seat are a private event
whose ``readers`` were fixed, when it was recorded, to the one user sitting there
(``HandEvent.readers``): that names the seat's player for the hand exactly, whoever sat there
before or after. No Peek deals blind, to be read by nobody, so for a blind deal the seat's
tenure (``Seat.joined`` to ``Seat.left``) names the player instead.

A player's *deals* are those events: one or more per hand they were dealt into (a game in
stages deals again). Voided hands are left out: everything in them went back. Events of the
same hand naming the same seat (a declare, a bet's result, a pair's score) are the player's
too: :func:`of_player` finds them, :func:`at_seat` asks whether a deal's hand has one.
"""

from __future__ import annotations

from django.db.models import (
    BigIntegerField,
    Exists,
    IntegerField,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce
from django.db.models.lookups import Exact

from accounts.models import User
from cardroom.models import HandEvent, Seat
from cardroom.stats.period import Period

__all__ = ["BLIND_DEAL", "DEAL", "at_seat", "deal_events", "of_player", "player_deals"]

#: Cards dealt face down to a seat, readable by its player.
DEAL = "cards_dealt"
#: No Peek: cards dealt face down that nobody may read until the reveal.
BLIND_DEAL = "blind_cards_dealt"


def _dealt(period: Period) -> QuerySet[HandEvent]:
    """Every deal to a seat in the period, of hands that were not voided (no ordering: these
    are aggregated, and the model's ordering would join the table for nothing)."""
    return (
        HandEvent.objects.filter(type__in=(DEAL, BLIND_DEAL), hand__isnull=False)
        .filter(hand__void_reason="", **period.bounds("created"))
        .annotate(seat_number=_seat("seat"))
        .filter(seat_number__isnull=False)
        .order_by()
    )


def _tenure() -> QuerySet[Seat]:
    """Seats held at the outer event's table, seat number and moment."""
    return Seat.objects.filter(
        Q(left__isnull=True) | Q(left__gte=OuterRef("created")),
        table=OuterRef("table"),
        number=OuterRef("seat_number"),
        joined__lte=OuterRef("created"),
    )


def player_deals(*, user: User, period: Period) -> QuerySet[HandEvent]:
    """The player's deals in the period (see the module docstring)."""
    tables = Seat.objects.filter(user=user).values("table_id")
    return (
        _dealt(period)
        .filter(table_id__in=tables)
        .filter(
            Q(type=DEAL, readers__0=user.pk)
            | Q(Exists(_tenure().filter(user=user)), type=BLIND_DEAL)
        )
    )


def deal_events(*, period: Period) -> QuerySet[HandEvent]:
    """Every deal in the period, each with ``player``: the id of the user dealt to."""
    reader = Cast(KT("readers__0"), BigIntegerField())
    sitter = Subquery(_tenure().order_by("-joined").values("user_id")[:1])
    return (
        _dealt(period)
        .annotate(player=Coalesce(reader, sitter, output_field=BigIntegerField()))
        .filter(player__isnull=False)
    )


def of_player(
    events: QuerySet[HandEvent], deals: QuerySet[HandEvent], *, seat: str = "seat"
) -> QuerySet[HandEvent]:
    """The ``events`` whose field ``seat`` names the seat of one of ``deals`` in its hand."""
    mine = deals.filter(Exact(_seat("seat"), OuterRef("named_seat")), hand=OuterRef("hand"))
    return (
        # The hands first: only the player's are searched for the seat.
        events.filter(hand__in=deals.values("hand"))
        .annotate(named_seat=_seat(seat))
        .filter(Exists(mine))
        .order_by()
    )


def at_seat(events: QuerySet[HandEvent], *, seat: str = "seat") -> Exists:
    """Whether the outer deal's hand has one of ``events`` naming the deal's seat in its field
    ``seat`` (the outer query is one of :func:`player_deals`)."""
    return Exists(
        events.filter(hand=OuterRef("hand"))
        .annotate(named_seat=_seat(seat))
        .filter(named_seat=OuterRef("seat_number"))
    )


def _seat(field: str) -> Cast:
    return Cast(KT(f"data__{field}"), IntegerField())
