"""The table runtime: the only code that changes a table (docs/architecture.md).

One action is one database transaction: lock the table row, load the state, ``apply``, post
every money move to the ledger, append the events to the history, save the state with a new
version and the next deadline; after commit, hand the new version to the announcement hook
(cardroom/tables/announce.py), which the sockets plug in.
A game never deals by itself: when it wants a deck, the runtime shuffles with ``secrets``,
records the deck's commitment in a new hand, and applies the deal in the same transaction.

A table that plays for a tournament's chips (``Table.plays_for_chips``; cardroom/tables/chips.py)
posts nothing to the ledger and keeps everything else; players may not sit, top up or leave
there (the tournament seats them with ``table_seat_chips``), nobody is stood up by the house,
and after every action the tournaments' hook settles the hand that ended (places, the winner).

Invariants: a refused action changes nothing (its transaction, or a batch's try and then its
savepoint, is undone); each applied action makes exactly one new version, whose journal
replayed from the table's first state gives the same events; at a table that plays for
money, every chip an event moves is posted to the ledger under a key unique to (table,
version, event, move), so nothing is posted twice; the runtime reads the game's state only
through the game (games.engine.Game).

``settle_played`` is the path every change takes after ``apply``, as named steps over the
action's :class:`Context` and what is :class:`Played` so far.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import NamedTuple

from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone, translation

from accounts.ledger import LedgerError, Posting, account_open, ledger_post, opened_with
from accounts.models import AccountKind, User
from accounts.sql.writes import Writes, insert_returning
from cardroom.models import (
    Hand,
    HandEvent,
    Round,
    Seat,
    Table,
    TableAction,
    TableStatus,
    WaitingPlayer,
)
from cardroom.models.responsible import PlayerLimits
from cardroom.storage.rows import (
    LookUp,
    bankroll_balances,
    due_table_and_seats_locked,
    hand_numbering,
    held_seats,
    read_ahead,
    table_and_seats_locked,
    table_row_locked,
)
from cardroom.tables.announce import announce_on_commit
from cardroom.tables.chips import (
    Settling,
    changes_tournament,
    chips_at_rest,
    chips_refusal,
    tournament_on_commit,
)
from cardroom.tables.deferred import Deferred, NeedsLock, rest_transfer_statement
from cardroom.tables.engines import Engine, TableState, engine_for
from cardroom.tables.hand_log import recent_hands
from cardroom.tables.places import account_code, transfer_kind
from cardroom.tables.policies import (
    guard_stake,
    seats_to_release,
    sit_refusal,
    stand_up_at_rest,
)
from cardroom.tables.pot_payers import pot_returns
from cardroom.tables.presence import LEASE
from cardroom.tables.readers import event_readers
from cardroom.tables.snapshots import Snapshot, commitment_of, share_loaded, table_snapshot
from games.deck import commit_deck, shuffled_deck
from games.engine import JSON, ConfigError, Event, Game, IllegalAction
from games.words import Sentence, words

__all__ = [
    "Action",
    "Context",
    "Outcome",
    "Played",
    "Request",
    "journal_restore",
    "locked_table",
    "moment_of",
    "settle_played",
    "table_act",
    "table_act_many",
    "table_apply",
    "table_create",
    "table_release",
    "table_seat_chips",
    "table_timeout",
]

log = logging.getLogger(__name__)

#: An action as a client or the house sends it: a JSON object with a ``kind``.
Action = Mapping[str, object]

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
    """A moment as the rules read it: seconds since the epoch."""
    return moment.timestamp()


def moment_of(timestamp: float | None) -> datetime | None:
    """A rules' moment (a deadline) as an aware datetime, or None."""
    return None if timestamp is None else datetime.fromtimestamp(timestamp, tz=UTC)


def loaded_state(table: Table, game: Game[TableState]) -> TableState:
    """``table.state`` loaded by its game: the state this instance was last saved with, kept
    beside it (a batch's next action, an owner's next batch), else loaded from its JSON."""
    kept = getattr(table, "_loaded_state", None)
    if kept is not None and kept[0] is table.state:
        return kept[1]
    return game.load(table.state)


def _keep_loaded(table: Table, state: TableState) -> None:
    """Keep the state ``table.state`` was just dumped from, for ``loaded_state``."""
    table._loaded_state = (table.state, state)  # type: ignore[attr-defined]


@transaction.atomic
def table_create(
    *,
    game: str,
    preset: str,
    options: Mapping[str, object],
    name: str,
    bots: int = 0,
    plays_for_chips: bool = False,
) -> Table:
    """A new open table; the config is validated by the game (ConfigError says what is wrong).
    ``plays_for_chips``: a tournament's table, whose stakes are its chips (cardroom/tables/
    chips.py); its ``stakes`` are then in chips too."""
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
        plays_for_chips=plays_for_chips,
    )
    journal_restore(table=table, version=0, state=table.state)
    return table


