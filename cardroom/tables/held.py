"""A table held in memory by the process that applies its actions (docs/architecture.md, "Held
tables").

The locked path (cardroom/tables/runtime.py) reads the table row, its seats and players under
the row's lock for every batch of actions and writes in several round trips. The process that
applies a table's actions batch after batch (its socket queue, cardroom/realtime/queue.py) keeps
instead the rows as its last batch left them, with the table's ledger accounts, and settles the
next batch in memory through the same steps (``settle_played``), every row going into one
:class:`~cardroom.tables.deferred.Deferred`. Those rows are then written in one transaction whose
first statement is the fence: the table row is updated only if its version is still the one held,
no seat has been flagged to leave and none of its players has set limits since (what the held rows
could not see change). Otherwise nothing of the batch is written, the held rows are dropped, and
the batch goes through the locked path.

Contracts:

- a held batch writes the same journal, ledger transfers, history and versions, and announces
  the same snapshots, as the locked path would for the same actions
  (tests/cardroom/tables/test_held.py);
- it writes nothing unless the table is at the version it holds, so two processes never both
  apply to one table (the fence; the journal's unique version stands behind it);
- anything beyond the common path (a sit, a top-up, a leave, a new hand's commitment, an account
  opened, the table stopping, a bankroll moving, a tournament's table, a player with limits or
  flagged to leave) goes through the locked path, which nothing held ever bypasses;
- a socket's ``presence`` notice (a seat's count of connections went from none to some, or
  back: cardroom/realtime/consumers.py) tells the game ``connect`` or ``disconnect`` by the count
  as it is read when the batch is applied, not as it was when the notice was sent, so notices
  applied in any order leave the game as the counts are.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, partial

from django.db import DataError, IntegrityError, connection, transaction

from accounts.ledger import LedgerError
from accounts.models import Account
from accounts.sql import bound
from accounts.sql.writes import Writes, update_statement
from cardroom.models import Seat, Table, TableStatus
from cardroom.models.responsible import PlayerLimits
from cardroom.storage.rows import seat_connections, table_seats_and_accounts_locked
from cardroom.tables.announce import announce_committed
from cardroom.tables.deferred import Deferred, NeedsLock
from cardroom.tables.hand_log import recent_hands
from cardroom.tables.runtime import (
    PLAYER_ACTIONS,
    Outcome,
    Request,
    _apply_to,
    _with_open_hand,
    table_act_many,
    table_apply,
    table_timeout,
)
from games.engine import JSON, ConfigError, IllegalAction
from games.words import words

__all__ = ["HELD_KINDS", "PRESENCE", "Held", "held_act"]

log = logging.getLogger(__name__)

#: The actions a held batch applies: a player's decisions and the clock's timeout. Any other
#: kind in a batch sends the whole batch to the locked path.
HELD_KINDS = frozenset(
    {"ante", "decline", "declare", "set", "submit", "surrender", "declare_natural", "bet", "play",
     "fold", "pass", "choose", "sit_out", "sit_in", "timeout"}
)  # fmt: skip

#: A system request (no user) naming a seat whose count of connections changed between none
#: and some: applied as the game's ``connect`` or ``disconnect``, by the count read then.
PRESENCE = "presence"
#: The system requests a held batch applies: the clock's timeout and the presence notices.
SYSTEM_KINDS = frozenset({"timeout", "connect", "disconnect"})

_LIMITS = PlayerLimits._meta.get_field("user").remote_field


@dataclass(eq=False)
class Held:
    """A table as its owner's last batch left it: the row (with its open hand and the loaded
    state beside it), the seats held with their players, the table's ledger accounts by
    code with their balances, and the log of recent hands its last showdown announced (None
    until one has: the next is read whole)."""

    table: Table
    seats: dict[int, Seat]
    accounts: dict[str, Account]
    recent: list[JSON] | None = None


class Stale(Exception):
    """The fence refused the batch: the table is no longer as it was held."""


def held_act(
    *, table_id: int, requests: Sequence[Request], held: Held | None
) -> tuple[list[Outcome | Exception], Held | None]:
    """Apply a batch of requests (a player's, or the clock's ``timeout`` with no user), in
    order, each answered as ``table_act_many`` answers it; held where it can be, else through
    the locked path. Returns the answers and what to hold for the next batch (None: the next
    batch reads the table again)."""
    requests = _told(table_id, requests, held)
    if all(_holdable(request) for request in requests):
        if held is None:
            held = _hold(table_id)
        if held is not None:
            try:
                return _held_batch(held, requests), held
            except (NeedsLock, Stale):
                pass  # nothing was written
            except IntegrityError:
                pass  # a client's id applied before: the locked path answers it as such
            except Exception:  # a defect of the held path: the locked path answers instead
                log.exception("table %s: a held batch failed; applied unheld", table_id)
    return _locked(table_id, requests), None


def _clock(request: Request) -> bool:
    """The clock's timeout: a request with no user (a player's ``timeout`` is unknown)."""
    return request.user is None and request.action.get("kind") == "timeout"


def _system(request: Request) -> bool:
    """The clock's timeout, or a presence notice as the game's connect or disconnect."""
    return request.user is None and request.action.get("kind") in SYSTEM_KINDS


def _holdable(request: Request) -> bool:
    """A player's decision (PLAYER_ACTIONS besides a sit, top-up or leave) or the system's."""
    kind = request.action.get("kind")
    return _system(request) or (
        request.user is not None and kind in HELD_KINDS and kind in PLAYER_ACTIONS
    )


def _presence(request: Request) -> bool:
    """A presence notice: a system request (no user) naming a seat."""
    return request.user is None and request.action.get("kind") == PRESENCE


def _seat(request: Request) -> int:
    """A presence notice's seat, a number: the notice comes from a process, never a client."""
    seat = request.action["seat"]
    assert isinstance(seat, int), seat
    return seat


