"""A hand's history as one viewer may read it, with the openings that prove its deck.

DESIGN.md, "Randomness and fairness" and "Hand history": before the deal the table published a
root over one salted hash per deck position. After the hand, everyone gets the openings (card
and salt) of the cards that were shown, and each player privately gets the openings of their own
cards, so each can check that the cards dealt were fixed before the deal. Mucked cards stay
hidden from everyone but their owner: an event private to one seat is in that seat's history
only, and no opening is given for a card the viewer never saw.
"""

from __future__ import annotations

import contextlib
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from cardroom.event_words import event_words
from cardroom.models import Hand, Seat
from games.cards import CardError, parse_card
from games.deck import DeckCommitment, verify_opening

__all__ = ["hand_history", "seat_names", "viewer_seats"]


def viewer_seats(*, hand: Hand, user_id: int) -> set[int]:
    """The seat numbers ``user_id`` held at the hand's table while the hand was played."""
    ended: datetime = hand.ended or hand.started
    seats = Seat.objects.filter(table_id=hand.table_id, user_id=user_id, joined__lte=ended).filter(
        Q(left__isnull=True) | Q(left__gte=hand.started)
    )
    return set(seats.values_list("number", flat=True))


def seat_names(*, hand: Hand) -> dict[int, str]:
    """Who sat in each seat while ``hand`` was played."""
    ended: datetime = hand.ended or timezone.now()
    seats = Seat.objects.filter(table_id=hand.table_id, joined__lte=ended).filter(
        Q(left__isnull=True) | Q(left__gte=hand.started)
    )
    return {seat.number: seat.user.username for seat in seats.select_related("user")}


def _cards_in(value: Any) -> set[str]:
    """Every card named anywhere in an event's data (lists of card texts)."""
    found: set[str] = set()
    if isinstance(value, dict):
        for item in value.values():
            found |= _cards_in(item)
    elif isinstance(value, list):
        for item in value:
            found |= _cards_in(item)
    elif isinstance(value, str) and len(value) == 2:
        with contextlib.suppress(CardError):  # text that is not a card: a name, a choice
            found.add(str(parse_card(value)))
    return found


def hand_history(*, hand: Hand, seats: set[int]) -> dict[str, Any]:
    """The events ``seats`` may read, in order, and the openings of the cards they saw.

    Openings are given only once the hand has ended, and each is checked against the
    published root and leaves.
    """
    names = seat_names(hand=hand)
    events = []
    public_cards: set[str] = set()
    own_cards: set[str] = set()
    for event in hand.events.order_by("seq"):
        if event.audience is not None:
            # A private comparison: its cards are for the players in it, not public.
            if not seats & set(event.audience):
                continue
            own_cards |= _cards_in(event.data)
        elif event.private_to is None:
            public_cards |= _cards_in(event.data)
        elif event.private_to in seats:
            own_cards |= _cards_in(event.data)
        else:
            continue
        events.append(
            {
                "seq": event.seq,
                "type": event.type,
                "data": event.data,
                "words": event_words(event.data, names),
                "private": event.private_to is not None or event.audience is not None,
            }
        )
    openings: list[dict[str, Any]] = []
    if hand.ended is not None and hand.deck:
        commitment = DeckCommitment.from_json(hand.deck)
        positions = {str(card): index for index, card in enumerate(commitment.deck)}
        leaves = hand.commitment.get("leaves", [])
        for card in sorted(public_cards | own_cards, key=lambda text: positions.get(text, 99)):
            opening = commitment.opening(positions[card])
            openings.append(
                {
                    **opening.to_json(),
                    "public": card in public_cards,
                    "verified": verify_opening(hand.commitment_root, leaves, opening),
                }
            )
    return {
        "hand": hand.number,
        "table": hand.table_id,
        "root": hand.commitment_root,
        "leaves": hand.commitment.get("leaves", []),
        "ended": hand.ended is not None,
        "result": hand.result if hand.ended else None,
        "events": events,
        "openings": openings,
    }
