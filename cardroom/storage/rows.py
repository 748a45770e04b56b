"""The rows every action reads, by hand-written SQL: the table (locked, with its open hand) and
the seats held (with their players and limits).

Through the ORM each of these queries cost about a millisecond of Python, building the SQL
again on every action; the database's part was a few percent of that. Here the SQL is built
once per process and the rows become the same model instances, through the same converters
(SQLite's text datetimes, JSON), with the same related objects cached, so callers cannot tell
the difference (``tests/cardroom/storage/test_rows.py`` compares them with the ORM's).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import Model

from accounts.models import Account, AccountKind, Transfer, User
from accounts.sql import bound
from cardroom.models import ApiToken, ChatLine, ChatMute, Hand, Round, Seat, Table
from cardroom.models.responsible import PlayerLimits
from cardroom.storage.payments import Movement

__all__ = [
    "LookUp",
    "bankroll_balances",
    "chat_of_viewer",
    "due_table_and_seats_locked",
    "finished_hands",
    "finished_hands_paid",
    "hand_numbering",
    "held_seats",
    "open_commitment",
    "read_ahead",
    "rows_where",
    "seat_connections",
    "seats_online",
    "seats_since",
    "table_and_seats_locked",
    "table_row",
    "table_row_locked",
    "table_seats_and_accounts_locked",
    "table_still_due",
    "usable_token",
]


@dataclass(frozen=True)
class _Part:
    """One model's columns in a query: all of them but ``deferred`` (never read on this path,
    and the bulk of the row: a table's copy of its state at rest, a hand's leaves)."""

    model: type[Model]
    deferred: tuple[str, ...] = ()

    @property
    def fields(self) -> list[Any]:
        meta = self.model._meta
        return [field for field in meta.concrete_fields if field.attname not in self.deferred]


_SEATS = (_Part(Seat), _Part(User), _Part(PlayerLimits))
_TABLE = (_Part(Table, deferred=("rest_state",)), _Part(Hand, deferred=("commitment",)))


def _selected(parts: Sequence[_Part]) -> str:
    quote = connection.ops.quote_name
    return ", ".join(
        f"{quote(part.model._meta.db_table)}.{quote(str(field.column))}"
        for part in parts
        for field in part.fields
    )


@cache
def _seats_sql(vendor: str) -> str:
    """Built once for ``vendor``'s quoting (the fields never change at run time)."""
    quote = connection.ops.quote_name
    seat, user, limits = (quote(part.model._meta.db_table) for part in _SEATS)
    return (
        f"SELECT {_selected(_SEATS)} FROM {seat} "
        f"INNER JOIN {user} ON {seat}.{quote('user_id')} = {user}.{quote('id')} "
        f"LEFT OUTER JOIN {limits} ON {limits}.{quote('user_id')} = {user}.{quote('id')} "
        f"WHERE {seat}.{quote('table_id')} = %s AND {seat}.{quote('left')} IS NULL "
        f"ORDER BY {seat}.{quote('number')}"
    )


@cache
def _table_sql(vendor: str, lock: bool) -> str:
    quote = connection.ops.quote_name
    table, hand = (quote(part.model._meta.db_table) for part in _TABLE)
    sql = (
        f"SELECT {_selected(_TABLE)} FROM {table} "
        f"LEFT OUTER JOIN {hand} ON {table}.{quote('open_hand_id')} = {hand}.{quote('id')} "
        f"WHERE {table}.{quote('id')} = %s"
    )
    return f"{sql} FOR UPDATE OF {table}" if lock else sql


def held_seats(table_id: int) -> dict[int, Seat]:
    """The seats held at the table by number, each with ``user`` and ``user.play_limits``
    (None for a player without limits) cached, as ``select_related`` would leave them."""
    return _held_seats(_fetch(_seats_sql(connection.vendor), table_id))