def _told(table_id: int, requests: Sequence[Request], held: Held | None) -> list[Request]:
    """Each presence notice as the game's ``connect`` or ``disconnect``, by its seat's count
    of connections read now; the held seats take the counts read, from which the snapshot
    says who is online. A seat no longer held is told ``disconnect``, which the game refuses."""
    asked = {_seat(request) for request in requests if _presence(request)}
    if not asked:
        return list(requests)
    counts = seat_connections(table_id, sorted(asked))
    if held is not None:
        for number, count in counts.items():
            if (seat := held.seats.get(number)) is not None:
                seat.connections = count
    told = []
    for request in requests:
        if _presence(request):
            number = _seat(request)
            kind = "connect" if counts.get(number, 0) else "disconnect"
            request = Request(None, {"kind": kind, "seat": number})
        told.append(request)
    return told


def _hold(table_id: int) -> Held | None:
    """The table as it stands, or None where it is not held (see the module's contracts)."""
    with transaction.atomic():
        table, seats, accounts = table_seats_and_accounts_locked(table_id)
        table = _with_open_hand(table)
    if table.status not in (TableStatus.OPEN, TableStatus.PAUSED) or table.plays_for_chips:
        return None
    if any(seat.leave_at_rest or _has_limits(seat) for seat in seats.values()):
        return None
    return Held(table, seats, accounts)


def _has_limits(seat: Seat) -> bool:
    """Whether the seat's player has a row of limits (the seats' read joins it)."""
    user = seat.user
    return not _LIMITS.is_cached(user) or _LIMITS.get_cached_value(user) is not None


def _held_batch(held: Held, requests: Sequence[Request]) -> list[Outcome | Exception]:
    table, seats = held.table, held.seats
    expected = table.version
    players = sorted(seat.user_id for seat in seats.values())
    batch = _Transaction()
    deferred = Deferred(Writes(), held.accounts, lambda: _lock(table.pk, expected, players, batch))
    answers: list[Outcome | Exception] = []
    with batch:
        for user, action, action_id, present in requests:
            try:
                answers.append(
                    _apply_to(
                        table,
                        seats,
                        dict(action),
                        user,
                        None,
                        action_id,
                        present,
                        deferred=deferred,
                    )
                )
            except (IllegalAction, ConfigError, LedgerError) as refusal:
                # Said only from the table as it stands, which the held rows may no longer be
                # (the fence checks them only when writing), and the locked path also answers
                # a retried id: refusals, rare in play, are the locked path's.
                raise NeedsLock from refusal
            deferred.settling = False
        if deferred.versions:
            _write(table, expected, players, deferred, batch)
            # Never before the commit: nobody may see a version that was undone.
            batch.on_commit(partial(_announce, held, deferred))
    return answers


class _Transaction:
    """A held batch's transaction. Where no transaction is open already (the actions'
    threads) on PostgreSQL, the batch's own statements begin and commit it, ``BEGIN`` with its
    first round trip and ``COMMIT`` in the round trip of its rows, where Django's ``atomic``
    would send each alone; elsewhere it is Django's ``atomic``."""

    def __init__(self) -> None:
        #: The thread's connection, taken once for the batch (``bound.here``).
        self.db = bound.here()
        self.own = self.db.vendor == "postgresql" and not self.db.in_atomic_block
        self.begun = self.committed = False
        self.atomic = None if self.own else transaction.atomic()
        self.committed_work: list[Callable[[], None]] = []

    def __enter__(self) -> _Transaction:
        if self.atomic is not None:
            self.atomic.__enter__()
        return self

    def __exit__(self, kind: object, error: object, trace: object) -> None:
        if self.atomic is not None:
            self.atomic.__exit__(kind, error, trace)  # type: ignore[arg-type]
            return
        if self.begun and not self.committed:
            try:
                with bound.cursor() as cursor:
                    cursor.cursor.execute("ROLLBACK", prepare=False)
            except Exception:  # the connection is gone: the server has ended the transaction
                log.warning("a held batch's rollback failed; the connection is closed")
                connection.close()
        if self.committed and kind is None:
            for work in self.committed_work:
                work()

    def begin(self) -> list[tuple[str, None]]:
        """The statement that begins the transaction, the first time it is asked for."""
        if not self.own or self.begun:
            return []
        self.begun = True
        return [("BEGIN", None)]

    def commit(self) -> list[tuple[str, None]]:
        """The statement that commits it, last among the batch's rows."""
        return [("COMMIT", None)] if self.own else []

    def on_commit(self, work: Callable[[], None]) -> None:
        if self.atomic is not None:
            transaction.on_commit(work)
        else:
            self.committed_work.append(work)


