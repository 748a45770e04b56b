"""Time-outs, self-exclusions, "leave my tables" and the reality check (docs/responsible-gaming.md).

An exclusion is recorded and committed first, with the player's seats flagged to leave; then
each of their tables is asked to stand them up at once where they have nothing in the hand in
play (each table in its own transaction, after the exclusion's: never the player's row and a
table's lock held together the other way round from the runtime). A table another process runs
sees the flag at its next action, or the clock's sweep does it (cardroom/clock/clock.py).
The limits themselves are changed in cardroom/responsible/limits.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import translation

from accounts.models import User
from cardroom.models import OperatorActionKind, Seat
from cardroom.models.responsible import Exclusion, ExclusionKind, PlayerLimits
from cardroom.operators import operator_log
from cardroom.responsible.limits import apply_due_changes, limits_locked
from cardroom.responsible.terms import SELF_EXCLUSION_DAYS, TIME_OUT_DAYS, date_words
from cardroom.responsible.usage import net_since, session_of
from cardroom.tables.runtime import table_release
from games.words import Sentence, words

__all__ = [
    "ExclusionDone",
    "RealityCheck",
    "exclusion_kind_for",
    "exclusion_lift",
    "exclusion_record",
    "reality_acknowledge",
    "reality_check",
    "tables_leave",
]


def exclusion_kind_for(days: int, *, time_out: bool = False) -> str:
    """The kind a length asks for, checked against the ranges (ValueError in words).

    >>> exclusion_kind_for(7), exclusion_kind_for(183), exclusion_kind_for(42, time_out=True)
    ('time_out', 'self_exclusion', 'time_out')
    >>> exclusion_kind_for(100)
    Traceback (most recent call last):
    ...
    ValueError: a time-out lasts 1 to 42 days and a self-exclusion 183 to 1826 days, not 100
    """
    low, high = TIME_OUT_DAYS
    if time_out:
        if not low <= days <= high:
            raise ValueError(
                words(
                    "a time-out lasts {low} to {high} days, not {days}",
                    low=low,
                    high=high,
                    days=days,
                )
            )
        return str(ExclusionKind.TIME_OUT)
    if low <= days <= high:
        return str(ExclusionKind.TIME_OUT)
    if SELF_EXCLUSION_DAYS[0] <= days <= SELF_EXCLUSION_DAYS[1]:
        return str(ExclusionKind.SELF_EXCLUSION)
    raise ValueError(
        words(
            "a time-out lasts {low} to {high} days and a self-exclusion {least} to {most} days,"
            " not {days}",
            low=low,
            high=high,
            least=SELF_EXCLUSION_DAYS[0],
            most=SELF_EXCLUSION_DAYS[1],
            days=days,
        )
    )


#: The kinds as the refusals name them (said in the reader's language).
KIND_WORDS: dict[str, Sentence] = {
    ExclusionKind.TIME_OUT: words("time-out"),
    ExclusionKind.SELF_EXCLUSION: words("self-exclusion"),
}


def _english_kind(exclusion: Exclusion) -> str:
    """The kind's name for the operator log's details, which keep data in one language."""
    with translation.override("en"):
        return str(exclusion.get_kind_display())


@dataclass(frozen=True, slots=True)
class ExclusionDone:
    """What recording an exclusion did: the row, the tables left at once, the tables where
    the player leaves when the hand in play ends, and the operator log's row (support only)."""

    exclusion: Exclusion
    stood_up: int
    leaving: int
    logged: int | None = None


def _summarise(row: PlayerLimits, now: datetime) -> None:
    """The row's summary of the exclusions in force: the strictest, and the latest end."""
    in_force = [e for e in Exclusion.objects.filter(user_id=row.user_id) if e.in_force(now)]
    selfs = [e for e in in_force if e.kind == ExclusionKind.SELF_EXCLUSION]
    chosen = selfs or in_force
    row.excluded_kind = chosen[0].kind if chosen else ""
    row.excluded_until = max(e.end for e in chosen) if chosen else None


