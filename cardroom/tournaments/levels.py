"""The antes rising on the durable clock (docs/tournaments.md, "Levels").

A running tournament's level and the moment it ends are columns of its row
(``Tournament.level``, ``level_deadline``), never a timer in a process: the clock's sweep
(cardroom/clock/clock.py) raises every level whose deadline has passed, so a level survives a
restart exactly as it was, and one whose deadline passed while no clock ran is raised by the
first sweep after. Each raise is one transaction: the table's ``level`` action (the game takes
the new stake from its next ante call or hand, and records ``level_raised``) and the row's new
level and deadline, both or neither. The new level lasts its minutes from the raise (a level
is never cut short by a restart); the last level never ends.

Locks: the table's row first (the runtime's action), then the tournament's (a conditional
update), the order the runtime's hook at that table takes them in, so the two never wait for
each other in a cycle.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from cardroom.models import Tournament, TournamentStatus
from cardroom.tables.runtime import table_apply
from cardroom.tournaments.play import level_deadline, level_stake

__all__ = ["levels_sweep", "raise_level"]

log = logging.getLogger(__name__)


class _Raced(Exception):
    """The tournament changed between the read and the update: undo, and leave it."""


def raise_level(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Raise the tournament's level if its deadline has passed; whether it did."""
    now = now or timezone.now()
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if (
        tournament is None
        or tournament.status != TournamentStatus.RUNNING
        or tournament.table_id is None
        or tournament.level_deadline is None
        or tournament.level_deadline > now
        or tournament.level + 1 >= len(tournament.levels)
    ):
        return False
    level = tournament.level + 1
    try:
        with transaction.atomic():
            table_apply(
                table_id=tournament.table_id,
                action={"kind": "level", "stake": level_stake(tournament, level)},
                now=now,
            )
            changed = Tournament.objects.filter(
                pk=tournament.pk,
                status=TournamentStatus.RUNNING,
                level=tournament.level,
                level_deadline=tournament.level_deadline,
            ).update(level=level, level_deadline=level_deadline(tournament, level, now))
            if not changed:
                over = not Tournament.objects.filter(
                    pk=tournament.pk, status=TournamentStatus.RUNNING
                ).exists()
                if not over:
                    raise _Raced  # another clock raised this level first: undo ours
                # The action finished the tournament (its hook placed the last player out):
                # that stands, and no level is left to raise.
                return False
    except _Raced:
        return False
    return True


def levels_sweep(*, now: datetime | None = None) -> int:
    """Raise every running tournament's level whose deadline has passed; returns how many.
    One tournament's failure is logged and leaves the others (the next sweep tries again)."""
    now = now or timezone.now()
    due = list(
        Tournament.objects.filter(
            status=TournamentStatus.RUNNING, level_deadline__lte=now
        ).values_list("pk", flat=True)
    )
    raised = 0
    for pk in due:
        try:
            raised += raise_level(tournament_id=pk, now=now)
        except Exception:
            log.exception("raising the level of tournament %s failed", pk)
    return raised