def table_act(
    *,
    table_id: int,
    user: User,
    action: Action,
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


def table_apply(*, table_id: int, action: Action, now: datetime | None = None) -> Outcome:
    """A system action (the clock, the operator, bots acting for their seat)."""
    return _apply(table_id=table_id, action=dict(action), user=None, now=now)


def table_seat_chips(
    *, table_id: int, user: User, seat: int, stack: int, now: datetime | None = None
) -> Outcome:
    """Seat ``user`` in ``seat`` with ``stack`` chips at a table that plays for a tournament's
    chips: the tournament's own way to seat its players (no buy-in moves, no wait list, no
    limits: the money was checked and moved when they registered). One ``sit`` action, with
    the seat, the stack and the player's name as the game takes them, one version; refused
    (IllegalAction) at a table that plays for money, or where the game refuses the sit."""
    with transaction.atomic():
        table, seats = locked_table_and_seats(table_id)
        if not table.plays_for_chips:
            raise IllegalAction(words("only a tournament's table seats its players itself"))
        if seat in seats:
            raise IllegalAction(words("seat {seat} is taken", seat=seat))
        row = Seat(table=table, number=seat, user=user)
        insert_returning(row)
        seats[seat] = row
        action: JSON = {"kind": "sit", "seat": seat, "stack": stack, "player": user.public_name}
        return _apply_to(table, seats, action, None, now, None, house_seat=True)


def _apply(
    *,
    table_id: int,
    action: JSON,
    user: User | None,
    now: datetime | None = None,
    action_id: str | None = None,
    present: bool = False,
    claim: bool = False,
) -> Outcome:
    """Apply ``action`` in a transaction of its own; a refused retry of an id that was
    applied is answered with that application (``_repeated``)."""
    try:
        with transaction.atomic():
            if not claim:
                with read_ahead(*_sit_look_ups(table_id, [Request(user, action)])):
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


def _sit_look_ups(table_id: int, requests: Sequence[Request]) -> tuple[LookUp, ...]:
    """What the players' ``sit`` requests look up under the table's lock, read with the lock:
    the table's wait list (cardroom/waitlist/services.py, ``sit_refusal``: the first sit takes
    it, a later one reads it again, after the sits before it) and each player's limits
    (cardroom/responsible/checks.py, ``guard_stake``)."""
    sitters = [
        request.user.pk
        for request in requests
        if request.user is not None and request.action.get("kind") == "sit"
    ]
    if not sitters:
        return ()
    limits = [(PlayerLimits, "user_id", user_id) for user_id in dict.fromkeys(sitters)]
    return ((WaitingPlayer, "table_id", table_id), *limits)


def locked_table(table_id: int) -> Table:
    """The table row, locked for this transaction, with its open hand (one query)."""
    return _with_open_hand(table_row_locked(table_id))


def locked_table_and_seats(table_id: int) -> tuple[Table, dict[int, Seat]]:
    """``locked_table`` and the seats held, read once the lock is held (one round trip on
    PostgreSQL)."""
    table, seats = table_and_seats_locked(table_id)
    return _with_open_hand(table), seats


def _with_open_hand(table: Table) -> Table:
    """``table`` with its open hand read, if the lock's read could not join it."""
    if table.open_hand_id is not None and table.open_hand is None:
        # PostgreSQL, after waiting for the lock: the row is re-read as the other transaction
        # left it, but the joined hand is read from the snapshot taken before the wait, in
        # which the hand that transaction opened does not exist yet. Read it now.
        table.open_hand = Hand.objects.get(pk=table.open_hand_id)
    return table


def _apply_to(
    table: Table,
    seats: dict[int, Seat],
    action: JSON,
    user: User | None,
    now: datetime | None,
    action_id: str | None,
    present: bool = False,
    *,
    house_seat: bool = False,
    deferred: Deferred | None = None,
) -> Outcome:
    """Apply one action to the locked ``table`` whose held ``seats`` are given (both are
    brought up to date in memory, so a batch's next action starts from them). ``house_seat``:
    the tournament's ``sit`` at a chips table (``table_seat_chips``), the one sit allowed
    there. ``deferred``: the owner's batch (cardroom/tables/held.py), whose rows are written
    together once every action of it is settled."""
    now = now or timezone.now()
    engine = engine_for(table.game)
    game: Game[TableState] = engine.game
    users = {number: seat.user for number, seat in seats.items()}
    if user is not None:
        action = _player_action(table, game, action, user, seats, users, now, present)
        late = table.deadline is not None and now > table.deadline
        if late and action["kind"] in TIMED_ACTIONS:
            raise IllegalAction(words("too late: the deadline for this decision has passed"))
    if table.status == TableStatus.CLOSED:
        raise IllegalAction(words("this table is closed"))
    if table.plays_for_chips and not house_seat and (refusal := chips_refusal(action["kind"])):
        # Whoever asks (the player, the presence sweep, an operator): a tournament's player
        # stays until out of chips (cardroom/tables/chips.py).
        raise IllegalAction(refusal)
    if action["kind"] == "timeout" and (table.deadline is None or now < table.deadline):
        # The table's deadline is the clock's authority: a held clock has none.
        raise IllegalAction(words("nothing is due on the clock"))
    if table.status != TableStatus.OPEN and action["kind"] in NEW_STAKES:
        raise IllegalAction(_no_new_stakes(table.status))
    action["now"] = _timestamp(now)
    state, events = game.apply(loaded_state(table, game), action)
    if user is not None and not table.plays_for_chips:
        # Exclusions and the player's own limits (docs/responsible-gaming.md). Not at a chips
        # table: chips are not money, and the buy-in was checked when the player registered.
        guard_stake(action=action, events=events, seat=seats[action["seat"]], now=now)
    actor = None if user is None else (user, action_id)
    if deferred is not None:
        deferred.settling = True  # from here on, a failure leaves the table half changed
    context = Context(table, engine, seats, users, now, actor, deferred)
    outcome = settle_played(context, Played(state, events, (action,)))
    for number in [number for number, seat in seats.items() if seat.left is not None]:
        del seats[number]
    return outcome


class Request(NamedTuple):
    """One player's request in a batch (see ``table_act`` for its fields); at a held table
    (cardroom/tables/held.py), also the clock's ``timeout``, with no user."""

    user: User | None
    action: Action
    action_id: str | None = None
    present: bool = False


#: A request given as a plain tuple: (user, action[, action id[, present]]).
RequestTuple = (
    tuple[User, Action] | tuple[User, Action, str | None] | tuple[User, Action, str | None, bool]
)


def table_act_many(
    *, table_id: int, requests: Sequence[Request | RequestTuple]
) -> list[Outcome | Exception]:
    """Several players' actions at one table, in the order given, in one transaction.

    Each is applied exactly as ``table_act`` would apply it alone, one version each (the
    journal, the ledger and the history cannot tell the difference), but the table is locked
    and its seats read once for all of them: what a burst of antes at one table costs. Each
    request's answer is its Outcome or the refusal it met, which undoes that request only: the
    batch goes first with no savepoint, and where a request is refused, that try is undone
    whole and the batch applied again with a savepoint for each request. A database failure
    undoes them all and is raised.
    """
    batch = [Request(*request) for request in requests]
    if len(batch) == 1:
        # Alone, the transaction itself undoes a refusal: no savepoint (two statements fewer,
        # and most batches are one action: a table with nothing in flight sends at once).
        return [_alone(table_id, batch[0])]
    try:
        # Almost every batch: no savepoint, whose SAVEPOINT and RELEASE would cost each
        # request two round trips.
        return _applied(table_id, batch, undoable=False)
    except _Undone:
        pass  # a request was refused, or failed: nothing of that try was written
    return _applied(table_id, batch, undoable=True)


class _Undone(Exception):
    """A request of a batch applied with no savepoints was refused, or failed: the batch's
    transaction is rolled back, with what it was to announce on commit."""


def _applied(table_id: int, batch: list[Request], *, undoable: bool) -> list[Outcome | Exception]:
    """The batch in one transaction. ``undoable``: each request in a savepoint that its
    refusal (or failure) undoes, answering it; else the first refusal or failure undoes the
    whole try (``_Undone``). A database failure other than a repeated id is raised."""
    answers: list[Outcome | Exception] = []
    with transaction.atomic(), read_ahead(*_sit_look_ups(table_id, batch)):
        table: Table | None = None
        seats: dict[int, Seat] = {}
        for user, action, action_id, present in batch:
            kind = action.get("kind")
            if user is None or kind not in PLAYER_ACTIONS:
                if not undoable:
                    raise _Undone
                answers.append(
                    IllegalAction(words("a player's action needs its player"))
                    if user is None
                    else IllegalAction(words("unknown action {kind}", kind=repr(kind)))
                )
                continue
            if table is None:
                table, seats = locked_table_and_seats(table_id)
            try:
                with transaction.atomic() if undoable else nullcontext():
                    answer = _apply_to(table, seats, dict(action), user, None, action_id, present)
                    answers.append(answer)
            except (IllegalAction, ConfigError, LedgerError, IntegrityError) as refusal:
                if not undoable:
                    raise _Undone from refusal
                answers.append(_repeated(table_id, user, action_id) or refusal)
                # The savepoint undid the rows; what the action changed in memory is read
                # again (a refusal is rare: two queries).
                table = None
            except DatabaseError:
                raise  # the connection, not the request: nothing of the batch is applied
            except Exception as failure:  # a defect: it fails its own request, not the others
                if not undoable:
                    raise _Undone from failure
                answers.append(failure)
                table = None
    return answers


def _alone(table_id: int, request: Request) -> Outcome | Exception:
    """One request of ``table_act_many``, answered as it answers each of several."""
    if request.user is None:
        return IllegalAction(words("a player's action needs its player"))
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
        if table.plays_for_chips:
            if not _flagged_to_sit_out(engine, state, seats):
                return None
        elif not seats_to_release(engine, state, seats):
            return None
        users = {number: seat.user for number, seat in seats.items()}
        context = Context(table, engine, seats, users, now or timezone.now())
        return settle_played(context, Played(state, (), ()))


@dataclass(frozen=True, slots=True)
class Context:
    """The action being settled, in the transaction that holds ``table``'s row lock.

    ``seats``: the table's held seats; ``users``: who sits where (the players who leave with
    this version included); ``now``: the action's moment. ``actor``: the player whose action
    is the journal's first entry, and the id their client gave it (kept with it, so that the
    id is never applied again); ``None`` for the clock, an operator or the house. The
    ``table`` and the ``seats`` are the rows this version writes: settling brings them up to
    date in memory, so a batch's next action starts from them. ``deferred``: the owner's batch
    (cardroom/tables/held.py), which holds the table without its row lock until it writes.
    ``bankrolls``: the balances of the bankrolls this version's postings moved, by user id, as
    they left them (the ledger holds those accounts locked until the version commits).
    """

    table: Table
    engine: Engine
    seats: dict[int, Seat]
    users: Mapping[int, User]
    now: datetime
    actor: tuple[User, str | None] | None = None
    deferred: Deferred | None = None
    bankrolls: dict[int, int] = field(default_factory=dict)

    @property
    def game(self) -> Game[TableState]:
        """The table's rules."""
        game: Game[TableState] = self.engine.game
        return game

    @property
    def stamp(self) -> float:
        """``now`` as the rules read it (seconds since the epoch)."""
        return _timestamp(self.now)


class Played(NamedTuple):
    """What this version has played so far: the table's ``state``, the events ``recorded``
    (what the history, the ledger and the watchers get) and the ``journal`` of the actions
    that made them, in order (replayed from the table's first state, they give the same
    events: cardroom/history/journal_audit.py)."""

    state: TableState
    recorded: tuple[Event, ...]
    journal: tuple[JSON, ...]

    def then(self, state: TableState, action: JSON, events: Sequence[Event]) -> Played:
        """This, followed by ``action`` and the ``events`` it gave, leaving ``state``."""
        return Played(state, (*self.recorded, *events), (*self.journal, action))


def settle_played(context: Context, played: Played) -> Outcome:
    """After ``apply``: stand the flagged players up, deal if wanted, post, record, stop a
    closing table, journal and save the new version; once it commits, announce it.

    A paused table deals no more and holds its clock while it is between hands; a closing
    table finishes the hand in play, then stands every player up, cashing them out. A player
    flagged to leave (cardroom/responsible/) stands up once their seat is at rest, before any
    deal, so they are never dealt into another hand. Every row of the version is written in
    this transaction (most of them together at its end, accounts/sql/writes.py); the ledger
    is posted before a pot is given back, which is shared by what the ledger says.
    """
    table = context.table
    if table.plays_for_chips:
        played = _sit_out_flagged(context, played)
        played = _tournament_at_rest(context, played)
    else:
        played = _stand_up_flagged(context, played)
    played, hand = _deal_wanted(context, played, _hand_in_play(table))
    closing = table.status == TableStatus.CLOSING
    stopping = closing or _last_left(context.game, played)
    at_rest = context.engine.at_rest(played.state)
    hand = _hand_for_money(context, played, hand, at_rest)
    version = table.version + 1
    deferred = context.deferred
    writes = deferred.writes if deferred is not None else Writes()
    _post_and_record(context, version, played.recorded, hand, writes)
    if stopping:
        _needs_lock(context)
        stopped = _stop_after(context, played, hand, version, writes, closing=closing)
        if stopped is not None:
            context, played = stopped
            at_rest = context.engine.at_rest(played.state)
    _write_journal(context, version, played.journal, writes)
    _close_vacated_seats(context, context.game.view(played.state, None))
    _end_undealt(hand, at_rest, context.now, writes)
    types = _save_table(context, played, hand, version, at_rest, writes)
    ended = "hand_ended" in types or "pot_returned" in types
    if deferred is not None:
        # Written with the batch; the log of hands is read once it has committed.
        deferred.versions.append((_snapshot(context, played.recorded, hand, False), ended))
        return Outcome(table.pk, version, types)
    writes.flush()  # before the snapshot, which may read the hand that ended
    announce_on_commit(table, _snapshot(context, played.recorded, hand, ended))
    return Outcome(table.pk, version, types)


def _stand_up_flagged(context: Context, played: Played) -> Played:
    """Stand up the flagged players whose seat is at rest, and flag those whose loss limit
    this action reached (cardroom/responsible/checks.py); their leaves follow the action."""
    recorded, journal = list(played.recorded), list(played.journal)
    state = stand_up_at_rest(
        engine=context.engine,
        state=played.state,
        seats=context.seats,
        recorded=recorded,
        journal=journal,
        now=context.now,
        stamp=context.stamp,
    )
    return Played(state, tuple(recorded), tuple(journal))


def _flagged_to_sit_out(engine: Engine, state: TableState, seats: Mapping[int, Seat]) -> list[int]:
    """The flagged seats of a chips table whose player still sits in."""
    flagged = [number for number, seat in seats.items() if seat.leave_at_rest]
    if not flagged:
        return []
    public = engine.game.view(state, None)
    sitting = {
        entry["seat"]
        for entry in public.get("seats", [])
        if "player" in entry
        and entry.get("status") != "sitting_out"
        and not entry.get("sitting_out")
    }
    return [number for number in flagged if number in sitting]


def _sit_out_flagged(context: Context, played: Played) -> Played:
    """At a chips table, a player flagged to leave (an exclusion, "leave my tables", a session
    limit) sits out instead: their chips stay in play until the tournament is over for them,
    and the flag stands them up when the table closes. Chips are not money, so no loss limit
    is counted here."""
    for number in _flagged_to_sit_out(context.engine, played.state, context.seats):
        action: JSON = {"kind": "sit_out", "seat": number, "now": context.stamp}
        try:
            state, events = context.game.apply(played.state, action)
        except IllegalAction:
            continue  # the game has its reason (not now): the next action tries again
        played = played.then(state, action, events)
    return played


def _tournament_at_rest(context: Context, played: Played) -> Played:
    """The tournaments' hook at a chips table (cardroom/tables/chips.py): the busted players
    take their places and leave, the last one left wins; their leaves follow the action."""
    recorded, journal = list(played.recorded), list(played.journal)
    settling = Settling(
        table=context.table,
        engine=context.engine,
        state=played.state,
        seats=context.seats,
        users=context.users,
        hand=_hand_in_play(context.table),
        recorded=played.recorded,
        now=context.now,
        stamp=context.stamp,
    )
    state = chips_at_rest(settling, recorded=recorded, journal=journal)
    return Played(state, tuple(recorded), tuple(journal))


def _hand_in_play(table: Table) -> Hand | None:
    """The table's open hand, if it has not ended, with whether it was dealt (kept on the
    table row while the hand is in play, no write of its own at the deal; the Hand row gets
    it when the hand ends)."""
    hand = table.open_hand if table.open_hand and table.open_hand.ended is None else None
    if hand is not None:
        hand.dealt = table.open_hand_dealt
    return hand


def _deal_wanted(context: Context, played: Played, hand: Hand | None) -> tuple[Played, Hand | None]:
    """Deal while the rules want a deck: an open table always, a closing one only to finish
    the hand it cannot stop in. Each deal is of a new hand's committed deck (unless the hand
    in play, opened for its stakes, is not dealt yet); returns the hand in play after."""
    table, game, engine = context.table, context.game, context.engine
    closing = table.status == TableStatus.CLOSING
    while game.wants_deck(played.state) and (
        table.status == TableStatus.OPEN or (closing and not engine.can_stop(played.state))
    ):
        if hand is None or hand.dealt:
            _now(context)
            hand = _open_hand(table)
        played = _deal(hand, game, played, context.stamp)
    return played, hand


def _hand_for_money(
    context: Context, played: Played, hand: Hand | None, at_rest: bool
) -> Hand | None:
    """The hand this version's money is recorded against: the one in play or, when money is
    going into a coming hand (antes, bets), a new one whose committed deck starts now, so
    every chip of it is recorded against it. ``None``: no hand (money between hands)."""
    if hand is None and not at_rest and any(event.moves() for event in played.recorded):
        _now(context)  # a new hand's commitment is written before its money
        return _open_hand(context.table)
    return hand


def _now(context: Context) -> None:
    """Before a step that reads or writes at once: at an owner's batch, the table's lock and
    the rows deferred so far (cardroom/tables/deferred.py, ``Deferred.sync``)."""
    if context.deferred is not None:
        context.deferred.sync()


def _needs_lock(context: Context) -> None:
    """A step an owner's batch does not take (the table stopping, a bankroll's balance): the
    batch goes to the locked path (cardroom/tables/deferred.py)."""
    if context.deferred is not None:
        raise NeedsLock


def _post_and_record(
    context: Context,
    version: int,
    events: Sequence[Event],
    hand: Hand | None,
    writes: Writes,
    *,
    first: int = 0,
) -> None:
    """Post the money of ``events`` to the ledger and append them to the history, against
    ``hand``; ``first``: their number among the version's events (the ledger's keys)."""
    if not context.table.plays_for_chips:  # chips are not money: nothing goes to the ledger
        _post_money(context, version, events, hand, first=first)
    _record_events(context.table, version, events, context.now, hand, context.users, writes)


def _stop_after(
    context: Context,
    played: Played,
    hand: Hand | None,
    version: int,
    writes: Writes,
    *,
    closing: bool,
) -> tuple[Context, Played] | None:
    """Stop the table where it can (``_stop``), with this version's money already posted,
    and post and record what stopping did; the context then knows the players who left
    (whose shares of a pot went to their bankrolls). None if nothing was done."""
    state, stop = _stop(context, played.state, hand, closing=closing)
    if stop is None:
        return None
    context = replace(context, users={**context.users, **stop.away})
    _post_and_record(context, version, stop.events, stop.hand, writes, first=len(played.recorded))
    if stop.result is not None and stop.hand is not None:
        stop.hand.ended = context.now
        stop.hand.result = stop.result
        writes.update(stop.hand, ["ended", "result"])
    return context, Played(
        state, (*played.recorded, *stop.events), (*played.journal, *stop.journal)
    )


def _write_journal(context: Context, version: int, journal: Sequence[JSON], writes: Writes) -> None:
    """Journal the version's actions in order; the first carries its actor and client id."""
    actor = context.actor
    writes.insert_values(
        TableAction,
        [
            {
                "table_id": context.table.pk,
                "version": version,
                "seq": seq,
                "action": action,
                "actor_id": actor[0].pk if actor and seq == 0 else None,
                "client_id": actor[1] if actor and seq == 0 else None,
            }
            for seq, action in enumerate(journal)
        ],
    )


def _end_undealt(hand: Hand | None, at_rest: bool, now: datetime, writes: Writes) -> None:
    """End a hand opened for its antes or bets that never came to a deal (too few players),
    once the table is at rest."""
    if at_rest and hand is not None and hand.ended is None and not hand.dealt:
        hand.ended = now
        hand.result = {"type": "hand_not_dealt"}
        writes.update(hand, ["ended", "result"])


def _save_table(
    context: Context,
    played: Played,
    hand: Hand | None,
    version: int,
    at_rest: bool,
    writes: Writes,
) -> tuple[str, ...]:
    """Write the table row at ``version``: its state, its pointers (the open hand, the last
    event, the deadline) and, at a point between hands, the copy a void returns to. Only what
    an action changes is written (the caller may have changed the status). Returns the
    types of the version's events."""
    table, game = context.table, context.game
    table.open_hand = hand if hand is not None and hand.ended is None else None
    table.open_hand_dealt = table.open_hand is not None and hand is not None and hand.dealt
    table.state = game.dump(played.state)
    _keep_loaded(table, played.state)
    written = [*SETTLED_FIELDS]
    types = tuple(event.type for event in played.recorded)
    deferred = context.deferred
    if at_rest or "hand_ended" in types:
        # The point a void returns to: everything after it belongs to the next hand.
        table.rest_state = table.state
        written.append("rest_state")
        # Its last transfer's id is the database's to give, with the version's other rows and
        # after its transfers (an owner's batch writes them there too): no read of its own.
        # The row in memory keeps the old id, which only a void reads, from the database.
        writes.add(*rest_transfer_statement(table.pk))
    table.version = version
    # A pause holds the clock between hands; a closing Guts table plays on to the round's end.
    held = table.status == TableStatus.PAUSED and at_rest
    table.deadline = (
        None
        if held or table.status == TableStatus.CLOSED
        else moment_of(game.deadline(played.state))
    )
    if deferred is None:
        writes.update(table, written)
    else:  # written once, fenced, at the end of the owner's batch
        deferred.table_fields.update(written)
    return types


def _snapshot(
    context: Context, recorded: Sequence[Event], hand: Hand | None, ended: bool
) -> Snapshot:
    """What every watcher's frame is built from, from what this action already holds: the
    log of hands is read again only when a hand ended, bankrolls only when one moved, a
    tournament's state only when it changed (once committed: cardroom/tables/chips.py)."""
    table, seats, users = context.table, context.seats, context.users
    moved = (
        set()
        if table.plays_for_chips
        else {
            users[int(place.split(":")[1])].pk
            for event in recorded
            for move in event.moves()
            for place in (move.source, move.target)
            if place.startswith("bankroll:") and int(place.split(":")[1]) in users
        }
    )
    if moved:
        _needs_lock(context)  # the balances are the locked ledger's
    known = context.bankrolls
    if moved <= known.keys():  # the postings left them in hand
        balances = {user: known[user] for user in moved}
    else:  # one moved another way: the ledger says
        balances = bankroll_balances(moved)
    # Text keys: the snapshot crosses Redis as msgpack, whose maps take no integer keys.
    bankrolls = {str(user): balance for user, balance in balances.items()} if moved else None
    online = [
        (number, seat.user_id, seat.connections > 0 or users[number].is_bot)
        for number, seat in sorted(seats.items())
        if seat.left is None
    ]
    snapshot = table_snapshot(
        table,
        online,
        commitment_of(hand),
        stamp=(stamp := secrets.token_hex(8)),
        recent=recent_hands(table=table) if ended else None,
        bankrolls=bankrolls,
    )
    # This process's sockets build their frames from the state in hand, not loaded again.
    share_loaded(stamp, loaded_state(table, context.game))
    if table.plays_for_chips and changes_tournament(recorded):
        tournament_on_commit(table.pk, snapshot)
    return snapshot


def _deal(hand: Hand, game: Game[TableState], played: Played, stamp: float) -> Played:
    """Deal the hand's committed deck (the table row records that it was dealt)."""
    hand.dealt = True
    action: JSON = {"kind": "deal", "deck": hand.deck["deck"], "now": stamp}
    state, events = game.apply(played.state, action)
    return played.then(state, action, events)


def _last_left(game: Game[TableState], played: Played) -> bool:
    """Whether a player left with this action and nobody is seated now."""
    if not any(event.type == "player_left" for event in played.recorded):
        return False
    return not any("player" in entry for entry in game.view(played.state, None)["seats"])


class Stopped(NamedTuple):
    """What a table stopping did after the action: its ``events`` (the pot given back, the
    players stood up) and the ``journal`` of the actions that made them, recorded against
    ``hand``; ``result``: the record of the return, which ``hand`` (opened for it, or the
    undealt hand that held its antes) ends with; ``away``: the players who had left whose
    shares went to their bankrolls, by seat."""

    events: tuple[Event, ...]
    journal: tuple[JSON, ...]
    hand: Hand | None
    result: JSON | None
    away: Mapping[int, User]


def _stop(
    context: Context, state: TableState, hand: Hand | None, *, closing: bool
) -> tuple[TableState, Stopped | None]:
    """Where no cards are out: give a held pot back (closing, or the last player gone) and
    stand a closing table's players up (the table is then closed); None if the table cannot
    stop yet, or nothing was done."""
    table, engine = context.table, context.engine
    if not engine.can_stop(state):
        return state, None
    done = Played(state, (), ())
    result = None
    away: Mapping[int, User] = {}
    total = engine.held_pot(state)
    undealt = hand is not None and hand.ended is None and not hand.dealt
    if total:
        if not undealt:
            hand = _open_hand(table)
        done, result, away = _return_pot(context, done, total)
    elif not undealt:
        hand = None  # nothing goes back: the players' stand-up belongs to no hand
    if closing:
        done = _stand_everyone_up(context.game, done, context.stamp)
        table.status = TableStatus.CLOSED
    if not done.recorded:
        return done.state, None
    return done.state, Stopped(done.recorded, done.journal, hand, result, away)


def _return_pot(
    context: Context, played: Played, total: int
) -> tuple[Played, JSON, Mapping[int, User]]:
    """Give the pot's ``total`` back to those who paid into it (cardroom/tables/pot_payers.py).
    Returns what was played, the record of the hand that holds the return, and the players
    who have left whose shares go to their bankrolls (by seat)."""
    game = context.game
    public = game.view(played.state, None)
    names = {entry["seat"]: entry["player"] for entry in public["seats"] if "player" in entry}
    users = context.users
    seated = {number: users[number] for number in names if number in users}
    returns, away = pot_returns(context.table.pk, total, seated, names, len(public["seats"]))
    action: JSON = {"kind": "return_pot", "returns": returns, "now": context.stamp}
    state, events = game.apply(played.state, action)
    result: JSON = {"type": "pot_returned", "pot": total, "returns": returns}
    return played.then(state, action, events), result, away


def _stand_everyone_up(game: Game[TableState], played: Played, stamp: float) -> Played:
    """Every seated player leaves (a closing table), one journaled ``leave`` each."""
    for entry in game.view(played.state, None).get("seats", []):
        if "player" in entry:
            action: JSON = {"kind": "leave", "seat": entry["seat"], "now": stamp}
            state, left = game.apply(played.state, action)
            played = played.then(state, action, left)
    return played


def journal_restore(*, table: Table, version: int, state: JSON) -> None:
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
    game: Game[TableState],
    action: JSON,
    user: User,
    seats: dict[int, Seat],
    users: dict[int, User],
    now: datetime,
    present: bool,
) -> JSON:
    """A player's action as the rules take it: only the fields the rules read, for the
    user's own seat. A ``sit`` is checked (a free seat, the wait list, a whole-cents buy-in)
    and its Seat row inserted, joining ``seats`` and ``users``; IllegalAction otherwise."""
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
    places = game.view(game.load(table.state), None)["seats"]
    free = [s["seat"] for s in places if "player" not in s]
    wanted = action.pop("seat_wanted", None)
    if not free:
        raise IllegalAction(words("the table is full; join its wait list from the lobby"))
    if wanted is not None:
        # Checked before the wait list's hold, which takes the player off the line when it
        # lets them sit. Words number seats from 1, as the table page shows them.
        _check_wanted(wanted, [s["seat"] for s in places], free)
    held = sit_refusal(table, user, free, now)
    if held:
        raise IllegalAction(held)
    number = free[0] if wanted is None else wanted
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


