"""What an operator does to tables, each logged with who, when, what and why.

Every service here takes the acting user and a reason, and writes an :class:`OperatorAction`
in the same transaction as the change, so the log holds exactly the changes that happened.
Seat changes go through the table runtime (``table_apply``), where the game decides when they
take effect; a game's rules never run here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from django.db import transaction

from accounts.models import User
from cardroom.models import Hand, OperatorAction, OperatorActionKind, Seat, Table, TableStatus
from cardroom.operators import control
from cardroom.realtime.broadcast import broadcast_on_commit
from cardroom.tables.engines import engine_for
from cardroom.tables.runtime import journal_restore, table_apply, table_create
from games.engine import ConfigError, IllegalAction
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


def _config_of(table: Table) -> Any:
    """The config the table's state embeds (every engine's state has a ``config``)."""
    game = engine_for(table.game).game
    return getattr(game.load(table.state), "config", None)


def table_timer_names(*, table: Table) -> dict[str, Any]:
    """The table's timers (its config's ``*_seconds`` options) and their values now."""
    config = _config_of(table)
    if config is None or not dataclasses.is_dataclass(config):
        return {}
    return {
        f.name: getattr(config, f.name)
        for f in dataclasses.fields(config)
        if f.name.endswith("_seconds")
    }


def _hand_in_play(table: Table) -> Hand | None:
    return Hand.objects.filter(table=table, ended__isnull=True).order_by("-number").first()


def table_timers_change(
    *, actor: User, table_id: int, timers: Mapping[str, Any], reason: str
) -> OperatorAction:
    """Change a table's timers between hands, in ``Table.config`` and in its state's config.

    Safe for every engine here because a timer only ever sets the next deadline (``now +
    seconds``): the deadline already running keeps its time and the next one uses the new
    value. The swap is checked anyway: the new state must dump exactly as the old one, but
    for its config. Refused while a hand is in play, and for anything but a timer.
    """
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status == TableStatus.CLOSED:
            raise IllegalAction(words("this table is closed"))
        current = table_timer_names(table=table)
        if not current:
            game = str(table.get_game_display())
            # Translators: {game} is a game's name, such as "Chinese Poker".
            raise IllegalAction(words("{game} tables have no timers to change", game=game))
        for name in timers:
            if name not in current:
                raise ConfigError(
                    words(
                        # Translators: {name} and {timers} are options' names, kept in English.
                        "{name} is not a timer; timers: {timers}",
                        name=name,
                        timers=", ".join(current),
                    )
                )
        hand = _hand_in_play(table)
        if hand is not None:
            raise IllegalAction(
                # Translators: {hand} is the hand's number.
                words("hand {hand} is in play: change the timers between hands", hand=hand.number)
            )
        engine = engine_for(table.game)
        options = {**table.config, **timers}
        config = engine.make_config(table.preset, options)
        game = engine.game
        old_state = game.load(table.state)
        new_state = dataclasses.replace(old_state, config=config)
        dumped = game.dump(new_state)
        unchanged = {k: v for k, v in game.dump(old_state).items() if k != "config"}
        if {k: v for k, v in dumped.items() if k != "config"} != unchanged or (
            game.load(dumped).config != config
        ):
            raise IllegalAction(words("this table's state cannot take new timers; nothing changed"))
        before = {name: current[name] for name in timers}
        table.config = options
        table.state = dumped
        table.version += 1
        table.save(update_fields=["config", "state", "version", "updated"])
        journal_restore(table=table, version=table.version, state=dumped)
        broadcast_on_commit(table)
        return operator_log(
            actor=actor,
            kind=OperatorActionKind.TIMERS_CHANGE,
            table=table,
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
    """Keep ``bots`` seats filled by house bots. Fewer: the last bots to sit down leave
    (through the runtime, so one in a hand leaves when it ends). More: the clock seats them.
    """
    with transaction.atomic():
        table = Table.objects.select_for_update().get(pk=table_id)
        if table.status == TableStatus.CLOSED:
            raise IllegalAction(words("this table is closed"))
        seats = len(table.state.get("seats", ()))
        most = max(seats - 1, 0)  # the bots always leave a seat for a person
        if isinstance(bots, bool) or not isinstance(bots, int) or not 0 <= bots <= most:
            raise ConfigError(
                words(
                    "bots must be a whole number from 0 to {most}, not {bots}",
                    most=most,
                    bots=repr(bots),
                )
            )
        before = table.bots
        table.bots = bots
        table.save(update_fields=["bots", "updated"])
        seated = list(
            Seat.objects.select_related("user")
            .filter(table=table, left__isnull=True, user__is_bot=True)
            .order_by("-joined", "-number")
        )
        leaving: list[str] = []
        for seat in seated[: max(len(seated) - bots, 0)]:
            # A bot already on its way out is refused a second leave: it goes all the same.
            try:
                table_apply(table_id=table.pk, action={"kind": "leave", "seat": seat.number})
            except IllegalAction:
                continue
            leaving.append(seat.user.username)
        return operator_log(
            actor=actor,
            kind=OperatorActionKind.BOTS_CHANGE,
            table=table,
            reason=reason,
            details={
                "before": before,
                "after": bots,
                "leaving": leaving,
            },
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
