"""What the house changes at a table outside the game's own actions: pause, resume, close,
void the hand in play, its timers and its bots.

They belong to the runtime's package because the runtime is the one writer of a table: each
locks the table row, changes it, saves it with a new version and a journal entry where the
state changed, and tells the watchers after commit, as every action does. cardroom/operators/
decides who may ask and logs each change with its reason; it never writes a table itself.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from accounts.ledger import Posting, ledger_post
from accounts.models import Transfer, TransferKind
from cardroom.models import Hand, HandEvent, Seat, Table, TableStatus, Tournament
from cardroom.tables.announce import announce_on_commit
from cardroom.tables.engines import Engine, engine_for
from cardroom.tables.runtime import (
    Context,
    Outcome,
    Played,
    journal_restore,
    locked_table,
    moment_of,
    settle_played,
    table_apply,
)
from games.engine import ConfigError, IllegalAction
from games.words import Sentence, words

__all__ = [
    "hand_void",
    "table_bots_set",
    "table_close",
    "table_pause",
    "table_resume",
    "table_timer_names",
    "table_timers_set",
]


#: A table's status as the refusals name it (the status codes, said in the reader's language).
STATUS_WORDS: dict[str, Sentence] = {
    # Translators: a table's status, as in "this one is open".
    TableStatus.OPEN: words("open"),
    # Translators: a table's status, as in "this one is paused".
    TableStatus.PAUSED: words("paused"),
    # Translators: a table's status, as in "this table is already closing".
    TableStatus.CLOSING: words("closing"),
    # Translators: a table's status, as in "this table is already closed".
    TableStatus.CLOSED: words("closed"),
}


def _status(table: Table) -> str:
    return STATUS_WORDS.get(table.status, table.status)


def _hand_in_play(table: Table) -> Hand | None:
    """The hand in play, as the locked read of the table brought it (no query of its own)."""
    hand = table.open_hand
    return hand if hand is not None and hand.ended is None else None


def _resettle(table: Table, now: datetime) -> Outcome:
    """Run the runtime's after-action step on the table's current state (no new action)."""
    engine = engine_for(table.game)
    seats = {s.number: s for s in Seat.objects.filter(table=table, left__isnull=True)}
    users = {number: seat.user for number, seat in seats.items()}
    context = Context(table, engine, seats, users, now, None)
    return settle_played(context, Played(engine.game.load(table.state), (), ()))


@transaction.atomic
def table_pause(*, table_id: int) -> Outcome:
    """Finish the hand in play, deal no more; the clock stops once the table is between hands."""
    table = locked_table(table_id)
    if table.status != TableStatus.OPEN:
        raise IllegalAction(
            # Translators: {status} is the table's status (open, paused, closing, closed).
            words("only an open table can be paused; this one is {status}", status=_status(table))
        )
    table.status = TableStatus.PAUSED
    return _resettle(table, timezone.now())


@transaction.atomic
def table_resume(*, table_id: int) -> Outcome:
    """Open a paused table again: a held clock starts at once, a waiting deal is dealt."""
    table = locked_table(table_id)
    if table.status != TableStatus.PAUSED:
        raise IllegalAction(
            # Translators: {status} is the table's status (open, paused, closing, closed).
            words("only a paused table can be resumed; this one is {status}", status=_status(table))
        )
    table.status = TableStatus.OPEN
    now = timezone.now()
    outcome = _resettle(table, now)
    if table.deadline is not None and table.deadline < now:
        # A deadline that passed while the clock was held runs out now, not never.
        Table.objects.filter(pk=table.pk).update(deadline=now)
    return outcome


@transaction.atomic
def table_close(*, table_id: int, tournament_over: bool = False) -> Outcome:
    """Finish the hand in play, then stand every player up with their stack cashed out.

    No ante call or deal follows the close: at the first point where no cards are out, what is
    staked goes back (a carried Guts pot to those who paid into it, in the shares they paid;
    cardroom/tables/pot_payers.py) and the table closes; one with nobody to play closes at once.

    A tournament's table (``plays_for_chips``) is closed only by its tournament
    (``tournament_over``: cardroom/tournaments/cancel.py): closing it alone would leave its
    players' buy-ins in the prize pool with nobody to play for them, so an operator's close is
    refused and points to the tournament's cancel, which refunds every entry.
    """
    table = locked_table(table_id)
    if table.plays_for_chips and not tournament_over:
        raise IllegalAction(
            words(
                "this is a tournament's table: cancel the tournament instead (every entry is"
                " refunded and the table closes)"
            )
        )
    if table.status in (TableStatus.CLOSING, TableStatus.CLOSED):
        # Translators: {status} is the table's status (closing or closed).
        raise IllegalAction(words("this table is already {status}", status=_status(table)))
    table.status = TableStatus.CLOSING
    return _resettle(table, timezone.now())


def _level_kept(table: Table, engine: Engine, restored: Any, now: datetime) -> Any:
    """A tournament's table voids back to its last rest with the stake of the level in play:
    a level raised during the voided hand (waiting for the next hand there) is not undone by
    the void. The level is the tournament's row's (cardroom/models/tournaments.py)."""
    tournament = Tournament.objects.filter(table_id=table.pk).only("levels", "level").first()
    if tournament is None or not tournament.levels:
        return restored
    level = tournament.levels[min(tournament.level, len(tournament.levels) - 1)]
    action = {"kind": "level", "stake": int(level["ante"]), "now": now.timestamp()}
    state, _ = engine.game.apply(restored, action)
    return state


@transaction.atomic
def hand_void(*, table_id: int, reason: str) -> dict[str, Any]:
    """Void the hand in play: every chip committed to it goes back, and the hand says why.

    The table returns to its last point between hands (``rest_state``); every ledger transfer
    of the table since then is reversed, newest first, by a transfer the other way, so the
    ledger and the restored state agree again. Seats taken since then are given up, and seats
    given up since then are taken again.
    """
    table = locked_table(table_id)
    hand = _hand_in_play(table)
    if hand is None:
        raise IllegalAction(words("there is no hand in play to void"))
    if table.rest_state is None:
        raise IllegalAction(words("this table has no point between hands to return to"))
    now = timezone.now()
    since = Transfer.objects.filter(table_id=table.pk, id__gt=table.rest_transfer)
    if table.plays_for_chips:
        # A tournament's table moved chips, never money: the void gives the chips back (the
        # restored state) and the ledger has nothing of the table's to reverse.
        since = since.none()
    reversals = [
        Posting(
            source=transfer.target.code,
            target=transfer.source.code,
            amount=transfer.amount,
            kind=TransferKind.VOID,
            idempotency_key=f"void:{transfer.pk}",
            memo=f"void of hand {hand.number}: {reason}"[:200],
        )
        for transfer in since.select_related("source", "target").order_by("-id")
    ]
    ledger_post(reversals, table_id=table.pk, hand_id=hand.pk)
    # The point between hands the table returns to now comes after these reversals: a void of
    # the next hand, if none comes between, reverses what that hand moved and not these again
    # (which would move the stakes back into the pot in the ledger while the state says empty).
    last = Transfer.objects.filter(table_id=table.pk).aggregate(last=Max("id"))["last"]
    table.rest_transfer = last or 0
    engine = engine_for(table.game)
    restored = engine.game.load(table.rest_state)
    if table.plays_for_chips:
        restored = _level_kept(table, engine, restored, now)
    _match_seats(table, engine.game.view(restored, None), now)
    version = table.version + 1
    returned = sum(posting.amount for posting in reversals)
    data = {"type": "hand_voided", "hand": hand.number, "reason": reason, "returned": returned}
    table.last_event_seq += 1
    HandEvent.objects.create(
        table=table, hand=hand, version=version, seq=table.last_event_seq,
        type="hand_voided", data=data,
    )  # fmt: skip
    hand.ended = now
    hand.void_reason = reason[:200]
    hand.result = data
    hand.dealt = hand.dealt or (table.open_hand_id == hand.pk and table.open_hand_dealt)
    hand.save(update_fields=["ended", "void_reason", "result", "dealt"])
    table.open_hand, table.open_hand_dealt = None, False
    table.state = engine.game.dump(restored) if table.plays_for_chips else table.rest_state
    table.version = version
    journal_restore(table=table, version=version, state=table.state)
    deadline = moment_of(engine.game.deadline(restored))
    table.deadline = None if deadline is None else max(deadline, now)
    table.save()
    announce_on_commit(table)
    if table.status == TableStatus.CLOSING:
        _resettle(table, now)  # back between hands: a closing table stops there
    return data


def _match_seats(table: Table, public: dict[str, Any], now: datetime) -> None:
    """Make the seat records agree with a restored state."""
    occupied = {entry["seat"]: entry.get("player") for entry in public.get("seats", [])
                if "player" in entry}  # fmt: skip
    for seat in Seat.objects.filter(table=table, left__isnull=True):
        if seat.number not in occupied:
            seat.left = now
            seat.save(update_fields=["left"])
    active = set(
        Seat.objects.filter(table=table, left__isnull=True).values_list("number", flat=True)
    )
    for number, player in occupied.items():
        if number in active:
            continue
        earlier = (
            Seat.objects.filter(table=table, number=number, user__username=player)
            .order_by("-left")
            .first()
        )
        if earlier is not None:
            earlier.left = None
            earlier.save(update_fields=["left"])


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


@transaction.atomic
def table_timers_set(*, table_id: int, timers: Mapping[str, Any]) -> dict[str, Any]:
    """Change a table's timers between hands, in ``Table.config`` and in its state's config;
    returns the values they had.

    Safe for every engine here because a timer only ever sets the next deadline (``now +
    seconds``): the deadline already running keeps its time and the next one uses the new
    value. The swap is checked anyway: the new state must dump exactly as the old one, but
    for its config. Refused while a hand is in play, and for anything but a timer.
    """
    table = locked_table(table_id)
    if table.status == TableStatus.CLOSED:
        raise IllegalAction(words("this table is closed"))
    current = table_timer_names(table=table)
    if not current:
        label = str(table.get_game_display())
        # Translators: {game} is a game's name, such as "Chinese Poker".
        raise IllegalAction(words("{game} tables have no timers to change", game=label))
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
    checked = engine.make_config(table.preset, options)  # the game's own checks of the values
    game = engine.game
    old_state = game.load(table.state)
    # table_timer_names found a config dataclass in it: every engine's state is a dataclass.
    assert dataclasses.is_dataclass(old_state) and not isinstance(old_state, type)
    # Only the timers change in the config the table plays by: its stake may have moved on
    # since the table was made (a tournament's levels), and Table.config has the first.
    config = dataclasses.replace(
        getattr(old_state, "config"),  # noqa: B009  (a dataclass's field, for mypy)
        **{name: getattr(checked, name) for name in timers},
    )
    new_state = dataclasses.replace(old_state, config=config)
    dumped = game.dump(new_state)
    unchanged = {k: v for k, v in game.dump(old_state).items() if k != "config"}
    if {k: v for k, v in dumped.items() if k != "config"} != unchanged or (
        getattr(game.load(dumped), "config", None) != config
    ):
        raise IllegalAction(words("this table's state cannot take new timers; nothing changed"))
    table.config = options
    table.state = dumped
    table.version += 1
    table.save(update_fields=["config", "state", "version", "updated"])
    journal_restore(table=table, version=table.version, state=dumped)
    announce_on_commit(table)
    return {name: current[name] for name in timers}


@transaction.atomic
def table_bots_set(*, table_id: int, bots: int) -> tuple[int, list[str]]:
    """Keep ``bots`` seats filled by house bots; returns how many it kept before and the bots
    that leave. Fewer: the last bots to sit down leave (through the game, so one in a hand
    leaves when it ends). More: the clock seats them (cardroom/clock/bots.py).
    """
    table = locked_table(table_id)
    if table.status == TableStatus.CLOSED:
        raise IllegalAction(words("this table is closed"))
    if table.plays_for_chips:
        raise IllegalAction(
            words("a tournament seats its own bots when they register; its table keeps no bots")
        )
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
    return before, leaving