def table_and_seats_locked(table_id: int) -> tuple[Table, dict[int, Seat]]:
    """``table_row_locked``, then ``held_seats`` read after the lock is granted: on PostgreSQL
    in one round trip (two statements in one pipeline, the second run once the first has its
    lock, so it sees what the lock's previous holder committed: accounts/sql/bound.py);
    elsewhere in two. Inside ``read_ahead``, its look-ups go in the same round trip."""
    lock = bool(connection.features.has_select_for_update_of)
    wanted, _ahead.wanted = _ahead.wanted, ()
    table_rows, seat_rows, *looked_up = bound.together(
        [
            (_table_sql(connection.vendor, lock), [table_id]),
            (_seats_sql(connection.vendor), [table_id]),
            *(
                (_where_sql(model, column, connection.vendor), [value])
                for model, column, value in wanted
            ),
        ]
    )
    if wanted:
        _ahead.rows = dict(zip(wanted, looked_up, strict=True))
    return _table_from(table_rows, table_id), _held_seats(seat_rows)


#: A look-up of ``rows_where``: the model, the column and its value.
LookUp = tuple[type[Model], str, Any]


class _Ahead(threading.local):
    """This thread's look-ups to read with the next table lock (``read_ahead``), and once
    read, their rows until ``rows_where`` takes them."""

    wanted: tuple[LookUp, ...] = ()
    rows: dict[LookUp, list[tuple[Any, ...]]] | None = None


_ahead = _Ahead()


@contextmanager
def read_ahead(*wanted: LookUp) -> Iterator[None]:
    """Inside a transaction: the next ``table_and_seats_locked`` makes these look-ups of
    ``rows_where`` in its own round trip, once the lock is granted, and the first
    ``rows_where`` of each in the block takes those rows rather than reading again (a later
    one reads, so it sees what the transaction wrote since). Left on leaving the block: no
    rows read ahead outlive it. A sit's look-ups, the table's wait list and the player's
    limits (cardroom/tables/runtime.py), cost a round trip each without it."""
    _ahead.wanted, _ahead.rows = wanted, None
    try:
        yield
    finally:
        _ahead.wanted, _ahead.rows = (), None


def table_seats_and_accounts_locked(
    table_id: int,
) -> tuple[Table, dict[int, Seat], dict[str, Account]]:
    """``table_and_seats_locked`` and the table's ledger accounts by code (its stacks, pot,
    reserve, rake and house bank), read once the lock is granted, so their balances are those
    of the table's version: on PostgreSQL in one round trip."""
    lock = bool(connection.features.has_select_for_update_of)
    table_rows, seat_rows, account_rows = bound.together(
        [
            (_table_sql(connection.vendor, lock), [table_id]),
            (_seats_sql(connection.vendor), [table_id]),
            (_where_sql(Account, "table_id", connection.vendor), [table_id]),
        ]
    )
    read = _readers((_Part(Account),))[0]
    accounts = [read(row) for row in account_rows]
    return (
        _table_from(table_rows, table_id),
        _held_seats(seat_rows),
        {account.code: account for account in accounts if isinstance(account, Account)},
    )


def due_table_and_seats_locked(
    table_id: int, now: datetime
) -> tuple[Table, dict[int, Seat]] | None:
    """The clock's claim of a timeout and ``table_and_seats_locked`` in one round trip: None
    when the table is not due by ``now``, or (PostgreSQL) another transaction holds its row,
    which is then skipped, not waited for (another clock or a player is acting on it)."""
    features = connection.features
    if connection.vendor == "postgresql" and features.has_select_for_update_skip_locked:
        table_rows, seat_rows = bound.together(
            [
                (
                    _due_table_sql(connection.vendor),
                    [table_id, connection.ops.adapt_datetimefield_value(now)],
                ),
                (_seats_sql(connection.vendor), [table_id]),
            ]
        )
        if not table_rows:
            return None
        return _table_from(table_rows, table_id), _held_seats(seat_rows)
    if not table_still_due(table_id, now):
        return None
    return table_and_seats_locked(table_id)


def _held_seats(rows: list[tuple[Any, ...]]) -> dict[int, Seat]:
    user_field = Seat._meta.get_field("user")
    limits_field = PlayerLimits._meta.get_field("user").remote_field
    readers = _readers(_SEATS)
    seats: dict[int, Seat] = {}
    for row in rows:
        seat, user, limits = (read(row) for read in readers)
        assert isinstance(seat, Seat) and isinstance(user, User)
        user_field.set_cached_value(seat, user)
        limits_field.set_cached_value(user, limits)
        seats[seat.number] = seat
    return seats


def table_row_locked(table_id: int) -> Table:
    """The table row, locked for this transaction (where the database locks rows), with its
    open hand cached as ``open_hand``; Table.DoesNotExist if there is no such table."""
    return _table_row(table_id, lock=bool(connection.features.has_select_for_update_of))


