"""A hand's payments, read from the ledger: who paid whom, how much and what for.

Every transfer the ledger records against a hand is one of its payments, of whatever kind
(``accounts.models.TransferKind``, a kind added later too), except a player's own money moving
between their bankroll and their table stack (sitting down, topping up, cashing out), which pays
nobody. Money moves only through the ledger, so a summary read from here lists every payment of
the hand, whichever event (or none) made it, across all its stages.

A payment is JSON, the same in every language (it crosses Redis in a table's snapshot and
leaves in the hand page's JSON): ``from`` and ``to`` (the player's name, or the place in
English: "the pot", "the reserve", "the house (rake)", "the house", "the cashier"), ``amount``
(cents), ``kind`` (the transfer's) and ``source`` and ``target``, the places as the games name
them: ``stack:N`` or ``bankroll:N`` for a player (N: the seat they held in the hand; a bare
``stack`` or ``bankroll`` when they held none), ``pot``, ``reserve``, ``rake``, ``house`` or
``cashier``. The pages say a payment in their reader's language from it
(cardroom/presentation/payment_words.py).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable
from typing import Any, NamedTuple

from django.db.models import Q

from accounts.models import AccountKind, Transfer
from cardroom.models import Hand, Seat

__all__ = [
    "PLACE_NAMES",
    "Movement",
    "hand_payments",
    "is_payment",
    "movement_of",
    "payment_json",
    "payments_json",
    "seat_finder",
]

#: The places that are nobody's, as a payment names them (English, for programs).
PLACE_NAMES: dict[str, str] = {
    AccountKind.POT: "the pot",
    AccountKind.RESERVE: "the reserve",
    AccountKind.RAKE: "the house (rake)",
    AccountKind.HOUSE: "the house",
    AccountKind.CASHIER: "the cashier",
}
_PLAYERS = (AccountKind.STACK, AccountKind.BANKROLL)


class Movement(NamedTuple):
    """One transfer as a payment reads it: the accounts' kinds, their players (id and name,
    ``None`` for a place) and what moved."""

    amount: int
    kind: str
    source_kind: str
    source_user: int | None
    source_name: str | None
    target_kind: str
    target_user: int | None
    target_name: str | None


def is_payment(movement: Movement) -> bool:
    """Whether a transfer pays anyone: all do but a player's own money between their bankroll
    and their table stack."""
    own = movement.source_user is not None and movement.source_user == movement.target_user
    return not (own and {movement.source_kind, movement.target_kind} == set(_PLAYERS))


def _name(username: str | None, display_name: str | None) -> str | None:
    """A player's public name (``User.public_name``) from the two columns."""
    return (display_name or username) if username is not None else None


def movement_of(transfer: Transfer) -> Movement:
    """A transfer read with its accounts and their users (``select_related``)."""
    source, target = transfer.source, transfer.target
    return Movement(
        transfer.amount,
        transfer.kind,
        source.kind,
        source.user_id,
        source.user.public_name if source.user is not None else None,
        target.kind,
        target.user_id,
        target.user.public_name if target.user is not None else None,
    )


_COLUMNS = (
    "hand_id", "amount", "kind",
    "source__kind", "source__user_id", "source__user__username", "source__user__display_name",
    "target__kind", "target__user_id", "target__user__username", "target__user__display_name",
)  # fmt: skip


def _movements(hand_ids: Collection[int]) -> dict[int, list[Movement]]:
    """The transfers of the hands, by hand, in the ledger's order: one query."""
    found: defaultdict[int, list[Movement]] = defaultdict(list)
    rows = Transfer.objects.filter(hand_id__in=hand_ids).order_by("id").values_list(*_COLUMNS)
    for hand_id, amount, kind, *source, target_kind, target_user, t_name, t_display in rows:
        source_kind, source_user, s_name, s_display = source
        found[hand_id].append(
            Movement(
                amount,
                kind,
                source_kind,
                source_user,
                _name(s_name, s_display),
                target_kind,
                target_user,
                _name(t_name, t_display),
            )
        )
    return found


SeatFinder = Callable[[int], int | None]


def seat_finder(hand: Hand, seats: Iterable[Seat]) -> SeatFinder:
    """Who sat where in ``hand``, from seats of its table: a user → the seat they held during
    the hand (the last, if they moved), or ``None``."""
    ended = hand.ended
    held = {
        seat.user_id: seat.number
        for seat in sorted(seats, key=lambda seat: seat.joined)
        if seat.table_id == hand.table_id
        and (ended is None or seat.joined <= ended)
        and (seat.left is None or seat.left >= hand.started)
    }
    return held.get


def _place(kind: str, user: int | None, seat_of: SeatFinder) -> str:
    if kind not in _PLAYERS or user is None:
        return kind
    seat = seat_of(user)
    return kind if seat is None else f"{kind}:{seat}"


def _party(kind: str, name: str | None) -> str:
    if kind in _PLAYERS and name is not None:
        return name
    return PLACE_NAMES.get(kind, kind)


def payment_json(movement: Movement, seat_of: SeatFinder) -> dict[str, Any]:
    """One payment as JSON (the module's docstring says its fields)."""
    return {
        "from": _party(movement.source_kind, movement.source_name),
        "to": _party(movement.target_kind, movement.target_name),
        "amount": movement.amount,
        "kind": movement.kind,
        "source": _place(movement.source_kind, movement.source_user, seat_of),
        "target": _place(movement.target_kind, movement.target_user, seat_of),
    }


def payments_json(movements: Iterable[Movement], seat_of: SeatFinder) -> list[dict[str, Any]]:
    """The payments among ``movements``, in order, as JSON."""
    return [payment_json(movement, seat_of) for movement in movements if is_payment(movement)]


def hand_payments(hand: Hand) -> list[dict[str, Any]]:
    """Every payment of ``hand``, in the ledger's order, as JSON: two queries (its transfers
    and the seats of the players they name)."""
    movements = _movements([hand.pk]).get(hand.pk, [])
    users = {
        user
        for movement in movements
        for user in (movement.source_user, movement.target_user)
        if user is not None
    }
    seats = Seat.objects.filter(table_id=hand.table_id, user_id__in=users).filter(
        Q(left__isnull=True) | Q(left__gte=hand.started)
    )
    return payments_json(movements, seat_finder(hand, seats if users else ()))
