"""The clock's part in responsible gaming: what no action at a table would do by itself.

A flag to leave set by another process (an exclusion, ``manage.py exclude``, "leave my
tables") reaches a table at its next action; a table at rest may have none for a long time, so
the sweep asks each table with a flagged seat still held to stand it up. A session limit runs
out with no action at all, so the sweep flags the players whose session has reached theirs.
Both are found by index (flagged seats held; players with a session limit and a seat held):
in the common case the sweep is two empty queries.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.utils import timezone

from cardroom.models import Seat
from cardroom.models.responsible import PlayerLimits
from cardroom.responsible.usage import session_of
from cardroom.tables.runtime import table_release

__all__ = ["responsible_sweep"]

log = logging.getLogger(__name__)


def _sessions_over(now: datetime) -> int:
    """Flag every seat of the players whose session reached their session limit."""
    limited = (
        PlayerLimits.objects.filter(session_minutes__isnull=False)
        .filter(user__seats__left__isnull=True, user__seats__leave_at_rest=False)
        .order_by()
        .values_list("user_id", "session_minutes")
        .distinct()
    )
    flagged = 0
    for user_id, minutes in limited:
        session = session_of(user_id=user_id, now=now)
        over = session is not None and (now - session.start).total_seconds() >= (minutes or 0) * 60
        if over:
            flagged += Seat.objects.filter(user_id=user_id, left__isnull=True).update(
                leave_at_rest=True
            )
    return flagged


def responsible_sweep(*, now: datetime | None = None) -> int:
    """Flag players past their session limit, then stand flagged players up wherever their
    seat is at rest; returns how many tables stood someone up."""
    now = now or timezone.now()
    _sessions_over(now)
    tables = (
        Seat.objects.filter(left__isnull=True, leave_at_rest=True)
        .order_by()
        .values_list("table_id", flat=True)
        .distinct()
    )
    released = 0
    for table_id in list(tables):
        try:
            if table_release(table_id=table_id, now=now) is not None:
                released += 1
        except Exception:  # one broken table must not stop the others
            log.exception("standing flagged players up at table %s failed", table_id)
    return released
