"""Driving a tournament's table from a test as the clock does: bots act, deadlines pass,
levels rise, with a moment that only moves forward."""

from __future__ import annotations

from datetime import datetime, timedelta

from cardroom.clock.bots import THINK_RANGE, bots_sweep
from cardroom.models import Tournament, TournamentStatus
from cardroom.tables.runtime import table_timeout
from cardroom.tournaments.levels import levels_sweep

STEP = timedelta(milliseconds=5)


def play_out(tournament: Tournament, now: datetime, *, steps: int = 5000) -> datetime:
    """Run the clock, the bots and the levels until the tournament is over; returns the
    moment reached. Each step: the bots whose pause is over act; else the table's deadline
    passes (its timeout is applied); the levels due rise."""
    think = timedelta(seconds=THINK_RANGE[1] + 0.1)
    for _ in range(steps):
        tournament.refresh_from_db()
        if tournament.status != TournamentStatus.RUNNING:
            return now
        table = tournament.table
        assert table is not None
        table.refresh_from_db()
        levels_sweep(now=now)
        if bots_sweep(now=max(now, table.updated + think)):
            continue
        table.refresh_from_db()
        if table.deadline is not None:
            now = max(now, table.deadline) + STEP
            table_timeout(table_id=table.pk, now=now)
        else:
            now += timedelta(seconds=1)
    raise AssertionError(f"tournament {tournament.pk} still running after {steps} steps")
