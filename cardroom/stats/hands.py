"""Whose hand was whose: a player's deals, read from the hand histories (docs/statistics.md).

A player's *deals* are the cards dealt to them (cardroom/history/deals.py has the one
definition, which "Your hands" lists by too): one or more per hand they were dealt into (a
game in stages deals again). Events of the same hand naming the same seat (a declare, a bet's
result, a pair's score) are the player's too: :func:`of_player` finds them, :func:`at_seat`
asks whether a deal's hand has one.
"""

from __future__ import annotations

from django.db.models import BigIntegerField, Exists, OuterRef, QuerySet, Subquery
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, Coalesce
from django.db.models.lookups import Exact

from accounts.models import User
from cardroom.history import deals as dealing
from cardroom.history.deals import BLIND_DEAL, DEAL
from cardroom.models import HandEvent, Seat
from cardroom.stats.period import Period

__all__ = ["BLIND_DEAL", "DEAL", "at_seat", "deal_events", "of_player", "player_deals"]

_seat = dealing.seat_field


def _dealt(period: Period) -> QuerySet[HandEvent]:
    """Every deal to a seat in the period, of hands that were not voided."""
    return dealing.dealt(period.bounds("created"))


def _tenure() -> QuerySet[Seat]:
    """Seats held at the outer event's table, seat number and moment."""
    return dealing.tenure()


def player_deals(*, user: User, period: Period) -> QuerySet[HandEvent]:
    """The player's deals in the period (cardroom/history/deals.py)."""
    return dealing.player_deals(user_id=user.pk, bounds=period.bounds("created"))


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