def exclusion_record(
    *,
    user: User,
    days: int,
    kind: str,
    reason: str,
    by: User,
    now: datetime,
    support: bool = False,
) -> ExclusionDone:
    """Record a time-out or a self-exclusion from ``now`` for ``days``, stand the player up at
    every table (at once where their seat is at rest, else when the hand in play ends).

    ``support``: recorded by support at the player's request (``manage.py exclude``), so the
    operator log keeps it too."""
    expected = exclusion_kind_for(days, time_out=kind == ExclusionKind.TIME_OUT)
    if expected != kind:
        raise ValueError(
            words(
                # Translators: {expected} is "time-out" or "self-exclusion"; {kind} is the
                # code asked for ("time_out" or "self_exclusion").
                "{days} days is a {expected}, not a {kind}",
                days=days,
                expected=KIND_WORDS[expected],
                kind=kind,
            )
        )
    with transaction.atomic():
        row = limits_locked(user)
        exclusion = Exclusion.objects.create(
            user=user,
            kind=kind,
            start=now,
            end=now + timedelta(days=days),
            reason=reason.strip(),
            recorded_by=by,
        )
        _summarise(row, now)
        row.save()
        tables = _flag_seats(user)
        logged = None
        if support:
            logged = operator_log(
                actor=by,
                kind=OperatorActionKind.EXCLUSION_RECORD,
                reason=reason or "at the player's request",
                details={
                    "player": user.username,
                    "exclusion": _english_kind(exclusion),
                    "days": days,
                    "until": date_words(exclusion.end),
                },
            ).pk
    stood_up = _release(tables, now)
    return ExclusionDone(exclusion, stood_up, len(tables) - stood_up, logged)


def _flag_seats(user: User) -> list[int]:
    seats = Seat.objects.filter(user=user, left__isnull=True)
    tables = sorted(set(seats.values_list("table_id", flat=True)))
    seats.update(leave_at_rest=True)
    return tables


def _release(tables: list[int], now: datetime) -> int:
    """Ask each table to stand flagged players up now; how many did."""
    done = 0
    for table_id in tables:
        if table_release(table_id=table_id, now=now) is not None:
            done += 1
    return done


def exclusion_lift(*, exclusion_id: int, by: User, reason: str, now: datetime) -> Exclusion:
    """The house lifts a self-exclusion whose period is over, at the player's request;
    logged. A time-out ends by itself and is never lifted."""
    reason = reason.strip()
    if not reason:
        raise ValueError(words("say why the self-exclusion is lifted"))
    with transaction.atomic():
        exclusion = Exclusion.objects.select_for_update().get(pk=exclusion_id)
        if exclusion.kind != ExclusionKind.SELF_EXCLUSION:
            raise ValueError(words("a time-out ends by itself: only a self-exclusion is lifted"))
        if exclusion.lifted is not None:
            raise ValueError(words("this self-exclusion was lifted already"))
        if now < exclusion.end:
            raise ValueError(
                words(
                    # Translators: {date} is a date written YYYY-MM-DD.
                    "this self-exclusion runs until {date}: it can be lifted only after that",
                    date=date_words(exclusion.end),
                )
            )
        row = limits_locked(exclusion.user)
        exclusion.lifted, exclusion.lifted_by, exclusion.lift_reason = now, by, reason
        exclusion.save(update_fields=["lifted", "lifted_by", "lift_reason"])
        _summarise(row, now)
        row.save()
        operator_log(
            actor=by,
            kind=OperatorActionKind.EXCLUSION_LIFT,
            reason=reason,
            details={
                "player": exclusion.user.username,
                "exclusion": _english_kind(exclusion),
                "ended": date_words(exclusion.end),
            },
        )
    return exclusion


def tables_leave(*, user: User, now: datetime) -> tuple[int, int]:
    """ "Leave my tables": every seat of the player stands up at the end of its hand in play
    (at once where there is none). Returns (stood up now, leaving when the hand ends)."""
    tables = _flag_seats(user)
    stood_up = _release(tables, now)
    return stood_up, len(tables) - stood_up


@dataclass(frozen=True, slots=True)
class RealityCheck:
    """What the table's reality check shows: the session so far and when the next check is."""

    in_session: bool
    due: bool
    interval_minutes: int
    started: datetime | None = None
    played_seconds: int = 0
    net_cents: int = 0
    next_check: datetime | None = None


def reality_check(*, user: User, now: datetime) -> RealityCheck:
    """The check as of ``now``: due every N minutes of the session after the session began
    or the last "keep playing", whichever is later."""
    row = PlayerLimits.objects.filter(user=user).first()
    interval = row.reality_minutes if row is not None else 60
    session = session_of(user_id=user.pk, now=now)
    if session is None or not session.seated:
        return RealityCheck(in_session=False, due=False, interval_minutes=interval)
    since = session.start
    if row is not None and row.reality_acknowledged and row.reality_acknowledged > since:
        since = row.reality_acknowledged
    next_check = since + timedelta(minutes=interval)
    return RealityCheck(
        in_session=True,
        due=now >= next_check,
        interval_minutes=interval,
        started=session.start,
        played_seconds=int((now - session.start).total_seconds()),
        net_cents=net_since(user_id=user.pk, since=session.start),
        next_check=next_check,
    )


@transaction.atomic
def reality_acknowledge(*, user: User, now: datetime) -> None:
    """ "Keep playing": the next check comes a full interval from now."""
    row = limits_locked(user)
    apply_due_changes(row, now)
    row.reality_acknowledged = now
    row.save()
