"""A hand's history as one viewer may read it, with the openings that prove its deck.

Before the deal the table published a root over one salted hash per deck position. After the
hand, everyone gets the openings (card and salt) of the cards that were shown, and each player
privately gets the openings of their own cards, so each can check that the cards dealt were
fixed before the deal. Mucked cards stay hidden from everyone but their owner, and no opening
is given for a card the viewer never saw.

Privacy follows the user, not the seat number: each private event keeps the ids of the users
who may read it (``HandEvent.readers``), fixed when it was recorded, so a player who sat in a
seat earlier in the hand never reads what was dealt to whoever sat there after them. Cards
come from the events' card fields only (:func:`games.events.event_cards`): a player whose name
looks like a card opens nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from cardroom.models import Hand, Seat
from cardroom.presentation.event_words import event_words
from games.deck import DeckCommitment, verify_opening
from games.events import event_cards

__all__ = ["hand_history", "seat_names"]


def seat_names(*, hand: Hand) -> dict[int, str]:
    """Who sat in each seat while ``hand`` was played."""
    ended: datetime = hand.ended or timezone.now()
    seats = Seat.objects.filter(table_id=hand.table_id, joined__lte=ended).filter(
        Q(left__isnull=True) | Q(left__gte=hand.started)
    )
    return {seat.number: seat.user.public_name for seat in seats.select_related("user")}


def hand_history(
    *, hand: Hand, user_id: int | None, names: dict[int, str] | None = None
) -> dict[str, Any]:
    """The events the user ``user_id`` may read (``None``: a spectator, who reads the public
    ones), in order, and the openings of the cards they saw; ``names``: the hand's
    ``seat_names``, when the caller has them already.

    Openings are given only once the hand has ended, and each is checked against the
    published root and leaves.
    """
    if names is None:
        names = seat_names(hand=hand)
    events = []
    public_cards: set[str] = set()
    own_cards: set[str] = set()
    for event in hand.events.order_by("seq"):
        private = event.private_to is not None or event.audience is not None
        if not private:
            public_cards |= event_cards(event.data)
        elif user_id is not None and user_id in (event.readers or ()):
            # A private event names its readers; one without them is read by nobody.
            own_cards |= event_cards(event.data)
        else:
            continue
        events.append(
            {
                "seq": event.seq,
                "type": event.type,
                "data": event.data,
                "words": event_words(event.data, names),
                "private": private,
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