def _lock(table_id: int, expected: int, players: list[int], batch: _Transaction) -> None:
    """The fence as a lock: the table row, locked, if it is still as held; else Stale."""
    sql = _lock_sql(len(players), connection.vendor)
    *_, found = bound.together([*batch.begin(), (sql, [table_id, expected, table_id, *players])])
    if not found:
        raise Stale


@cache
def _lock_sql(players: int, vendor: str) -> str:
    quote = connection.ops.quote_name
    sql = (
        f"SELECT 1 FROM {quote(Table._meta.db_table)} WHERE {quote('id')} = %s"
        f"{_fence_sql(players, vendor)}"
    )
    return f"{sql} FOR UPDATE" if connection.features.has_select_for_update else sql


def _write(
    table: Table, expected: int, players: list[int], deferred: Deferred, batch: _Transaction
) -> None:
    """The batch's rows, the table row first: fenced, unless the fence has locked it already
    (it takes the row's lock, as the locked path takes it first); on PostgreSQL in one round
    trip, with the transaction's BEGIN and COMMIT where the batch holds them."""
    sql, params = update_statement(table, sorted(deferred.table_fields))
    statements = deferred.writes.statements
    if deferred.locked:
        bound.together([(sql, params), *statements, *batch.commit()], rows=False)
        batch.committed = batch.own
        return
    vendor = batch.db.vendor
    sql += _fence_sql(len(players), vendor)
    params += [expected, table.pk, *players]
    if vendor == "postgresql":
        begin = batch.begin()
        try:
            bound.together(
                [*begin, (_fenced(sql), params), *statements, *batch.commit()], rows=False
            )
        except DataError as error:  # the fence's division by no row
            raise Stale from error
        batch.committed = batch.own
        return
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise Stale
        for statement, values in statements:
            cursor.execute(statement, values)


@cache
def _fence_sql(players: int, vendor: str) -> str:
    """The conditions the held rows stand on, after the table row's ``WHERE id = %s``: its
    version, no seat flagged to leave, none of the players with limits."""
    quote = connection.ops.quote_name
    seat, limits = quote(Seat._meta.db_table), quote(PlayerLimits._meta.db_table)
    listed = ", ".join(["%s"] * players) or "NULL"
    return (
        f" AND {quote('version')} = %s"
        f" AND NOT EXISTS (SELECT 1 FROM {seat} WHERE {seat}.{quote('table_id')} = %s"
        f" AND {seat}.{quote('left')} IS NULL AND {seat}.{quote('leave_at_rest')})"
        f" AND NOT EXISTS (SELECT 1 FROM {limits}"
        f" WHERE {limits}.{quote('user_id')} IN ({listed}))"
    )


def _fenced(update: str) -> str:
    """The update as one statement that fails (division by zero) unless it updated the row,
    so the rest of the batch's statements, sent with it, are never applied without it."""
    return f"WITH fenced AS ({update} RETURNING 1) SELECT 1 / COUNT(*) FROM fenced"


def _announce(held: Held, deferred: Deferred) -> None:
    """Announce the batch's versions, committed, in order; a version that ended a hand
    carries the log of hands, read now that it is written: only the hands finished since
    the log this holder last announced (the others are as they were)."""
    table, recent = held.table, None
    for snapshot, ended in deferred.versions:
        if ended:
            if recent is None:
                recent = held.recent = recent_hands(table=table, known=held.recent or ())
            snapshot["recent"] = recent
        announce_committed(table, snapshot["version"], snapshot)


def _locked(table_id: int, requests: Sequence[Request]) -> list[Outcome | Exception]:
    """The locked path's answers: the system's requests apart, the clock's timeouts each as the
    clock applies it, the presence notices as ``table_apply`` does."""
    if not any(_system(request) for request in requests):
        return table_act_many(table_id=table_id, requests=requests)
    answers: list[Outcome | Exception] = []
    for request in requests:
        if not _system(request):
            answers.extend(table_act_many(table_id=table_id, requests=[request]))
        elif _clock(request):
            outcome = table_timeout(table_id=table_id, claim=True)
            answers.append(outcome or IllegalAction(words("nothing is due on the clock")))
        else:
            try:
                answers.append(table_apply(table_id=table_id, action=request.action))
            except (IllegalAction, ConfigError, LedgerError) as refusal:
                answers.append(refusal)
    return answers