def _check_wanted(wanted: object, seats: list[int], free: list[int]) -> None:
    """A ``sit`` that names its seat gets that seat or is refused: a seat of the table (a
    whole number), and free. A seat another player took since the page was drawn is refused
    in words, rather than the player landing somewhere they did not choose."""
    if isinstance(wanted, bool) or not isinstance(wanted, int) or wanted not in seats:
        whole = isinstance(wanted, int) and not isinstance(wanted, bool)
        shown = wanted + 1 if isinstance(wanted, int) and whole else repr(wanted)[:40]
        raise IllegalAction(
            words(
                "there is no seat {seat} at this table; its seats are 1 to {count}",
                seat=shown,
                count=len(seats),
            )
        )
    if wanted not in free:
        raise IllegalAction(
            words("seat {seat} was taken meanwhile; choose another seat", seat=wanted + 1)
        )


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
    context: Context,
    version: int,
    events: Sequence[Event],
    hand: Hand | None,
    *,
    first: int = 0,
) -> None:
    """Post the moves of ``events``, numbered from ``first`` among the version's events; at
    an owner's batch, against the table's accounts as it holds them, with its other rows."""
    table, users, deferred = context.table, context.users, context.deferred
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
    if not postings:
        return
    hand_id = hand.pk if hand else None
    if deferred is None:
        transfers = ledger_post(postings, table_id=table.pk, hand_id=hand_id, fresh_keys=True)
        for transfer in transfers:
            for account in (transfer.source, transfer.target):
                if account.kind == AccountKind.BANKROLL and account.user_id is not None:
                    context.bankrolls[account.user_id] = account.balance
        return
    codes = {code for posting in postings for code in (posting.source, posting.target)}
    if missing := sorted(codes - set(deferred.accounts)):
        # A table's account opened on first use (its pot, a new seat's stack, its rake); a
        # bankroll's balance is the locked path's to read.
        if any(opened_with(code).get("table_id") != table.pk for code in missing):
            raise NeedsLock
        _now(context)
        deferred.accounts.update((code, account_open(code)) for code in missing)
    ledger_post(
        postings,
        table_id=table.pk,
        hand_id=hand_id,
        fresh_keys=True,
        held=deferred.accounts,
        writes=deferred.writes,
    )


