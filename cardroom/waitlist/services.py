"""The wait list's rules: who may join, who is offered a free seat, who may take it.

The line has priority over passers-by: while anyone waits, a free seat goes to the first in
line. The clock's sweep offers each free seat to the next player without an offer, for
``OFFER_SECONDS``; an offer not taken in time ends that player's place, and the seat goes to
the next. A sit (cardroom/tables/runtime.py) is allowed only where more seats are free than
players ahead of the one sitting, under the table's row lock, so two processes never give one
seat twice.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.language import said
from accounts.models import User
from cardroom.models import Seat, Table, TableStatus
from cardroom.models.waitlist import WaitingPlayer
from cardroom.responsible.checks import exclusion_refusal, limits_row
from cardroom.storage.rows import rows_where
from cardroom.tables.engines import engine_for
from games.words import Sentence, words

__all__ = [
    "OFFER_SECONDS",
    "Place",
    "WaitListError",
    "free_seats",
    "places_by_table",
    "seats_ahead",
    "sit_refusal",
    "wait_list_join",
    "wait_list_leave",
    "waitlist_sweep",
]

#: How long a free seat is held for the player it is offered to.
OFFER_SECONDS = 60


class WaitListError(Exception):
    """A refusal, in the player's words (and language: only pages show these)."""


@dataclass(frozen=True, slots=True)
class Place:
    """One player's place in one table's line, as the lobby and the table page show it."""

    position: int  # 1 for the first in line
    waiting: int  # how many are in line
    offered_until: datetime | None


def free_seats(table: Table) -> list[int]:
    """The seat numbers with nobody in them, as the game shows them to a watcher (no query)."""
    game = engine_for(table.game).game
    view = game.view(game.load(table.state), None)
    return [seat["seat"] for seat in view["seats"] if "player" not in seat]


def _offer_live(offered_until: datetime | None, now: datetime) -> bool:
    return offered_until is not None and offered_until > now


def _in_line(offered_until: datetime | None, now: datetime) -> bool:
    """Still in line: waiting for an offer, or holding one (an expired offer is over)."""
    return offered_until is None or offered_until > now


def seats_ahead(
    line: Iterable[tuple[int, datetime, datetime | None]], user_id: int, now: datetime
) -> int:
    """How many free seats others in the line have a claim to before ``user_id``: every live
    offer, and every player waiting who joined before them (all, if they are not in line).

    ``line``: (user id, joined, offered until) of the table's entries."""
    line = list(line)
    mine = next((joined for uid, joined, _ in line if uid == user_id), None)
    ahead = 0
    for uid, joined, offered_until in line:
        if uid == user_id or not _in_line(offered_until, now):
            continue
        if _offer_live(offered_until, now) or mine is None or joined < mine:
            ahead += 1
    return ahead


def wait_list_join(*, table_id: int, user: User, now: datetime | None = None) -> Place:
    """Put the player in line for a seat (again: their place is kept)."""
    now = now or timezone.now()
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status in (TableStatus.CLOSING, TableStatus.CLOSED):
            raise WaitListError(_("This table is closing: it has no wait list."))
        if table.plays_for_chips:
            raise WaitListError(
                _("This is a tournament's table: it has no wait list; register for a tournament.")
            )
        if Seat.objects.filter(table=table, user=user, left__isnull=True).exists():
            raise WaitListError(_("You already have a seat at this table."))
        refusal = exclusion_refusal(limits_row(user), now)
        if refusal:
            raise WaitListError(said(refusal) + ".")
        line = list(WaitingPlayer.objects.filter(table=table).values_list(
            "user_id", "joined", "offered_until"
        ))  # fmt: skip
        if not any(uid == user.pk for uid, _, _ in line):
            if len(free_seats(table)) > seats_ahead(line, user.pk, now):
                raise WaitListError(_("A seat is free: sit down now, no need to wait."))
            WaitingPlayer.objects.create(table=table, user=user, joined=now)
    place = places_by_table(user=user, table_ids=[table_id], now=now).get(table_id)
    assert isinstance(place, Place)
    return place