def table_row(table_id: int) -> Table:
    """The table row with its open hand, as ``table_row_locked`` reads it, without a lock (a
    socket's first frame, a ``sync``)."""
    return _table_row(table_id, lock=False)


def _table_row(table_id: int, *, lock: bool) -> Table:
    return _table_from(_fetch(_table_sql(connection.vendor, lock), table_id), table_id)


def _table_from(rows: list[tuple[Any, ...]], table_id: int) -> Table:
    if not rows:
        raise Table.DoesNotExist(f"no table {table_id}")
    read_table, read_hand = _readers(_TABLE)
    table, hand = read_table(rows[0]), read_hand(rows[0])
    assert isinstance(table, Table)
    Table._meta.get_field("open_hand").set_cached_value(table, hand)
    return table


@cache
def _due_table_sql(vendor: str) -> str:
    """The table as ``_table_sql`` reads it, only while due, locked unless another
    transaction holds it."""
    quote = connection.ops.quote_name
    table = quote(Table._meta.db_table)
    return (
        f"{_table_sql(vendor, False)} AND {table}.{quote('deadline')} <= %s "
        f"FOR UPDATE OF {table} SKIP LOCKED"
    )


@cache
def _due_sql(vendor: str, skip_locked: bool) -> str:
    quote = connection.ops.quote_name
    sql = (
        f"SELECT 1 FROM {quote(Table._meta.db_table)} "
        f"WHERE {quote('id')} = %s AND {quote('deadline')} <= %s"
    )
    return sql + " FOR UPDATE SKIP LOCKED" if skip_locked else sql


def table_still_due(table_id: int, now: datetime) -> bool:
    """Whether the table's deadline has passed by ``now``; on PostgreSQL the row is then locked
    for this transaction, and a row another transaction holds counts as not due (skipped, not
    waited for). The clock's claim where ``due_table_and_seats_locked`` cannot read the table
    and its seats in one round trip (SQLite)."""
    sql = _due_sql(connection.vendor, connection.features.has_select_for_update_skip_locked)
    with bound.cursor() as cursor:
        cursor.execute(sql, [table_id, connection.ops.adapt_datetimefield_value(now)])
        return cursor.fetchone() is not None


#: What the log of hands reads of a hand: not its deck nor its commitment's leaves.
_FINISHED = (_Part(Hand, deferred=("deck", "commitment")),)
_SEATED = (_Part(Seat), _Part(User))


@cache
def _finished_sql(vendor: str, known: int = 0) -> str:
    """The last finished hands, newest first, each joined to its transfers in the ledger's order
    (one row per transfer; a hand without any has one row, its transfer's columns null), with
    the accounts and players they name: one statement for the log of hands. ``known``: how
    many hand numbers follow the limit, whose hands are left out of the answer (they are still
    counted among the last)."""
    quote = connection.ops.quote_name
    hand, transfer = quote(Hand._meta.db_table), quote(Transfer._meta.db_table)
    account, user = quote(Account._meta.db_table), quote(User._meta.db_table)
    columns = [f"{transfer}.{quote(name)}" for name in ("amount", "kind")]
    joins = []
    for side, alias in (("source", "paying"), ("target", "paid")):
        columns += [f"{alias}.{quote('kind')}", f"{alias}.{quote('user_id')}"]
        columns += [f"{alias}_user.{quote(name)}" for name in ("username", "display_name")]
        joins.append(
            f"LEFT OUTER JOIN {account} {alias} "
            f"ON {transfer}.{quote(side + '_id')} = {alias}.{quote('id')} "
            f"LEFT OUTER JOIN {user} {alias}_user "
            f"ON {alias}.{quote('user_id')} = {alias}_user.{quote('id')}"
        )
    latest = (
        f"SELECT {_selected(_FINISHED)} FROM {hand} "
        f"WHERE {quote('table_id')} = %s AND {quote('ended')} IS NOT NULL "
        f"ORDER BY {quote('number')} DESC LIMIT %s"
    )
    unknown = (
        f"WHERE {hand}.{quote('number')} NOT IN ({', '.join(['%s'] * known)}) " if known else ""
    )
    return (
        f"SELECT {_selected(_FINISHED)}, {', '.join(columns)} FROM ({latest}) {hand} "
        f"LEFT OUTER JOIN {transfer} ON {transfer}.{quote('hand_id')} = {hand}.{quote('id')} "
        f"{' '.join(joins)} {unknown}"
        f"ORDER BY {hand}.{quote('number')} DESC, {transfer}.{quote('id')}"
    )


