"""The log of a table's recent hands, as a snapshot carries it (cardroom/tables/snapshots.py):
who won what, the pot, the rake and every payment, or what a hand without a winner came to.

Contracts: only finished hands are listed, newest first, each player named as they were seated
when the hand was played (``seat N`` if nobody was); the sentences are the English ones, keyed,
so that each page says them in its reader's language.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.translation import gettext_noop

from cardroom.models import Hand, Seat, Table
from cardroom.storage.payments import payments_json, seat_finder
from cardroom.storage.rows import finished_hands_paid, seats_since
from games.engine import JSON

__all__ = ["SUMMARIES", "recent_hands"]

#: What a hand without a winner came to, by key. The snapshot that carries the table's log is
#: made once for every viewer (in the runtime's thread, in English): it keeps the English
#: ``summary`` and its ``summary_key``, and each page says the sentence in its reader's language
#: (cardroom/presentation/pages.py).
SUMMARIES = {
    "void": gettext_noop("voided by the house: every stake was returned"),
    "not_dealt": gettext_noop("not dealt: the antes were returned"),
    "bets_returned": gettext_noop("every bet was returned"),
    "all_square": gettext_noop("all square: no units changed hands"),
    "pot_carries": gettext_noop("nobody stayed In; the pot carries"),
    "pot_returned": gettext_noop("the table stopped: the pot went back to those who paid in"),
}


def recent_hands(*, table: Table, limit: int = 8, known: Sequence[JSON] = ()) -> list[JSON]:
    """The table's last few finished hands, for the log: number, pot, rake, who won what and
    ``payments``: every payment of the hand as the ledger recorded it, over all its stages
    (cardroom/storage/payments.py).

    ``known``: a log this function returned for the table earlier, whose hands are taken as
    they were then and not read again: what the owner of a table keeps between its showdowns
    (cardroom/tables/held.py). Only right while none of them has changed since: a hand voided
    after it finished is a new version of the table, which the owner does not hold; a player's
    name changed since stays as it was in the rows kept."""
    # Hand-written reads (cardroom/storage/rows.py): every showdown and every socket's first
    # frame build this log. A hand's deck and commitment leaves, the bulk of its row, are not
    # read; nor are the seats from before these hands. The transfers come with the hands.
    kept = {row["number"]: row for row in known}
    paid = finished_hands_paid(table.pk, limit, kept)
    hands = [hand for hand, _ in paid]
    seats = seats_since(table.pk, min(hand.started for hand in hands)) if hands else []
    rows = []
    for hand, movements in paid:
        result = hand.result or {}

        def name(number: int, hand: Hand = hand) -> str:
            return _player_name(seats, hand, number)

        winners = [
            {"player": name(pair[0]), "amount": pair[1]}
            for pair in result.get("winners", [])
            if isinstance(pair, (list, tuple)) and len(pair) == 2
        ]
        owed = [
            {"player": name(pair[0]), "amount": pair[1]}
            for pair in result.get("owed", [])
            if isinstance(pair, (list, tuple)) and len(pair) == 2
        ]
        # Three Card Poker: each seat's net against the house; Chinese Poker: net units.
        nets = [
            {"player": name(item["seat"]), "amount": item["net"]}
            for item in result.get("results", [])
            if isinstance(item, dict) and item.get("net")
        ]
        units = [
            {"player": name(int(seat)), "units": value}
            for seat, value in (result.get("units") or {}).items()
            if value
        ]
        summary = _no_winner(table.game, hand, result)
        rows.append(
            {
                "nets": nets,
                "units": units,
                "owed": owed,
                "number": hand.number,
                "root": hand.commitment_root,
                "pot": result.get("pot", 0),
                "rake": result.get("rake", 0),
                "winners": winners,
                "void": bool(hand.void_reason),
                "summary": SUMMARIES[summary],
                "summary_key": summary,
                "payments": payments_json(movements, seat_finder(hand, seats)),
            }
        )
    if not kept:
        return rows
    # The last ``limit`` are the ones read and, of those kept, the newest: a kept hand that is
    # no longer among the last is older than every hand that is.
    merged = {**kept, **{row["number"]: row for row in rows}}
    return [merged[number] for number in sorted(merged, reverse=True)[:limit]]


def _player_name(seats: Sequence[Seat], hand: Hand, number: int) -> str:
    """Who sat in seat ``number`` while the finished ``hand`` was played (``seat N``: nobody)."""
    ended = hand.ended
    assert ended is not None  # the log lists finished hands only
    for seat in seats:
        sat_then = seat.joined <= ended and (seat.left is None or seat.left >= hand.started)
        if seat.number == number and sat_then:
            return seat.user.public_name
    return f"seat {number}"


def _no_winner(game: str, hand: Hand, result: JSON) -> str:
    """What a hand without a winner came to, in the game's own terms, as a key of
    ``SUMMARIES`` (shown when nobody won: "the pot carries" is true of Guts only, and never of
    a void, whose stakes went back)."""
    if hand.void_reason:
        return "void"
    if result.get("type") == "hand_not_dealt":
        return "not_dealt"
    if result.get("type") == "pot_returned":
        return "pot_returned"
    if game == "three_card_poker":
        return "bets_returned"
    if game == "chinese_poker":
        return "all_square"
    return "pot_carries"