def wait_list_leave(*, table_id: int, user: User) -> bool:
    """Take the player out of the line; False when they were not in it."""
    deleted, _ = WaitingPlayer.objects.filter(table_id=table_id, user=user).delete()
    return bool(deleted)


def places_by_table(
    *, user: User, table_ids: Iterable[int] | None = None, now: datetime | None = None
) -> dict[int, Place | int]:
    """For each table with a line: the player's place, or how many wait (one query)."""
    now = now or timezone.now()
    rows = WaitingPlayer.objects.order_by("table_id", "joined", "id")
    if table_ids is not None:
        rows = rows.filter(table_id__in=list(table_ids))
    lines: dict[int, list[tuple[int, datetime | None]]] = {}
    for table_id, uid, offered_until in rows.values_list("table_id", "user_id", "offered_until"):
        if _in_line(offered_until, now):
            lines.setdefault(table_id, []).append((uid, offered_until))
    places: dict[int, Place | int] = {}
    for table_id, line in lines.items():
        places[table_id] = len(line)
        for position, (uid, offered_until) in enumerate(line, start=1):
            if uid == user.pk:
                live = offered_until if _offer_live(offered_until, now) else None
                places[table_id] = Place(position, len(line), live)
    return places


def waitlist_sweep(*, now: datetime | None = None) -> int:
    """End the offers not taken in time and offer each free seat to the next in line; returns
    how many offers were made. One empty query when nobody waits anywhere."""
    now = now or timezone.now()
    tables = WaitingPlayer.objects.order_by().values_list("table_id", flat=True).distinct()
    offered = 0
    for table_id in list(tables):
        offered += _offer_seats(table_id, now)
    return offered


def _offer_seats(table_id: int, now: datetime) -> int:
    with transaction.atomic():
        # The table's lock orders this with every sit at it.
        table = Table.objects.select_for_update().get(pk=table_id)
        entries = list(WaitingPlayer.objects.filter(table=table).order_by("joined", "id"))
        seated = set(
            Seat.objects.filter(table=table, left__isnull=True).values_list("user_id", flat=True)
        )
        over = [
            entry.pk
            for entry in entries
            if table.status in (TableStatus.CLOSING, TableStatus.CLOSED)
            or entry.user_id in seated
            or not _in_line(entry.offered_until, now)
        ]
        if over:
            WaitingPlayer.objects.filter(pk__in=over).delete()
        line = [entry for entry in entries if entry.pk not in over]
        if table.status != TableStatus.OPEN:
            return 0  # a paused table keeps its line; nobody sits down meanwhile
        live = sum(1 for entry in line if _offer_live(entry.offered_until, now))
        to_offer = [entry for entry in line if entry.offered_until is None]
        to_offer = to_offer[: max(0, len(free_seats(table)) - live)]
        until = now + timedelta(seconds=OFFER_SECONDS)
        if to_offer:
            WaitingPlayer.objects.filter(pk__in=[entry.pk for entry in to_offer]).update(
                offered_until=until
            )
        return len(to_offer)


def sit_refusal(table: Table, user: User, free: list[int], now: datetime) -> Sentence | None:
    """Why ``user`` may not take a free seat now (the line is ahead of them), or None; takes
    them out of the line when they may. Called by the runtime under the table's lock."""
    # Hand-written: read on every sit, where the ORM's building of the query cost more than
    # the database's answer (usually: nobody waits).
    line: list[Any] = [
        (entry.user_id, entry.joined, entry.offered_until)
        for entry in rows_where(WaitingPlayer, "table_id", table.pk)
        if isinstance(entry, WaitingPlayer)
    ]
    if not line:
        return None
    if len(free) <= seats_ahead(line, user.pk, now):
        # A sentence of the rules (games.words): the runtime refuses the sit with it, and the
        # socket says it in the player's language.
        return words(
            "the free seat is held for a player on the wait list; join the wait list and "
            "you will be offered the next seat"
        )
    if any(uid == user.pk for uid, _, _ in line):
        WaitingPlayer.objects.filter(table=table, user=user).delete()
    return None
