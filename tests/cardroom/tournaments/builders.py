"""Tournaments and entries written straight to the database for the read side's tests: the
pages only read them, so no registration, play or ledger move is needed to show them."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from cardroom.models import Table
from cardroom.models.tournaments import Entry, EntryStatus, Tournament, TournamentStatus

LEVELS = [{"ante": 10, "minutes": 5}, {"ante": 20, "minutes": 5}, {"ante": 40, "minutes": 5}]


def tournament(name: str = "Friday Survivor", **fields: Any) -> Tournament:
    """A tournament registering unless told otherwise: Survivor Guts, six seats, $10 + $1,
    1,500 chips, 65/35."""
    values: dict[str, Any] = {
        "game": "guts",
        "preset": "survivor",
        "seats": 6,
        "buy_in": 1_000,
        "fee": 100,
        "chips": 1_500,
        "levels": LEVELS,
        "payouts": [6_500, 3_500],
        **fields,
    }
    return Tournament.objects.create(name=name, **values)


def enter(tournament: Tournament, user, **fields: Any) -> Entry:
    return Entry.objects.create(tournament=tournament, user=user, **fields)


def running(tournament: Tournament, table: Table, *, level: int, deadline: datetime | None):
    """The tournament in play at ``table`` (made a chips table), at ``level``."""
    Table.objects.filter(pk=table.pk).update(plays_for_chips=True)
    table.refresh_from_db()
    tournament.status = TournamentStatus.RUNNING
    tournament.table = table
    tournament.level = level
    tournament.level_deadline = deadline
    tournament.started = deadline
    tournament.save()
    tournament.entries.update(status=EntryStatus.PLAYING)
    return tournament


def finished(tournament: Tournament, ended: datetime, results: list[tuple[Any, int, int, int]]):
    """Finished at ``ended`` with ``results``: (player, place, prize, points), 1st first."""
    tournament.status = TournamentStatus.FINISHED
    tournament.ended = ended
    tournament.save()
    for user, place, prize, points in results:
        status = EntryStatus.WON if place == 1 else EntryStatus.ELIMINATED
        enter(tournament, user, status=status, place=place, prize=prize, points=points)
    return tournament