def finished_hands(table_id: int, limit: int) -> list[Hand]:
    """The table's last ``limit`` finished hands, newest first (deck and leaves deferred)."""
    return [hand for hand, _ in finished_hands_paid(table_id, limit)]


def finished_hands_paid(
    table_id: int, limit: int, known: Collection[int] = ()
) -> list[tuple[Hand, list[Movement]]]:
    """``finished_hands``, each with its ledger transfers in order, read in the same statement
    (the log of hands is read at every showdown); of the last ``limit``, only those whose
    number is not ``known``."""
    known = sorted(known)
    with bound.cursor() as cursor:
        cursor.execute(_finished_sql(connection.vendor, len(known)), [table_id, limit, *known])
        rows = cursor.fetchall()
    (read,) = _readers(_FINISHED)
    width = len(_FINISHED[0].fields)
    found: list[tuple[Hand, list[Movement]]] = []
    for row in rows:
        if not found or found[-1][0].pk != row[0]:
            hand = read(row)
            assert isinstance(hand, Hand)
            found.append((hand, []))
        amount, kind, *source, target_kind, target_user, target_name, target_display = row[width:]
        if amount is None:  # a hand without transfers
            continue
        source_kind, source_user, source_name, source_display = source
        found[-1][1].append(
            Movement(
                int(amount),
                kind,
                source_kind,
                source_user,
                (source_display or source_name) if source_name is not None else None,
                target_kind,
                target_user,
                (target_display or target_name) if target_name is not None else None,
            )
        )
    return found


def _player_join(rows: str) -> str:
    """``rows`` (a quoted table name) joined to their players."""
    quote = connection.ops.quote_name
    user = quote(User._meta.db_table)
    return f"{rows} INNER JOIN {user} ON {rows}.{quote('user_id')} = {user}.{quote('id')}"


def _with_player(parts: tuple[_Part, ...]) -> tuple[str, str]:
    """``SELECT`` the parts' columns ``FROM`` the first part's rows joined to their players
    (the second part), and the first table's quoted name, for the caller's ``WHERE``."""
    rows = connection.ops.quote_name(parts[0].model._meta.db_table)
    return f"SELECT {_selected(parts)} FROM {_player_join(rows)}", rows


@cache
def _since_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    select, seat = _with_player(_SEATED)
    left = f"{seat}.{quote('left')}"
    return (
        f"{select} WHERE {seat}.{quote('table_id')} = %s "
        f"AND ({left} IS NULL OR {left} >= %s) ORDER BY {seat}.{quote('id')}"
    )


def seats_since(table_id: int, moment: datetime) -> list[Seat]:
    """The seats of the table held at ``moment`` or taken since, with ``user`` cached (who
    played the hands of the log)."""
    with bound.cursor() as cursor:
        cursor.execute(
            _since_sql(connection.vendor),
            [table_id, connection.ops.adapt_datetimefield_value(moment)],
        )
        rows = cursor.fetchall()
    read_seat, read_user = _readers(_SEATED)
    user_field = Seat._meta.get_field("user")
    seats = []
    for row in rows:
        seat, user = read_seat(row), read_user(row)
        assert isinstance(seat, Seat) and isinstance(user, User)
        user_field.set_cached_value(seat, user)
        seats.append(seat)
    return seats


@cache
def _online_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    seat, user = quote(Seat._meta.db_table), quote(User._meta.db_table)
    return (
        f"SELECT {seat}.{quote('number')}, {seat}.{quote('user_id')}, "
        f"{seat}.{quote('connections')}, {user}.{quote('is_bot')} FROM {_player_join(seat)} "
        f"WHERE {seat}.{quote('table_id')} = %s AND {seat}.{quote('left')} IS NULL "
        f"ORDER BY {seat}.{quote('number')}"
    )


def seats_online(table_id: int) -> list[tuple[int, int, bool]]:
    """(number, user id, online) of each seat held: online when a socket counts for it, and
    always for a house bot, which plays from the server itself."""
    return [
        (int(number), int(user_id), bool(connections > 0 or bot))
        for number, user_id, connections, bot in _fetch(_online_sql(connection.vendor), table_id)
    ]