def _record_events(
    table: Table,
    version: int,
    events: Sequence[Event],
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
        private_to, audience = event.private_to, _audience(event)
        rows.append(
            {
                "table_id": table.pk,
                "hand_id": None if hand is None else hand.pk,
                "version": version,
                "seq": seq,
                "type": data["type"],
                "data": data,
                "private_to": private_to,
                "audience": audience,
                "readers": event_readers(private_to=private_to, audience=audience, users=ids),
            }
        )
        if data["type"] == "round_started":
            writes.insert_new(
                Round(table=table, number=data["round"], started=now), ["table", "number"]
            )
        elif data["type"] == "round_ended":
            writes.update_where(
                Round,
                {"ended": now, "end_reason": str(data.get("reason", ""))[:40]},
                {"table": table.pk, "number": data["round"]},
            )
        if data["type"] == "hand_ended" and hand is not None:
            hand.ended = now
            hand.result = data
            writes.update(hand, ["ended", "result", "dealt"])
            hand = None
    writes.insert_values(HandEvent, rows)  # rows, not instances: a hand writes dozens
    table.last_event_seq = seq


def _audience(event: Event) -> list[int] | None:
    """The seats that may read an event shown to several (a private comparison), else None."""
    audience = event.audience
    return None if audience is None else sorted(int(seat) for seat in audience)


def _close_vacated_seats(context: Context, public: JSON) -> None:
    """Mark left, now, each held seat the game's ``public`` view no longer seats."""
    occupied = {entry["seat"] for entry in public["seats"] if "player" in entry}
    for number, seat in context.seats.items():
        if number not in occupied:
            _now(context)
            seat.left = context.now
            seat.save(update_fields=["left"])
