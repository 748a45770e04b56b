"""What an operator does to tables, each logged with who, when, what and why.

Every service here takes the acting user and a reason, and writes an :class:`OperatorAction`
in the same transaction as the change, so the log holds exactly the changes that happened.
Every change to a table goes through the table runtime, the one writer of a table: seat changes
as the game's actions (``table_apply``), where the game decides when they take effect; pauses,
closes, voids, timers and bots through cardroom/tables/control.py. A game's rules never run here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction

from accounts.models import User
from cardroom.models import OperatorAction, OperatorActionKind, Seat, Table
from cardroom.tables import control
from cardroom.tables.control import table_timer_names
from cardroom.tables.runtime import table_apply, table_create
from games.engine import IllegalAction
from games.words import words

__all__ = [
    "operator_log",
    "operator_table_create",
    "seat_remove",
    "seat_sit_out",
    "table_bots_change",
    "table_play_change",
    "table_timer_names",
    "table_timers_change",
]


def operator_log(
    *,
    actor: User,
    kind: str,
    reason: str,
    table: Table | None = None,
    details: Mapping[str, Any] | None = None,
) -> OperatorAction:
    """Record one operator action; a reason is required (the log says why)."""
    if kind not in OperatorActionKind.values:
        raise ValueError(f"unknown operator action {kind!r}")
    reason = reason.strip()
    if not reason:
        raise ValueError(words("every operator action needs a reason"))
    return OperatorAction.objects.create(
        actor=actor, kind=kind, table=table, reason=reason, details=dict(details or {})
    )


def operator_table_create(
    *,
    actor: User,
    game: str,
    preset: str,
    options: Mapping[str, Any],
    name: str,
    bots: int,
    reason: str,
) -> Table:
    """A new table (the game validates its config: ConfigError says what is wrong)."""
    with transaction.atomic():
        table = table_create(game=game, preset=preset, options=options, name=name, bots=bots)
        operator_log(
            actor=actor,
            kind=OperatorActionKind.TABLE_CREATE,
            table=table,
            reason=reason,
            details={"game": game, "preset": preset, "options": dict(options), "bots": bots},
        )
    return table


def table_timers_change(
    *, actor: User, table_id: int, timers: Mapping[str, Any], reason: str
) -> OperatorAction:
    """Change a table's timers between hands (cardroom/tables/control.py says when it may)."""
    with transaction.atomic():
        before = control.table_timers_set(table_id=table_id, timers=timers)
        return operator_log(
            actor=actor,
            kind=OperatorActionKind.TIMERS_CHANGE,
            table=Table.objects.get(pk=table_id),
            reason=reason,
            details={"before": before, "after": dict(timers)},
        )


def _seat_action(
    *, actor: User, table_id: int, seat: int, reason: str, action: str, kind: str
) -> OperatorAction:
    with transaction.atomic():
        occupant = (
            Seat.objects.select_related("user")
            .filter(table_id=table_id, number=seat, left__isnull=True)
            .first()
        )
        if occupant is None:
            raise IllegalAction(words("nobody sits in seat {seat}", seat=seat))
        outcome = table_apply(table_id=table_id, action={"kind": action, "seat": seat})
        return operator_log(
            actor=actor,
            kind=kind,
            table=Table.objects.get(pk=table_id),
            reason=reason,
            details={
                "seat": seat,
                "player": occupant.user.username,
                "version": outcome.version,
                "events": list(outcome.events),
            },
        )


def seat_sit_out(*, actor: User, table_id: int, seat: int, reason: str) -> OperatorAction:
    """Sit a player out (the game decides when: now, or when the hand ends)."""
    return _seat_action(
        actor=actor,
        table_id=table_id,
        seat=seat,
        reason=reason,
        action="sit_out",
        kind=OperatorActionKind.SEAT_SIT_OUT,
    )


def seat_remove(*, actor: User, table_id: int, seat: int, reason: str) -> OperatorAction:
    """Stand a player up: their stack goes back to their bankroll when the game lets them go."""
    return _seat_action(
        actor=actor,
        table_id=table_id,
        seat=seat,
        reason=reason,
        action="leave",
        kind=OperatorActionKind.SEAT_REMOVE,
    )


def table_bots_change(*, actor: User, table_id: int, bots: int, reason: str) -> OperatorAction:
    """Keep ``bots`` seats filled by house bots (cardroom/tables/control.py: who leaves)."""
    with transaction.atomic():
        before, leaving = control.table_bots_set(table_id=table_id, bots=bots)
        return operator_log(
            actor=actor,
            kind=OperatorActionKind.BOTS_CHANGE,
            table=Table.objects.get(pk=table_id),
            reason=reason,
            details={"before": before, "after": bots, "leaving": leaving},
        )


#: What an operator may do to a table's play, and how the log names it.
PLAY_CHANGES = {
    "pause": (control.table_pause, OperatorActionKind.TABLE_PAUSE),
    "resume": (control.table_resume, OperatorActionKind.TABLE_RESUME),
    "close": (control.table_close, OperatorActionKind.TABLE_CLOSE),
}


def table_play_change(*, actor: User, table_id: int, what: str, reason: str) -> OperatorAction:
    """Pause, resume or close a table, or void its hand in play; logged with the reason."""
    if not reason.strip():
        raise ValueError(words("every operator action needs a reason"))
    with transaction.atomic():
        if what == "void":
            details = control.hand_void(table_id=table_id, reason=reason.strip())
            kind = OperatorActionKind.HAND_VOID
        elif what in PLAY_CHANGES:
            change, kind = PLAY_CHANGES[what]
            outcome = change(table_id=table_id)
            details = {"version": outcome.version, "events": list(outcome.events)}
        else:
            raise ValueError(f"unknown change {what!r}; changes: pause, resume, close, void")
        table = Table.objects.get(pk=table_id)
        details["status"] = table.status
        return operator_log(actor=actor, kind=kind, table=table, reason=reason, details=details)