@cache
def _connections_sql(vendor: str, seats: int) -> str:
    quote = connection.ops.quote_name
    listed = ", ".join(["%s"] * seats)
    return (
        f"SELECT {quote('number')}, {quote('connections')} FROM {quote(Seat._meta.db_table)} "
        f"WHERE {quote('table_id')} = %s AND {quote('left')} IS NULL"
        f" AND {quote('number')} IN ({listed})"
    )


def seat_connections(table_id: int, numbers: Collection[int]) -> dict[int, int]:
    """The count of open sockets of each of the table's seats held among ``numbers``, by seat
    number (a seat not held is left out)."""
    if not numbers:
        return {}
    with bound.cursor() as cursor:
        cursor.execute(_connections_sql(connection.vendor, len(numbers)), [table_id, *numbers])
        return {int(number): int(count) for number, count in cursor.fetchall()}


@cache
def _commitment_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    return (
        f"SELECT {quote('number')}, {quote('commitment_root')} FROM {quote(Hand._meta.db_table)} "
        f"WHERE {quote('table_id')} = %s AND {quote('ended')} IS NULL "
        f"ORDER BY {quote('number')} DESC LIMIT 1"
    )


def open_commitment(table_id: int) -> dict[str, Any] | None:
    """The number and deck commitment of the table's hand in play, if one is open."""
    rows = _fetch(_commitment_sql(connection.vendor), table_id)
    return {"number": int(rows[0][0]), "root": str(rows[0][1])} if rows else None


_TOKEN = (_Part(ApiToken), _Part(User))


@cache
def _token_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    select, token = _with_player(_TOKEN)
    expires = f"{token}.{quote('expires')}"
    return (
        f"{select} WHERE {token}.{quote('digest')} = %s AND {token}.{quote('revoked')} IS NULL "
        f"AND ({expires} IS NULL OR {expires} > %s)"
    )


def usable_token(digest: str, now: datetime) -> ApiToken | None:
    """The token with this digest if it may be used at ``now`` (not revoked, not expired),
    with its ``user`` cached: every API socket's handshake reads it."""
    with bound.cursor() as cursor:
        cursor.execute(
            _token_sql(connection.vendor), [digest, connection.ops.adapt_datetimefield_value(now)]
        )
        row = cursor.fetchone()
    if row is None:
        return None
    read_token, read_user = _readers(_TOKEN)
    token, user = read_token(row), read_user(row)
    assert isinstance(token, ApiToken) and isinstance(user, User)
    ApiToken._meta.get_field("user").set_cached_value(token, user)
    return token


@cache
def _numbering_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    hand, round_ = quote(Hand._meta.db_table), quote(Round._meta.db_table)
    table, number = quote("table_id"), quote("number")
    return (
        f"SELECT (SELECT MAX({number}) FROM {hand} WHERE {table} = %s), "
        f"(SELECT {quote('id')} FROM {round_} WHERE {table} = %s AND {quote('ended')} IS NULL "
        f"ORDER BY {number} DESC LIMIT 1)"
    )


def hand_numbering(table_id: int) -> tuple[int, int | None]:
    """The number of the table's last hand (0 before any) and the id of its open round
    (None between rounds, and in games without rounds): what a new hand is numbered by."""
    with bound.cursor() as cursor:
        cursor.execute(_numbering_sql(connection.vendor), [table_id, table_id])
        last, open_round = cursor.fetchone()
    return int(last or 0), None if open_round is None else int(open_round)


@cache
def _where_sql(model: type[Model], column: str, vendor: str) -> str:
    quote = connection.ops.quote_name
    pk = model._meta.pk
    assert pk is not None
    return (
        f"SELECT {_selected((_Part(model),))} FROM {quote(model._meta.db_table)} "
        f"WHERE {quote(column)} = %s ORDER BY {quote(str(pk.column))}"
    )


def rows_where(model: type[Model], column: str, value: Any) -> list[Model]:
    """``model.objects.filter(<column>=value).order_by("pk")``, every field read, as the ORM's
    own instances: for the small look-ups a sit makes (the player's limits, the table's wait
    list), whose ORM query cost more than the database's work."""
    read = _readers((_Part(model),))[0]
    ahead = _ahead.rows.pop((model, column, value), None) if _ahead.rows else None
    found = _fetch(_where_sql(model, column, connection.vendor), value) if ahead is None else ahead
    return [row for row in map(read, found) if row is not None]


