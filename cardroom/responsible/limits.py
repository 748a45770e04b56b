"""A player's limits: a decrease at once, an increase or a removal 24 hours later.

Every request is a :class:`LimitChange` row, applied or pending; a pending one takes effect
when it is next read after its time (the runtime's check, the limits page, the clock's sweep),
which is when it could first matter. Asking again for a limit with a change pending replaces
the pending change (asking for the value in force cancels it).
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Min

from accounts.models import User
from cardroom.models import Seat
from cardroom.models.responsible import (
    LIMITS,
    LOSS_LIMITS,
    LimitChange,
    LimitName,
    PlayerLimits,
)
from cardroom.responsible.terms import (
    INCREASE_DELAY,
    MAX_LIMIT_CENTS,
    REALITY_MINUTES,
    SESSION_MINUTES,
)
from cardroom.responsible.usage import usage_of
from games.words import Money, words

__all__ = ["apply_due_changes", "limit_request", "limits_locked", "reality_interval_set"]


def limits_locked(user: User) -> PlayerLimits:
    """The player's row, created if need be, locked for this transaction."""
    PlayerLimits.objects.get_or_create(user=user)
    return PlayerLimits.objects.select_for_update().get(user=user)


def apply_due_changes(row: PlayerLimits, now: datetime) -> None:
    """Apply the pending changes whose time has come (``row`` is locked)."""
    if row.pending_from is None or row.pending_from > now:
        return
    due = LimitChange.objects.filter(
        user_id=row.user_id, applied__isnull=True, cancelled__isnull=True, effective__lte=now
    ).order_by("effective", "id")
    for change in due:
        setattr(row, change.limit, change.after)
        change.applied = change.effective
        change.save(update_fields=["applied"])
    row.pending_from = _first_pending(row.user_id)
    row.save()


def _first_pending(user_id: int) -> datetime | None:
    pending = LimitChange.objects.filter(
        user_id=user_id, applied__isnull=True, cancelled__isnull=True
    )
    first: datetime | None = pending.aggregate(first=Min("effective"))["first"]
    return first


def _check_value(limit: str, value: int | None) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(words("a limit is a whole number, not {value}", value=repr(value)))
    if limit == LimitName.SESSION:
        low, high = SESSION_MINUTES
        if not low <= value <= high:
            raise ValueError(
                words(
                    "a session limit is from {low} minutes to {high} hours",
                    low=low,
                    high=high // 60,
                )
            )
    elif not 0 < value <= MAX_LIMIT_CENTS:
        raise ValueError(
            words(
                "a money limit is more than {least} and at most {most}",
                least=Money(0),
                most=Money(MAX_LIMIT_CENTS),
            )
        )


@transaction.atomic
def limit_request(
    *, user: User, limit: str, value: int | None, now: datetime, by: User | None = None
) -> LimitChange | None:
    """Ask for ``limit`` to be ``value`` (cents, or minutes for the session; None: no limit).

    Stricter than the limit in force: applied now. Looser, or removed: pending for 24 hours.
    The same as in force: a pending change of it is cancelled. Returns the change recorded
    (None when there was nothing to record)."""
    if limit not in LIMITS:
        raise ValueError(f"unknown limit {limit!r}")
    _check_value(limit, value)
    row = limits_locked(user)
    apply_due_changes(row, now)
    current = getattr(row, limit)
    pending = list(
        LimitChange.objects.filter(
            user=user, limit=limit, applied__isnull=True, cancelled__isnull=True
        )
    )
    for change in pending:
        change.cancelled = now
        change.save(update_fields=["cancelled"])
    recorded = None
    if value != current:
        stricter = value is not None and (current is None or value < current)
        recorded = LimitChange.objects.create(
            user=user,
            limit=limit,
            before=current,
            after=value,
            requested=now,
            effective=now if stricter else now + INCREASE_DELAY,
            applied=now if stricter else None,
            by=by or user,
        )
        if stricter:
            setattr(row, limit, value)
    row.pending_from = _first_pending(user.pk)
    row.save()
    if recorded is not None and recorded.applied is not None and limit in LOSS_LIMITS:
        _stand_up_if_reached(row, limit, now)
    return recorded


def _stand_up_if_reached(row: PlayerLimits, limit: str, now: datetime) -> None:
    """A loss limit lowered to what is already lost stands the player up at every table when
    their hand ends (the clock's sweep, or the table's next action, does it)."""
    value = getattr(row, limit)
    window = limit.rsplit("_", 1)[1]
    if value is not None and usage_of(user_id=row.user_id, now=now).lost[window] >= value:
        Seat.objects.filter(user_id=row.user_id, left__isnull=True).update(leave_at_rest=True)


@transaction.atomic
def reality_interval_set(*, user: User, minutes: int, now: datetime) -> LimitChange | None:
    """A new reality-check interval, at once (it limits nothing), recorded like a limit."""
    low, high = REALITY_MINUTES
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not low <= minutes <= high:
        raise ValueError(
            words("a reality check comes every {low} to {high} minutes", low=low, high=high)
        )
    row = limits_locked(user)
    if row.reality_minutes == minutes:
        return None
    change = LimitChange.objects.create(
        user=user,
        limit=LimitName.REALITY,
        before=row.reality_minutes,
        after=minutes,
        requested=now,
        effective=now,
        applied=now,
        by=user,
    )
    row.reality_minutes = minutes
    row.save()
    return change
