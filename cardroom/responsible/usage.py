"""What a player has bought in and won or lost, from the ledger; their play session, from seats.

**Buy-ins** are the transfers from the player's bankroll to a table stack (``buy_in`` and
``top_up``). The **net result** is what the player's table stacks received in play minus what
they gave: every transfer into or out of one of their stacks except the buy-ins, top-ups and
cash-outs, which only move the player's own money between bankroll and table. So antes,
matches, bets, hand fees and payments to other players count as lost when they leave the
stack; pots, payouts, refunds and a void's reversals as won when they come back. A bet in play
counts as lost until it is paid, so the result is never better than what is settled.

A sit-and-go's entry (its buy-in and its fee, from the bankroll) is money put on a table: it
counts as bought in and, until a prize or a refund comes back to the bankroll, as lost.

A **session** is a run of seats with no break of 30 minutes or more without one (a player who
stands up and sits again within 30 minutes plays on in the same session).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Q, QuerySet, Sum

from accounts.models import AccountKind, Transfer, TransferKind
from cardroom.models import Seat
from cardroom.responsible.terms import SESSION_GAP, WINDOWS

__all__ = [
    "NOT_RESULTS",
    "Entry",
    "Session",
    "Usage",
    "binding_moment",
    "net_since",
    "session_of",
    "usage_of",
    "window_entries",
]

#: Transfers of a stack that are not play: the player's own money coming and going.
NOT_RESULTS = (TransferKind.BUY_IN, TransferKind.TOP_UP, TransferKind.CASH_OUT)
BUY_INS = (TransferKind.BUY_IN, TransferKind.TOP_UP)
#: A tournament's entry, paid from the bankroll, and what comes back to the bankroll from it.
ENTRIES = (TransferKind.TOURNAMENT_BUY_IN, TransferKind.TOURNAMENT_FEE)
RETURNS = (TransferKind.PRIZE, TransferKind.TOURNAMENT_REFUND)


@dataclass(frozen=True, slots=True)
class Entry:
    """One transfer of a window: when, and how much it counts."""

    created: datetime
    amount: int


@dataclass(frozen=True, slots=True)
class Usage:
    """Per window (``day``, ``week``, ``month``): cents bought in, and cents lost net (a
    negative loss is a net win)."""

    bought: dict[str, int]
    lost: dict[str, int]


def _bought_in(user_id: int) -> Q:
    return Q(
        kind__in=(*BUY_INS, *ENTRIES), source__user_id=user_id, source__kind=AccountKind.BANKROLL
    )  # fmt: skip


def _into_stack(user_id: int) -> Q:
    return (
        Q(target__user_id=user_id, target__kind=AccountKind.STACK) & ~Q(kind__in=NOT_RESULTS)
    ) | Q(kind__in=RETURNS, target__user_id=user_id, target__kind=AccountKind.BANKROLL)


def _out_of_stack(user_id: int) -> Q:
    return (
        Q(source__user_id=user_id, source__kind=AccountKind.STACK) & ~Q(kind__in=NOT_RESULTS)
    ) | Q(kind__in=ENTRIES, source__user_id=user_id, source__kind=AccountKind.BANKROLL)


def usage_of(*, user_id: int, now: datetime) -> Usage:
    """Buy-ins and net loss in each window ending ``now``: one query."""
    longest = max(WINDOWS.values())
    sums = {}
    for name, span in WINDOWS.items():
        since = Q(created__gt=now - span)
        sums[f"bought_{name}"] = Sum("amount", filter=since & _bought_in(user_id))
        sums[f"won_{name}"] = Sum("amount", filter=since & _into_stack(user_id))
        sums[f"lost_{name}"] = Sum("amount", filter=since & _out_of_stack(user_id))
    row = (
        Transfer.objects.filter(created__gt=now - longest)
        .filter(Q(source__user_id=user_id) | Q(target__user_id=user_id))
        .aggregate(**sums)
    )
    return Usage(
        bought={name: row[f"bought_{name}"] or 0 for name in WINDOWS},
        lost={name: (row[f"lost_{name}"] or 0) - (row[f"won_{name}"] or 0) for name in WINDOWS},
    )


def net_since(*, user_id: int, since: datetime) -> int:
    """The net result (won minus lost, in cents) of the player's play since ``since``."""
    row = Transfer.objects.filter(created__gte=since).aggregate(
        won=Sum("amount", filter=_into_stack(user_id)),
        lost=Sum("amount", filter=_out_of_stack(user_id)),
    )
    return (row["won"] or 0) - (row["lost"] or 0)