def chat_of_viewer(table_id: int, user_id: int, limit: int) -> tuple[list[ChatLine], set[int]]:
    """The table's latest ``limit`` chat lines, newest first, without those of the players
    ``user_id`` muted, and the ids of those players: what a socket reads as it opens (on
    PostgreSQL in one round trip; the ORM's two queries cost more than the database's work)."""
    mute_rows, line_rows = bound.together(
        [
            (_mutes_sql(connection.vendor), [user_id]),
            (_chat_sql(connection.vendor), [table_id, user_id, limit]),
        ]
    )
    read = _readers((_Part(ChatLine),))[0]
    lines = [line for line in map(read, line_rows) if isinstance(line, ChatLine)]
    return lines, {int(muted) for (muted,) in mute_rows}


@cache
def _mutes_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    return (
        f"SELECT {quote('muted_id')} FROM {quote(ChatMute._meta.db_table)} "
        f"WHERE {quote('muter_id')} = %s"
    )


@cache
def _chat_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    lines, mutes = quote(ChatLine._meta.db_table), quote(ChatMute._meta.db_table)
    return (
        f"SELECT {_selected((_Part(ChatLine),))} FROM {lines}"
        f" WHERE {lines}.{quote('table_id')} = %s"
        f" AND NOT EXISTS (SELECT 1 FROM {mutes} WHERE {mutes}.{quote('muter_id')} = %s"
        f" AND {mutes}.{quote('muted_id')} = {lines}.{quote('user_id')})"
        f" ORDER BY {lines}.{quote('at')} DESC, {lines}.{quote('id')} DESC LIMIT %s"
    )


def bankroll_balances(user_ids: Collection[int]) -> dict[int, int]:
    """The players' bankroll balances, in cents, by user id."""
    if not user_ids:
        return {}
    quote = connection.ops.quote_name
    listed = ", ".join(["%s"] * len(user_ids))
    sql = (
        f"SELECT {quote('user_id')}, {quote('balance')} FROM {quote(Account._meta.db_table)} "
        f"WHERE {quote('kind')} = %s AND {quote('user_id')} IN ({listed})"
    )
    with bound.cursor() as cursor:
        cursor.execute(sql, [AccountKind.BANKROLL.value, *user_ids])
        return {int(user): int(balance) for user, balance in cursor.fetchall()}


def _fetch(sql: str, key: Any) -> list[tuple[Any, ...]]:
    with bound.cursor() as cursor:
        cursor.execute(sql, [key])
        rows: list[tuple[Any, ...]] = cursor.fetchall()
    return rows


Reader = Callable[[tuple[Any, ...]], Model | None]
#: Each connection's readers: the converters are its backend's (bound to its operations).
_made: weakref.WeakKeyDictionary[Any, dict[tuple[_Part, ...], list[Reader]]] = (
    weakref.WeakKeyDictionary()
)


def _readers(parts: tuple[_Part, ...]) -> list[Reader]:
    """For each part, what makes its instance from its slice of a row."""
    here = bound.here()
    made = _made.setdefault(here.ops, {})
    if parts not in made:
        readers, start = [], 0
        for part in parts:
            readers.append(_reader(part, start, here))
            start += len(part.fields)
        made[parts] = readers
    return made[parts]


def _reader(part: _Part, start: int, wrapper: Any) -> Reader:
    """``wrapper``: the thread's connection (not Django's proxy of it, which looks it up again
    at every use), whose converters and alias the rows are read with."""
    fields = part.fields
    names = [field.attname for field in fields]
    end = start + len(fields)
    converting = []
    for index, field in enumerate(fields):
        column = field.get_col(part.model._meta.db_table)
        chain = [*wrapper.ops.get_db_converters(column), *field.get_db_converters(wrapper)]
        if chain:
            converting.append((index, chain, column))
    model, alias = part.model, wrapper.alias

    def read(row: tuple[Any, ...]) -> Model | None:
        if row[start] is None:  # an outer join found no row (no limits, no open hand)
            return None
        values = list(row[start:end])
        for index, chain, column in converting:
            for convert in chain:
                values[index] = convert(values[index], column, wrapper)
        return model.from_db(alias, names, values)

    return read
