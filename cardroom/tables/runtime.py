"""The table runtime: the only code that changes a table (docs/architecture.md).

One action is one database transaction: lock the table row, load the state, ``apply``, post
every money move to the ledger, append the events to the history, save the state with a new
version and the next deadline; after commit, tell the table's channel group the new version.
A game never deals by itself: when it wants a deck, the runtime shuffles with ``secrets``,
records the deck's commitment in a new hand, and applies the deal in the same transaction.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, NamedTuple

from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone, translation

from accounts.ledger import LedgerError, Posting, ledger_post
from accounts.models import User
from accounts.sql.writes import Writes, insert_returning
from cardroom.models import (
    Hand,
    HandEvent,
    Round,
    Seat,
    Table,
    TableAction,
    TableStatus,
)
from cardroom.realtime.broadcast import broadcast_on_commit
from cardroom.responsible.checks import guard_stake, seats_to_release, stand_up_at_rest
from cardroom.storage.rows import (
    bankroll_balances,
    due_table_and_seats_locked,
    hand_numbering,
    held_seats,
    last_transfer_id,
    table_and_seats_locked,
    table_row_locked,
)
from cardroom.tables.engines import Engine, engine_for
from cardroom.tables.hand_log import recent_hands
from cardroom.tables.places import account_code, transfer_kind
from cardroom.tables.pot_payers import pot_returns
from cardroom.tables.presence import LEASE
from cardroom.tables.readers import event_readers
from cardroom.tables.snapshots import commitment_of, table_snapshot
from cardroom.waitlist.services import sit_refusal
from games.deck import commit_deck, shuffled_deck
from games.engine import ConfigError, IllegalAction
from games.words import Sentence, words

__all__ = [
    "Outcome",
    "Request",
    "journal_restore",
    "locked_table",
    "moment_of",
    "settle",
    "table_act",
    "table_act_many",
    "table_apply",
    "table_create",
    "table_release",
    "table_timeout",
]

log = logging.getLogger(__name__)

#: Actions a player may send; the runtime adds ``seat`` and ``now`` itself.
PLAYER_ACTIONS = frozenset(
    {"sit", "leave", "top_up", "sit_out", "sit_in", "ante", "decline", "declare", "set",
     "submit", "surrender", "declare_natural", "bet", "play", "fold", "pass", "choose"}
)  # fmt: skip


#: The fields each player action may carry, besides its kind and seat: only what the rules
#: read is applied and journaled, whatever else a client adds ("stack", "player", ...).
PLAYER_FIELDS: dict[str, tuple[str, ...]] = {
    "sit": ("buy_in",),
    "top_up": ("amount",),
    "declare": ("choice",),
    "pass": ("card",),
    "bet": ("ante", "pair_plus"),
    "play": ("amount",),
    # Chinese Poker: rows may come with the submit or the natural that makes them final.
    "set": ("front", "middle", "back", "submit"),
    "submit": ("front", "middle", "back"),
    "declare_natural": ("natural", "front", "middle", "back"),
}

#: The table fields every settled action writes (``updated`` is stamped by Django).
SETTLED_FIELDS = (
    "state",
    "version",
    "deadline",
    "status",
    "open_hand",
    "open_hand_dealt",
    "last_event_seq",
    "updated",
)

#: Actions that put new money at stake: refused while a table is paused or closing.
NEW_STAKES = frozenset({"sit", "top_up", "bet"})

#: Decisions that a deadline closes: after it they are refused, and the clock applies the
#: timeout instead. Seat management (leave, sit out, ...) stays possible at any time.
TIMED_ACTIONS = frozenset(
    {"ante", "decline", "declare", "set", "submit", "surrender", "declare_natural", "bet",
     "play", "fold", "pass", "choose"}
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Outcome:
    """What an applied action did: the table's new version and the events' types.

    ``repeated``: the action's id had been applied before, so nothing was applied now and
    ``version`` is the version that first application produced."""

    table_id: int
    version: int
    events: tuple[str, ...]
    repeated: bool = False


def _timestamp(moment: datetime) -> float:
    return moment.timestamp()


def moment_of(timestamp: float | None) -> datetime | None:
    return None if timestamp is None else datetime.fromtimestamp(timestamp, tz=UTC)


@transaction.atomic
def table_create(
    *, game: str, preset: str, options: Mapping[str, Any], name: str, bots: int = 0
) -> Table:
    """A new open table; the config is validated by the game (ConfigError says what is wrong)."""
    engine = engine_for(game)
    if preset not in engine.presets:
        raise ConfigError(
            words(
                "unknown preset {preset}; presets: {presets}",
                preset=repr(preset),
                presets=", ".join(engine.presets),
            )
        )
    config = engine.make_config(preset, dict(options))
    state = engine.new_table(config)
    stakes = int(getattr(config, "ante", None) or getattr(config, "unit", None) or 0)
    table = Table.objects.create(
        name=name,
        game=game,
        preset=preset,
        config=dict(options),
        stakes=stakes or int(getattr(config, "min_ante", 0)),
        state=engine.game.dump(state),
        rest_state=engine.game.dump(state),
        bots=bots,
    )
    journal_restore(table=table, version=0, state=table.state)
    return table


def table_act(
    *,
    table_id: int,
    user: User,
    action: Mapping[str, Any],
    now: datetime | None = None,
    action_id: str | None = None,
    present: bool = False,
) -> Outcome:
    """A player's action: the seat is the user's own, never one the client names.

    ``sit`` takes ``buy_in`` (cents) and optionally the ``seat`` wanted; every other action
    needs the user to be seated at the table. ``action_id`` (the client's id as JSON text):
    an id this user already had applied at this table is not applied again, from any
    connection or process; the Outcome says ``repeated``. ``present``: the action came over
    a socket of this table, which a seat it creates counts as its first connection.
    """
    kind = action.get("kind")
    if kind not in PLAYER_ACTIONS:
        raise IllegalAction(words("unknown action {kind}", kind=repr(kind)))
    return _apply(
        table_id=table_id,
        action=dict(action),
        user=user,
        now=now,
        action_id=action_id,
        present=present,
    )


def table_timeout(
    *, table_id: int, now: datetime | None = None, claim: bool = False
) -> Outcome | None:
    """Apply the timeout a passed deadline calls for; None when nothing is due (yet).
    ``claim`` (the clock): a table whose row another transaction holds is passed over rather
    than waited for (PostgreSQL; that holder is acting on it), and the check that it is due
    goes with the read of the table (``due_table_and_seats_locked``)."""
    try:
        return _apply(
            table_id=table_id, action={"kind": "timeout"}, user=None, now=now, claim=claim
        )
    except IllegalAction:
        return None


def table_apply(
    *, table_id: int, action: Mapping[str, Any], now: datetime | None = None
) -> Outcome:
    """A system action (the clock, the operator, bots acting for their seat)."""
    return _apply(table_id=table_id, action=dict(action), user=None, now=now)


def _apply(
    *,
    table_id: int,
    action: dict[str, Any],
    user: User | None,
    now: datetime | None = None,
    action_id: str | None = None,
    present: bool = False,
    claim: bool = False,
) -> Outcome:
    try:
        with transaction.atomic():
            if not claim:
                table, seats = locked_table_and_seats(table_id)
                return _apply_to(table, seats, action, user, now, action_id, present)
            now = now or timezone.now()
            if (due := due_table_and_seats_locked(table_id, now)) is not None:
                table, seats = _with_open_hand(due[0]), due[1]
                return _apply_to(table, seats, action, user, now, action_id, present)
        # Refused once its transaction, which wrote nothing, has committed: a rollback would
        # make psycopg forget every statement it prepared on this connection, and the clocks
        # of several processes miss each other's claims all the time.
        raise IllegalAction(words("nothing is due on the clock"))
    except (IllegalAction, ConfigError, LedgerError, IntegrityError):
        # A refusal may be the retry of an id that was applied (a top-up now over the limit,
        # an ante already made, the journal's unique id): then it is answered as applied.
        # Only failures pay for this look-up; the journal row is the receipt.
        if (earlier := _repeated(table_id, user, action_id)) is not None:
            return earlier
        raise


def locked_table(table_id: int) -> Table:
    """The table row, locked for this transaction, with its open hand (one query)."""
    return _with_open_hand(table_row_locked(table_id))


def locked_table_and_seats(table_id: int) -> tuple[Table, dict[int, Seat]]:
    """``locked_table`` and the seats held, read once the lock is held (one round trip on
    PostgreSQL)."""
    table, seats = table_and_seats_locked(table_id)
    return _with_open_hand(table), seats


def _with_open_hand(table: Table) -> Table:
    if table.open_hand_id is not None and table.open_hand is None:
        # PostgreSQL, after waiting for the lock: the row is re-read as the other transaction
        # left it, but the joined hand is read from the snapshot taken before the wait, in
        # which the hand that transaction opened does not exist yet. Read it now.
        table.open_hand = Hand.objects.get(pk=table.open_hand_id)
    return table


def _apply_to(
    table: Table,
    seats: dict[int, Seat],
    action: dict[str, Any],
    user: User | None,
    now: datetime | None,
    action_id: str | None,
    present: bool = False,
) -> Outcome:
    """Apply one action to the locked ``table`` whose held ``seats`` are given (both are
    brought up to date in memory, so a batch's next action starts from them)."""
    now = now or timezone.now()
    engine = engine_for(table.game)
    game = engine.game
    users = {number: seat.user for number, seat in seats.items()}
    if user is not None:
        action = _player_action(table, game, action, user, seats, users, now, present)
        late = table.deadline is not None and now > table.deadline
        if late and action["kind"] in TIMED_ACTIONS:
            raise IllegalAction(words("too late: the deadline for this decision has passed"))
    if table.status == TableStatus.CLOSED:
        raise IllegalAction(words("this table is closed"))
    if action["kind"] == "timeout" and (table.deadline is None or now < table.deadline):
        # The table's deadline is the clock's authority: a held clock has none.
        raise IllegalAction(words("nothing is due on the clock"))
    if table.status != TableStatus.OPEN and action["kind"] in NEW_STAKES:
        raise IllegalAction(_no_new_stakes(table.status))
    action["now"] = _timestamp(now)
    state, events = game.apply(game.load(table.state), action)
    if user is not None:
        # Exclusions and the player's own limits (docs/responsible-gaming.md).
        guard_stake(action=action, events=events, seat=seats[action["seat"]], now=now)
    actor = None if user is None else (user, action_id)
    outcome = settle(table, engine, state, list(events), seats, users, now, [action], actor)
    for number in [number for number, seat in seats.items() if seat.left is not None]:
        del seats[number]
    return outcome


class Request(NamedTuple):
    """One player's request in a batch (see ``table_act`` for its fields)."""

    user: User
    action: Mapping[str, Any]
    action_id: str | None = None
    present: bool = False


def table_act_many(
    *, table_id: int, requests: Sequence[Request | tuple[Any, ...]]
) -> list[Outcome | Exception]:
    """Several players' actions at one table, in the order given, in one transaction.

    Each is applied exactly as ``table_act`` would apply it alone, one version each (the
    journal, the ledger and the history cannot tell the difference), but the table is locked
    and its seats read once for all of them: what a burst of antes at one table costs. Each
    request's answer is its Outcome or the refusal it met, which undoes that request only (a
    savepoint); a database failure undoes them all and is raised.
    """
    batch = [Request(*request) for request in requests]
    if len(batch) == 1:
        # Alone, the transaction itself undoes a refusal: no savepoint (two statements fewer,
        # and most batches are one action: a table with nothing in flight sends at once).
        return [_alone(table_id, batch[0])]
    answers: list[Outcome | Exception] = []
    with transaction.atomic():
        table: Table | None = None
        seats: dict[int, Seat] = {}
        for user, action, action_id, present in batch:
            kind = action.get("kind")
            if kind not in PLAYER_ACTIONS:
                answers.append(IllegalAction(words("unknown action {kind}", kind=repr(kind))))
                continue
            if table is None:
                table, seats = locked_table_and_seats(table_id)
            try:
                with transaction.atomic():
                    answer = _apply_to(table, seats, dict(action), user, None, action_id, present)
                    answers.append(answer)
            except (IllegalAction, ConfigError, LedgerError, IntegrityError) as refusal:
                answers.append(_repeated(table_id, user, action_id) or refusal)
                # The savepoint undid the rows; what the action changed in memory is read
                # again (a refusal is rare: two queries).
                table = None
            except DatabaseError:
                raise  # the connection, not the request: nothing of the batch is applied
            except Exception as failure:  # a defect: it fails its own request, not the others
                answers.append(failure)
                table = None
    return answers


def _alone(table_id: int, request: Request) -> Outcome | Exception:
    """One request of ``table_act_many``, answered as it answers each of several."""
    try:
        return table_act(
            table_id=table_id,
            user=request.user,
            action=request.action,
            action_id=request.action_id,
            present=request.present,
        )
    except (IllegalAction, ConfigError, LedgerError, IntegrityError) as refusal:
        return refusal  # ``_apply`` has looked for an earlier application of its id
    except DatabaseError:
        raise
    except Exception as failure:  # a defect: answered, as in a batch, not raised
        return failure


def _repeated(table_id: int, user: User | None, action_id: str | None) -> Outcome | None:
    """The Outcome of an id this user had applied before, if the refused action was one."""
    if user is None or action_id is None:
        return None
    earlier = (
        TableAction.objects.filter(table_id=table_id, actor=user, client_id=action_id)
        .values_list("version", flat=True)
        .first()
    )
    return None if earlier is None else Outcome(table_id, earlier, (), repeated=True)


def _no_new_stakes(status: str) -> Sentence:
    """The refusal of new money at a table that is not open, by its status."""
    if status == TableStatus.PAUSED:
        return words("the table is paused: no new stakes")
    if status == TableStatus.CLOSING:
        return words("the table is closing after this hand: no new stakes")
    with translation.override(None):  # the status's English label, whatever the language
        label = str(TableStatus(status).label).lower()
    return words("the table is {status}: no new stakes", status=label)


def _no_seat(status: str) -> Sentence:
    """The refusal of a new player at a table that is not open, by its status."""
    if status == TableStatus.PAUSED:
        return words("this table is paused: nobody can sit down")
    if status == TableStatus.CLOSING:
        return words("this table is closing: nobody can sit down")
    if status == TableStatus.CLOSED:
        return words("this table is closed: nobody can sit down")
    return words("this table is {status}: nobody can sit down", status=status)


def table_release(*, table_id: int, now: datetime | None = None) -> Outcome | None:
    """Stand up now the players flagged to leave (an exclusion, "leave my tables", a loss
    limit reached, recorded by any process) whose seat has nothing in the hand in play; the
    others leave when it ends. None when nobody could stand up now."""
    with transaction.atomic():
        table = locked_table(table_id)
        if table.status == TableStatus.CLOSED:
            return None
        engine = engine_for(table.game)
        seats = held_seats(table.pk)
        state = engine.game.load(table.state)
        if not seats_to_release(engine, state, seats):
            return None
        users = {number: seat.user for number, seat in seats.items()}
        return settle(table, engine, state, [], seats, users, now or timezone.now(), [])


def settle(
    table: Table,
    engine: Engine,
    state: Any,
    recorded: list[Any],
    seats: dict[int, Seat],
    users: dict[int, User],
    now: datetime,
    journal: list[dict[str, Any]],
    actor: tuple[User, str | None] | None = None,
) -> Outcome:
    """After ``apply``: deal if wanted, close a closing table, post, record and save.

    ``actor``: the player whose action is the journal's first entry, and the id their client
    gave it (kept with it, so that the id is never applied again).

    A paused table deals no more and holds its clock while it is between hands; a closing
    table finishes the hand in play, then stands every player up, cashing them out. A player
    flagged to leave (cardroom/responsible/) stands up once their seat is at rest, before any
    deal, so they are never dealt into another hand.
    """
    game = engine.game
    stamp = _timestamp(now)
    state = stand_up_at_rest(
        engine=engine,
        state=state,
        seats=seats,
        recorded=recorded,
        journal=journal,
        now=now,
        stamp=stamp,
    )
    hand = table.open_hand if table.open_hand and table.open_hand.ended is None else None
    if hand is not None:
        # Kept on the table row while the hand is in play (no write of its own at the deal);
        # the Hand row gets it when the hand ends.
        hand.dealt = table.open_hand_dealt
    closing = table.status == TableStatus.CLOSING
    while game.wants_deck(state) and (
        table.status == TableStatus.OPEN or (closing and not engine.can_stop(state))
    ):
        if hand is None or hand.dealt:
            hand = _open_hand(table)
        state, dealt = _deal(hand, game, state, stamp, journal)
        recorded.extend(dealt)
    stopping = closing or _last_left(game, state, recorded)
    at_rest = engine.at_rest(state)
    if hand is None and not at_rest and any(event.moves() for event in recorded):
        # Money is going into a coming hand (antes, bets): the hand, and its committed deck,
        # start now, so every chip of it is recorded against it.
        hand = _open_hand(table)
    version = table.version + 1
    # The rows that read nothing back go together at the end (accounts/sql/writes.py).
    writes = Writes()
    _post_money(table, version, recorded, users, hand)
    _record_events(table, version, recorded, now, hand, users, writes)
    if stopping:
        # With this action's money posted: a pot given back is shared by what the ledger says.
        state, stop = _stop(table, engine, state, hand, users, stamp, journal, closing=closing)
        if stop is not None:
            _post_money(table, version, stop.events, users, stop.hand, first=len(recorded))
            _record_events(table, version, stop.events, now, stop.hand, users, writes)
            if stop.result is not None and stop.hand is not None:
                stop.hand.ended = now
                stop.hand.result = stop.result
                writes.update(stop.hand, ["ended", "result"])
            recorded = [*recorded, *stop.events]
            at_rest = engine.at_rest(state)
    writes.insert(
        TableAction,
        [
            TableAction(
                table=table,
                version=version,
                seq=seq,
                action=action,
                actor=actor[0] if actor and seq == 0 else None,
                client_id=actor[1] if actor and seq == 0 else None,
            )
            for seq, action in enumerate(journal)
        ],
    )
    _close_vacated_seats(table, game.view(state, None), seats, now)
    if at_rest and hand is not None and hand.ended is None and not hand.dealt:
        # A hand opened for its antes or bets that never came to a deal (too few players).
        hand.ended = now
        hand.result = {"type": "hand_not_dealt"}
        writes.update(hand, ["ended", "result"])
    table.open_hand = hand if hand is not None and hand.ended is None else None
    table.open_hand_dealt = table.open_hand is not None and hand is not None and hand.dealt
    table.state = game.dump(state)
    # Only what an action changes is written: the state, its pointers and (at a point between
    # hands) the copy a void returns to; the caller may have changed the status.
    written = [*SETTLED_FIELDS]
    types = tuple(event.type for event in recorded)
    if at_rest or "hand_ended" in types:
        # The point a void returns to: everything after it belongs to the next hand.
        table.rest_state = table.state
        table.rest_transfer = last_transfer_id(table.pk)
        written += ["rest_state", "rest_transfer"]
    table.version = version
    # A pause holds the clock between hands; a closing Guts table plays on to the round's end.
    held = table.status == TableStatus.PAUSED and at_rest
    table.deadline = (
        None if held or table.status == TableStatus.CLOSED else moment_of(game.deadline(state))
    )
    writes.update(table, written)
    writes.flush()  # before the snapshot, which may read the hand that ended
    ended = "hand_ended" in types or "pot_returned" in types
    broadcast_on_commit(table, _snapshot(table, recorded, seats, users, hand, ended))
    return Outcome(table.pk, version, types)


def _snapshot(
    table: Table,
    recorded: list[Any],
    seats: dict[int, Seat],
    users: dict[int, User],
    hand: Hand | None,
    ended: bool,
) -> dict[str, Any]:
    """What every watcher's frame is built from, from what this action already holds: the
    log of hands is read again only when a hand ended, bankrolls only when one moved."""
    moved = {
        users[int(place.split(":")[1])].pk
        for event in recorded
        for move in event.moves()
        for place in (move.source, move.target)
        if place.startswith("bankroll:") and int(place.split(":")[1]) in users
    }
    # Text keys: the snapshot crosses Redis as msgpack, whose maps take no integer keys.
    bankrolls = (
        {str(user): balance for user, balance in bankroll_balances(moved).items()}
        if moved
        else None
    )
    online = [
        (number, seat.user_id, seat.connections > 0 or users[number].is_bot)
        for number, seat in sorted(seats.items())
        if seat.left is None
    ]
    return table_snapshot(
        table,
        online,
        commitment_of(hand),
        stamp=secrets.token_hex(8),
        recent=recent_hands(table=table) if ended else None,
        bankrolls=bankrolls,
    )


def _deal(
    hand: Hand, game: Any, state: Any, stamp: float, journal: list[dict[str, Any]]
) -> tuple[Any, tuple[Any, ...]]:
    """Deal the hand's committed deck (the table row records that it was dealt)."""
    hand.dealt = True
    action = {"kind": "deal", "deck": hand.deck["deck"], "now": stamp}
    journal.append(action)
    result: tuple[Any, tuple[Any, ...]] = game.apply(state, action)
    return result


def _last_left(game: Any, state: Any, recorded: list[Any]) -> bool:
    """Whether a player left with this action and nobody is seated now."""
    if not any(getattr(event, "type", "") == "player_left" for event in recorded):
        return False
    return not any("player" in entry for entry in game.view(state, None)["seats"])


class Stopped(NamedTuple):
    """What a table stopping did after the action: its ``events`` (the pot given back, the
    players stood up), recorded against ``hand``; ``result``: the record of the return, which
    ``hand`` (opened for it, or the undealt hand that held its antes) ends with."""

    events: list[Any]
    hand: Hand | None
    result: dict[str, Any] | None


def _stop(
    table: Table,
    engine: Engine,
    state: Any,
    hand: Hand | None,
    users: dict[int, User],
    stamp: float,
    journal: list[dict[str, Any]],
    *,
    closing: bool,
) -> tuple[Any, Stopped | None]:
    """Where no cards are out: give a held pot back (closing, or the last player gone) and
    stand a closing table's players up; None if the table cannot stop yet."""
    if not engine.can_stop(state):
        return state, None
    events: list[Any] = []
    result = None
    total = engine.held_pot(state)
    undealt = hand is not None and hand.ended is None and not hand.dealt
    if total:
        if not undealt:
            hand = _open_hand(table)
        state, result = _return_pot(table, engine.game, state, total, users, stamp, events, journal)
    elif not undealt:
        hand = None  # nothing goes back: the players' stand-up belongs to no hand
    if closing:
        state = _stand_everyone_up(engine.game, state, stamp, events, journal)
        table.status = TableStatus.CLOSED
    if not events:
        return state, None
    return state, Stopped(events, hand, result)


def _return_pot(
    table: Table,
    game: Any,
    state: Any,
    total: int,
    users: dict[int, User],
    stamp: float,
    recorded: list[Any],
    journal: list[dict[str, Any]],
) -> tuple[Any, dict[str, Any]]:
    """Give the pot's ``total`` back to those who paid into it (cardroom/tables/pot_payers.py);
    ``users`` learns the players who have left, whose shares go to their bankrolls. The result
    is the record of the hand that holds the return."""
    public = game.view(state, None)
    names = {entry["seat"]: entry["player"] for entry in public["seats"] if "player" in entry}
    seated = {number: users[number] for number in names if number in users}
    returns, away = pot_returns(table.pk, total, seated, names, len(public["seats"]))
    action = {"kind": "return_pot", "returns": returns, "now": stamp}
    journal.append(action)
    state, events = game.apply(state, action)
    recorded.extend(events)
    users.update(away)
    return state, {"type": "pot_returned", "pot": total, "returns": returns}


def _stand_everyone_up(
    game: Any, state: Any, stamp: float, recorded: list[Any], journal: list[dict[str, Any]]
) -> Any:
    for entry in game.view(state, None).get("seats", []):
        if "player" in entry:
            action = {"kind": "leave", "seat": entry["seat"], "now": stamp}
            journal.append(action)
            state, left = game.apply(state, action)
            recorded.extend(left)
    return state


def journal_restore(*, table: Table, version: int, state: dict[str, Any]) -> None:
    """Journal a state set outright (a table's first state, a void, new timers)."""
    last = TableAction.objects.filter(table=table, version=version).aggregate(n=Max("seq"))["n"]
    TableAction.objects.create(
        table=table,
        version=version,
        seq=0 if last is None else last + 1,
        action={"kind": "restore", "state": state},
    )


def _player_action(
    table: Table,
    game: Any,
    action: dict[str, Any],
    user: User,
    seats: dict[int, Seat],
    users: dict[int, User],
    now: datetime,
    present: bool,
) -> dict[str, Any]:
    mine = next((number for number, seat in seats.items() if seat.user_id == user.pk), None)
    if "table" in action and action["table"] != table.pk:
        raise IllegalAction(
            words(
                "this connection is for table {table}, not {value}",
                table=table.pk,
                value=repr(action["table"]),
            )
        )
    named = action.pop("seat", None)
    fields = PLAYER_FIELDS.get(action["kind"], ())
    action = {"kind": action["kind"], **{name: action[name] for name in fields if name in action}}
    if action.get("submit") is not True:
        # The rules read only ``submit: true``; anything else a client put there is dropped.
        action.pop("submit", None)
    if action["kind"] != "sit":
        if mine is None:
            raise IllegalAction(words("you are not seated at this table"))
        if named is not None and named != mine:
            raise IllegalAction(words("you can act only for your own seat, {seat}", seat=mine))
        action["seat"] = mine
        return action
    action["seat_wanted"] = named
    if mine is not None:
        raise IllegalAction(words("you are already in seat {seat}", seat=mine))
    if table.status != TableStatus.OPEN:
        raise IllegalAction(_no_seat(table.status))
    free = [
        s["seat"] for s in game.view(game.load(table.state), None)["seats"] if "player" not in s
    ]
    wanted = action.pop("seat_wanted", None)
    if not free:
        raise IllegalAction(words("the table is full; join its wait list from the lobby"))
    held = sit_refusal(table, user, free, now)
    if held:
        raise IllegalAction(held)
    number = wanted if wanted in free else free[0]
    buy_in = action.pop("buy_in", None)
    if isinstance(buy_in, bool) or not isinstance(buy_in, int):
        raise IllegalAction(
            words("a buy-in is a whole number of cents, not {value}", value=repr(buy_in))
        )
    # A sit over a socket counts that socket: the seat is online from its first version,
    # with no second write and no "connect" action after it (docs/architecture.md, Presence).
    counted = {"connections": 1, "last_seen": now, "lease_until": now + LEASE} if present else {}
    seat = Seat(table=table, number=number, user=user, **counted)
    insert_returning(seat)
    seats[number] = seat
    users[number] = user
    return {**action, "seat": number, "stack": buy_in, "player": user.public_name}


def _open_hand(table: Table) -> Hand:
    """A new hand: shuffle with ``secrets`` and record the deck's commitment before any deal."""
    last, round_id = hand_numbering(table.pk)
    commitment = commit_deck(shuffled_deck())
    hand = Hand(
        table=table,
        round_id=round_id,
        number=last + 1,
        commitment_root=commitment.root,
        commitment={"leaves": list(commitment.leaves)},
        deck=commitment.to_json(),
    )
    insert_returning(hand)
    return hand


def _post_money(
    table: Table,
    version: int,
    events: list[Any],
    users: dict[int, User],
    hand: Hand | None,
    *,
    first: int = 0,
) -> None:
    """Post the moves of ``events``, numbered from ``first`` among the version's events."""
    postings: list[Posting] = []
    for index, event in enumerate(events, start=first):
        kind_name = event.type
        for number, move in enumerate(event.moves()):
            postings.append(
                Posting(
                    source=account_code(move.source, table_id=table.pk, users=users),
                    target=account_code(move.target, table_id=table.pk, users=users),
                    amount=move.amount,
                    kind=transfer_kind(kind_name, move.source, move.target),
                    idempotency_key=f"t{table.pk}:v{version}:e{index}:m{number}",
                    memo=kind_name,
                )
            )
    if postings:
        ledger_post(postings, table_id=table.pk, hand_id=hand.pk if hand else None, fresh_keys=True)


def _record_events(
    table: Table,
    version: int,
    events: list[Any],
    now: datetime,
    hand: Hand | None,
    users: Mapping[int, User],
    writes: Writes,
) -> None:
    """Append ``events`` to the history; a private one names its readers by user, from who
    sits where now (``users``), so a later occupant of its seat never reads it, nor it theirs.
    The rows are written with ``writes``."""
    if not events:
        return
    seq = table.last_event_seq
    ids = {number: user.pk for number, user in users.items()}
    rows = []
    for event in events:
        data = event.to_json()
        seq += 1
        private_to, audience = getattr(event, "private_to", None), _audience(event)
        rows.append(
            HandEvent(
                table=table,
                hand=hand,
                version=version,
                seq=seq,
                type=data["type"],
                data=data,
                private_to=private_to,
                audience=audience,
                readers=event_readers(private_to=private_to, audience=audience, users=ids),
            )
        )
        if data["type"] == "round_started":
            Round.objects.get_or_create(
                table=table, number=data["round"], defaults={"started": now}
            )
        elif data["type"] == "round_ended":
            Round.objects.filter(table=table, number=data["round"]).update(
                ended=now, end_reason=str(data.get("reason", ""))[:40]
            )
        if data["type"] == "hand_ended" and hand is not None:
            hand.ended = now
            hand.result = data
            writes.update(hand, ["ended", "result", "dealt"])
            hand = None
    writes.insert(HandEvent, rows)
    table.last_event_seq = seq


def _audience(event: Any) -> list[int] | None:
    """The seats that may read an event shown to several (a private comparison), else None."""
    audience = getattr(event, "audience", None)
    return None if audience is None else sorted(int(seat) for seat in audience)


def _close_vacated_seats(
    table: Table, public: Mapping[str, Any], seats: dict[int, Seat], now: datetime
) -> None:
    occupied = {entry["seat"] for entry in public["seats"] if "player" in entry}
    for number, seat in seats.items():
        if number not in occupied:
            seat.left = now
            seat.save(update_fields=["left"])