def window_entries(*, user_id: int, window: str, now: datetime, buy_ins: bool) -> list[Entry]:
    """The window's buy-ins (each positive), or its results (each a loss: positive when
    lost), oldest first: read only to tell a refused player when the limit allows more."""
    since = now - WINDOWS[window]
    if buy_ins:
        rows = Transfer.objects.filter(_bought_in(user_id), created__gt=since)
        return [Entry(created, amount) for created, amount in _pairs(rows)]
    lost = Transfer.objects.filter(_out_of_stack(user_id), created__gt=since)
    won = Transfer.objects.filter(_into_stack(user_id), created__gt=since)
    entries = [Entry(created, amount) for created, amount in _pairs(lost)]
    entries += [Entry(created, -amount) for created, amount in _pairs(won)]
    return sorted(entries, key=lambda entry: entry.created)


def _pairs(rows: QuerySet[Transfer]) -> list[tuple[datetime, int]]:
    return list(rows.order_by("created", "id").values_list("created", "amount"))


def binding_moment(
    entries: list[Entry], *, total: int, room_needed: int, limit: int, span: timedelta
) -> datetime | None:
    """When enough of the window's entries will have left it for ``room_needed`` more to fit
    under ``limit`` (if nothing else happens); None if that never comes.

    >>> from datetime import UTC
    >>> at = [datetime(2026, 12, 1, hour, tzinfo=UTC) for hour in (9, 10, 11)]
    >>> entries = [Entry(at[0], 100), Entry(at[1], 50), Entry(at[2], 30)]
    >>> binding_moment(entries, total=180, room_needed=40, limit=200, span=timedelta(days=1))
    datetime.datetime(2026, 12, 2, 9, 0, tzinfo=datetime.timezone.utc)
    >>> binding_moment(entries, total=180, room_needed=201, limit=200, span=timedelta(days=1))
    """
    if room_needed > limit:
        return None
    left = total
    for entry in entries:
        left -= entry.amount
        if left + room_needed <= limit:
            return entry.created + span
    return None


@dataclass(frozen=True, slots=True)
class Session:
    """The player's play session: when it began, and (if no seat is held now) when the last
    seat was given up."""

    start: datetime
    last_left: datetime | None

    @property
    def seated(self) -> bool:
        return self.last_left is None


def session_of(*, user_id: int, now: datetime, exclude_seat: int | None = None) -> Session | None:
    """The session in progress at ``now``, or None when the player has been away from every
    table for 30 minutes or more (the next seat begins a new one). ``exclude_seat``: a seat
    row not to count (the one being taken now)."""
    seats = Seat.objects.filter(user_id=user_id)
    if exclude_seat is not None:
        seats = seats.exclude(pk=exclude_seat)
    rows = list(seats.order_by("-joined").values_list("joined", "left")[:200])
    if not rows:
        return None
    rows.sort(key=lambda row: row[0])
    start, end = rows[0]
    for joined, left in rows[1:]:
        if end is not None and joined > end + SESSION_GAP:
            start, end = joined, left
        elif end is not None:
            end = None if left is None else max(end, left)
    if end is not None and now - end >= SESSION_GAP:
        return None
    return Session(start=start, last_left=end)
