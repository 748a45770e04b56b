"""What the table runtime asks of a player's limits and exclusions (docs/responsible-gaming.md).

Two hooks, both inside the action's transaction:

- :func:`guard_stake`, after the game applied a ``sit``, ``top_up``, ``ante`` or ``bet`` and
  before anything is saved: an exclusion, a buy-in limit, a loss limit or the session limit
  that the action would break refuses it (IllegalAction, in words and dollars, saying until
  when). Reaching a limit exactly is allowed.
- :func:`stand_up_at_rest`, in ``settle``: a player whose loss limit the action made reached is
  flagged to leave; every flagged seat with nothing in the hand in play leaves now, the others
  when their hand ends.

The common case costs no query: the seats query joins each player's ``PlayerLimits`` row, and a
player without one, or with neither a limit nor an exclusion, is never read further. A player
with limits costs a lock of their row (so two tables cannot together pass a limit: the second
waits for the first to commit, then sums what it wrote) and one sum over the ledger.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from accounts.ledger import LedgerError
from accounts.models import User
from accounts.services import reload_requested
from cardroom.models import Seat
from cardroom.models.responsible import (
    BUY_IN_LIMITS,
    LOSS_LIMITS,
    ExclusionKind,
    LimitName,
    PlayerLimits,
)
from cardroom.responsible.limits import apply_due_changes
from cardroom.responsible.terms import (
    SESSION_GAP,
    WINDOWS,
    date_words,
    duration_words,
    moment_words,
)
from cardroom.responsible.usage import (
    NOT_RESULTS,
    Entry,
    Usage,
    binding_moment,
    session_of,
    usage_of,
    window_entries,
)
from cardroom.storage.rows import rows_where
from cardroom.tables.places import transfer_kind
from games.engine import IllegalAction
from games.words import Money, Sentence, words

__all__ = [
    "GUARDED",
    "connect",
    "entry_refusal",
    "exclusion_refusal",
    "guard_stake",
    "limits_row",
    "reload_refusal",
    "seats_to_release",
    "stand_up_at_rest",
]

#: The player actions that put new money on a table or at stake. A decision in a hand already
#: dealt (declare, Play, set) is never refused: it plays out money committed before.
GUARDED = frozenset({"sit", "top_up", "ante", "bet"})
#: A seat's statuses (in the game's public view) with nothing in the hand in play.
FREE_STATUSES = frozenset({"waiting", "sitting_out", "seated", "short"})


def limits_row(user: User) -> PlayerLimits | None:
    """The player's row as the seats query joined it (no query), else read, without keeping it
    on ``user`` (a socket's user lives as long as the socket; a kept row would grow stale)."""
    field = PlayerLimits._meta.get_field("user").remote_field
    if field.is_cached(user):
        return cast(PlayerLimits | None, field.get_cached_value(user))
    return PlayerLimits.objects.filter(user_id=user.pk).first()


def exclusion_refusal(row: PlayerLimits | None, now: datetime) -> Sentence | None:
    """Why an excluded player may not play, or None: a sentence of the rules (games.words),
    which a page says with ``accounts.language.said``."""
    if row is None or not row.excluded(now):
        return None
    until = row.excluded_until
    assert until is not None
    if row.excluded_kind == ExclusionKind.TIME_OUT:
        return words(
            # Translators: {moment} is a date and time in UTC, such as "2026-12-02 14:05 UTC"
            "You are excluded from play until {moment} (a time-out)",
            moment=moment_words(until),
        )
    if until > now:
        return words(
            # Translators: {date} is a date, such as "2027-05-30"
            "You are excluded from play until {date} (a self-exclusion; after that date it stays"
            " in force until the house lifts it at your request)",
            date=date_words(until),
        )
    return words(
        "You are excluded from play: your self-exclusion ended on {date} and stays in force"
        " until the house lifts it at your request",
        date=date_words(until),
    )


def reload_refusal(*, user: User, now: datetime) -> None:
    """The cashier's hook (accounts.services.reload_requested): no reload while excluded (the
    ledger's refusals start in lower case)."""
    row = PlayerLimits.objects.filter(user_id=user.pk).first()
    if row is None or not row.excluded(now):
        return
    until = row.excluded_until
    assert until is not None
    if row.excluded_kind == ExclusionKind.TIME_OUT:
        raise LedgerError(
            words(
                "you are excluded from play until {moment} (a time-out)",
                moment=moment_words(until),
            )
        )
    if until > now:
        raise LedgerError(
            words(
                "you are excluded from play until {date} (a self-exclusion; after that date it"
                " stays in force until the house lifts it at your request)",
                date=date_words(until),
            )
        )
    raise LedgerError(
        words(
            "you are excluded from play: your self-exclusion ended on {date} and stays in force"
            " until the house lifts it at your request",
            date=date_words(until),
        )
    )


def _refuse_reload_while_excluded(sender: Any, *, user: User, now: datetime, **_: Any) -> None:
    reload_refusal(user=user, now=now)


def connect() -> None:
    """Called once from the app's ``ready``: the cashier asks ``reload_refusal`` before each
    reload (connected there, not in the models, so that the models import no checks)."""
    reload_requested.connect(_refuse_reload_while_excluded, dispatch_uid="responsible-reload")


def _moved(events: Iterable[Any], source: str | None, target: str | None) -> int:
    """Cents moved by the events from ``source`` (None: anywhere but the bankroll) to
    ``target`` (None: anywhere but the bankroll)."""
    total = 0
    for event in events:
        for move in event.moves():
            if source is not None and move.source != source:
                continue
            if target is not None and move.target != target:
                continue
            if source is None and move.source.startswith("bankroll:"):
                continue
            if target is None and move.target.startswith("bankroll:"):
                continue
            total += move.amount
    return total


@dataclass(frozen=True, slots=True)
class _Refusal:
    until: datetime | None
    message: Sentence


def _latest(refusals: list[_Refusal]) -> _Refusal | None:
    """Of several limits broken, the one that holds the longest (one that no wait would
    satisfy, first)."""
    never = [refusal for refusal in refusals if refusal.until is None]
    if never:
        return never[0]
    return max(refusals, key=lambda r: r.until.timestamp() if r.until else 0.0, default=None)


def guard_stake(
    *, action: Mapping[str, Any], events: Iterable[Any], seat: Seat, now: datetime
) -> None:
    """Refuse an action that puts new money on a table or at stake beyond an exclusion or a
    limit (IllegalAction); the events are the game's for it, not yet saved."""
    kind = action["kind"]
    if kind not in GUARDED:
        return
    # A sitting player's row is not joined to the seats query (their seat is new): read it.
    user = seat.user
    row = _limits_of_new_player(user.pk) if kind == "sit" else limits_row(user)
    if row is None:
        return
    refusal = exclusion_refusal(row, now)
    if refusal:
        raise IllegalAction(refusal)
    if not row.needs_checks(now):
        return
    # The lock orders this player's actions at every table: a second table's sit waits here
    # until the first commits, then sums what the first wrote. Taken after the table's lock
    # and before the ledger's, as every action takes them, so no two actions wait in a cycle.
    row = PlayerLimits.objects.select_for_update().get(pk=row.pk)
    apply_due_changes(row, now)
    refusal = exclusion_refusal(row, now)
    if refusal:
        raise IllegalAction(refusal)
    number = action["seat"]
    bought = _moved(events, f"bankroll:{number}", f"stack:{number}")
    staked = 0
    if kind in ("ante", "bet"):
        staked = _moved(events, f"stack:{number}", None)
        if kind == "bet" and isinstance(action.get("ante"), int):
            staked += action["ante"]  # the Play the Ante may call for is at risk too
    refused = _money_refusal(row, kind, bought, staked, now)
    if refused is None and row.session_minutes is not None:
        refused = _session_refusal(row.session_minutes, kind, seat, now)
    if refused is not None:
        raise IllegalAction(refused.message)


def entry_refusal(*, user: User, amount: int, now: datetime) -> Sentence | None:
    """Why ``user`` may not put ``amount`` cents into a tournament's entry now (its buy-in and
    fee together), or None: an exclusion, a buy-in limit (an entry is money put on a table) or
    a loss limit (the entry is at risk until a prize comes back). Call it in the transaction
    that pays the entry: the player's row is locked as a table's stake locks it."""
    row = PlayerLimits.objects.filter(user_id=user.pk).first()
    if row is None:
        return None
    refusal = exclusion_refusal(row, now)
    if refusal or not row.needs_checks(now):
        return refusal
    row = PlayerLimits.objects.select_for_update().get(pk=row.pk)
    apply_due_changes(row, now)
    refusal = exclusion_refusal(row, now)
    if refusal:
        return refusal
    refused = _money_refusal(row, "register", amount, amount, now)
    return None if refused is None else refused.message


def _limits_of_new_player(user_id: int) -> PlayerLimits | None:
    """The limits of a player taking a seat (a hand-written read: every sit makes it)."""
    rows = rows_where(PlayerLimits, "user_id", user_id)
    return rows[0] if rows and isinstance(rows[0], PlayerLimits) else None


def _money_refusal(
    row: PlayerLimits, kind: str, bought: int, staked: int, now: datetime
) -> _Refusal | None:
    limits = row.limits_in_force()
    wanted_buy_ins = [name for name in BUY_IN_LIMITS if name in limits and bought]
    checks_loss = kind == "sit" or staked
    wanted_losses = [name for name in LOSS_LIMITS if name in limits and checks_loss]
    if not wanted_buy_ins and not wanted_losses:
        return None
    usage = usage_of(user_id=row.user_id, now=now)
    refusals = [
        refusal
        for name in wanted_buy_ins
        if (refusal := _buy_in_refusal(row, name, limits[name], usage, bought, kind, now))
    ]
    refusals += [
        refusal
        for name in wanted_losses
        if (refusal := _loss_refusal(row, name, limits[name], usage, staked, kind, now))
    ]
    return _latest(refusals)


#: The money limits as the refusals name them (LimitName's labels, as sentences of the rules).
_LIMIT_WORDS: dict[str, Sentence] = {
    LimitName.LOSS_DAY: words("daily loss limit"),
    LimitName.LOSS_WEEK: words("weekly loss limit"),
    LimitName.LOSS_MONTH: words("monthly loss limit"),
    LimitName.BUY_IN_DAY: words("daily buy-in limit"),
    LimitName.BUY_IN_WEEK: words("weekly buy-in limit"),
    LimitName.BUY_IN_MONTH: words("monthly buy-in limit"),
}


def _label(name: str) -> str:
    return _LIMIT_WORDS.get(name) or str(LimitName(name).label)


def _allows(name: str, limit: int, room: int, until: datetime | None, detail: Sentence) -> Sentence:
    """A limit that leaves less room than the action needs, and until when."""
    if until:
        return words(
            # Translators: {limit} such as "daily loss limit"; {moment} a date and time in UTC;
            # {detail} says what the action needs, such as "this buy-in is $5.00"
            "Your {limit} of {limit_amount} allows {room} more until {moment} ({detail})",
            limit=_label(name),
            limit_amount=Money(limit),
            room=Money(room),
            moment=moment_words(until),
            detail=detail,
        )
    return words(
        # Translators: {limit} such as "daily loss limit"; {detail} says what the action needs,
        # such as "this buy-in is $5.00"
        "Your {limit} of {limit_amount} allows {room} more ({detail})",
        limit=_label(name),
        limit_amount=Money(limit),
        room=Money(room),
        detail=detail,
    )


def _window(name: str) -> str:
    return name.rsplit("_", 1)[1]


def _buy_in_refusal(
    row: PlayerLimits, name: str, limit: int, usage: Usage, bought: int, kind: str, now: datetime
) -> _Refusal | None:
    window = _window(name)
    used = usage.bought[window]
    if used + bought <= limit:
        return None
    if bought > limit:
        if kind == "top_up":
            refusal = words(
                "Your {limit} of {limit_amount} is less than this top-up of {amount}",
                limit=_label(name),
                limit_amount=Money(limit),
                amount=Money(bought),
            )
        else:
            refusal = words(
                "Your {limit} of {limit_amount} is less than this buy-in of {amount}",
                limit=_label(name),
                limit_amount=Money(limit),
                amount=Money(bought),
            )
        return _Refusal(None, refusal)
    entries = window_entries(user_id=row.user_id, window=window, now=now, buy_ins=True)
    until = binding_moment(
        entries, total=used, room_needed=bought, limit=limit, span=WINDOWS[window]
    )
    if kind == "top_up":
        detail = words("this top-up is {amount}", amount=Money(bought))
    else:
        detail = words("this buy-in is {amount}", amount=Money(bought))
    return _Refusal(until, _allows(name, limit, max(0, limit - used), until, detail))


def _loss_refusal(
    row: PlayerLimits, name: str, limit: int, usage: Usage, staked: int, kind: str, now: datetime
) -> _Refusal | None:
    window = _window(name)
    lost = usage.lost[window]

    def entries() -> list[Entry]:  # read only when refusing
        return window_entries(user_id=row.user_id, window=window, now=now, buy_ins=False)

    if kind == "sit":
        if lost < limit:
            return None
        until = binding_moment(
            entries(), total=lost, room_needed=1, limit=limit, span=WINDOWS[window]
        )
        if until:
            reached = words(
                "Your {limit} of {limit_amount} is reached until {moment}",
                limit=_label(name),
                limit_amount=Money(limit),
                moment=moment_words(until),
            )
        else:
            reached = words(
                "Your {limit} of {limit_amount} is reached",
                limit=_label(name),
                limit_amount=Money(limit),
            )
        return _Refusal(until, reached)
    if lost + staked <= limit:
        return None
    if kind == "bet":
        risk = words("this bet risks {amount} with the Play it may call for", amount=Money(staked))
    elif kind == "ante":
        risk = words("this ante risks {amount}", amount=Money(staked))
    elif kind == "register":
        risk = words("this tournament's buy-in and fee risk {amount}", amount=Money(staked))
    else:
        # Translators: {action} names the action, as the protocol does (such as top_up)
        risk = words("this {action} risks {amount}", action=kind, amount=Money(staked))
    if staked > limit:
        return _Refusal(
            None,
            words(
                "Your {limit} of {limit_amount} is less than the {amount} at risk ({detail})",
                limit=_label(name),
                limit_amount=Money(limit),
                amount=Money(staked),
                detail=risk,
            ),
        )
    until = binding_moment(
        entries(), total=lost, room_needed=staked, limit=limit, span=WINDOWS[window]
    )
    return _Refusal(until, _allows(name, limit, max(0, limit - lost), until, risk))


def _session_refusal(minutes: int, kind: str, seat: Seat, now: datetime) -> _Refusal | None:
    exclude = seat.pk if kind == "sit" else None
    session = session_of(user_id=seat.user_id, now=now, exclude_seat=exclude)
    if session is None or (now - session.start).total_seconds() < minutes * 60:
        return None
    duration = duration_words(minutes)
    if kind != "sit":
        return _Refusal(
            None,
            words(
                # Translators: {duration} such as "1 hour 30 minutes"
                "Your session limit of {duration} is reached: you will be stood up at the end of"
                " the hand in play",
                duration=duration,
            ),
        )
    if session.last_left is not None:
        again = session.last_left + SESSION_GAP
        return _Refusal(
            again,
            words(
                # Translators: {duration} such as "1 hour 30 minutes"; {moment} a date and time
                # in UTC
                "Your session limit of {duration} is reached: you can sit down again from {moment}",
                duration=duration,
                moment=moment_words(again),
            ),
        )
    return _Refusal(
        None,
        words(
            # Translators: {duration} such as "1 hour 30 minutes"
            "Your session limit of {duration} is reached: you can sit down again 30 minutes"
            " after you leave your last table",
            duration=duration,
        ),
    )


def _seat_free(view: Mapping[str, Any], number: int, table_at_rest: bool) -> bool:
    """The seat's player has nothing in the hand in play (or there is none)."""
    entry = next((e for e in view.get("seats", []) if e.get("seat") == number), None)
    if entry is None or "player" not in entry:
        return False
    if entry.get("status") == "leaving" or entry.get("leaving"):
        return False  # already leaving when the hand ends: the game will stand them up
    return table_at_rest or entry.get("status") in FREE_STATUSES


def _stand_up(
    engine: Any, state: Any, numbers: Iterable[int], stamp: float
) -> tuple[Any, list[tuple[dict[str, Any], tuple[Any, ...]]]]:
    """Apply ``leave`` for each of these seats that is free now, in turn: the new state, and
    each leave applied with its events."""
    game = engine.game
    applied = []
    for number in sorted(set(numbers)):
        if not _seat_free(game.view(state, None), number, engine.at_rest(state)):
            continue
        action = {"kind": "leave", "seat": number, "now": stamp}
        try:
            state, events = game.apply(state, action)
        except IllegalAction:
            continue  # the game has its own reason: this seat stays for now
        applied.append((action, tuple(events)))
    return state, applied


def seats_to_release(engine: Any, state: Any, seats: Mapping[int, Seat]) -> list[int]:
    """The flagged seats that would stand up now (tried on the state, which is not kept)."""
    flagged = [number for number, seat in seats.items() if seat.leave_at_rest]
    if not flagged:
        return []
    _, applied = _stand_up(engine, state, flagged, 0.0)
    return [int(action["seat"]) for action, _ in applied]


def _results_by_seat(events: Iterable[Any]) -> dict[int, int]:
    """Each seat's net result (won minus lost) in these events."""
    results: dict[int, int] = {}
    for event in events:
        for move in event.moves():
            kind = transfer_kind(event.type, move.source, move.target)
            if kind in NOT_RESULTS:
                continue
            for place, sign in ((move.source, -1), (move.target, 1)):
                name, _, number = place.partition(":")
                if name == "stack":
                    results[int(number)] = results.get(int(number), 0) + sign * move.amount
    return results


def _loss_reached(row: PlayerLimits, delta: int, now: datetime) -> bool:
    if row.pending_from is not None and row.pending_from <= now:
        row = PlayerLimits.objects.select_for_update().get(pk=row.pk)
        apply_due_changes(row, now)
    limits = row.limits_in_force()
    names = [name for name in LOSS_LIMITS if name in limits]
    if not names:
        return False
    usage = usage_of(user_id=row.user_id, now=now)
    return any(usage.lost[_window(name)] - delta >= limits[name] for name in names)


def stand_up_at_rest(
    *,
    engine: Any,
    state: Any,
    seats: Mapping[int, Seat],
    recorded: list[Any],
    journal: list[dict[str, Any]],
    now: datetime,
    stamp: float,
) -> Any:
    """``settle``'s hook: flag players whose loss limit is reached once their hand is over,
    then stand up every flagged seat that has nothing in the hand in play (the leave is
    journaled and its events recorded, as any action's). Returns the new state."""
    flagged = [number for number, seat in seats.items() if seat.leave_at_rest]
    results = {
        number: delta
        for number, delta in _results_by_seat(recorded).items()
        if number in seats and not seats[number].leave_at_rest
    }
    if not flagged and not results:
        return state
    game = engine.game
    view: Mapping[str, Any] | None = None
    rest = False
    for number, delta in results.items():
        seat = seats[number]
        row = limits_row(seat.user)
        if row is None or not any(getattr(row, name) is not None for name in LOSS_LIMITS):
            continue
        if view is None:
            view, rest = game.view(state, None), engine.at_rest(state)
        if _seat_free(view, number, rest) and _loss_reached(row, delta, now):
            # Every table of the player: the others stand them up at their own rest.
            Seat.objects.filter(user_id=seat.user_id, left__isnull=True).update(leave_at_rest=True)
            seat.leave_at_rest = True
            flagged.append(number)
    state, applied = _stand_up(engine, state, flagged, stamp)
    for action, events in applied:
        journal.append(action)
        recorded.extend(events)
    return state
