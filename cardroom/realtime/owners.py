"""Which server process applies each table's actions: its owner (docs/architecture.md, "Owned
tables").

Where several server processes share the database and a Redis channel layer, a table's players
may sit on sockets of different processes. Every action of a table goes to one of them, its
owner, whose queue holds the table between batches (cardroom/tables/held.py): held rows stay
good only while no other process writes the table. The owner is written on the table row with a
lease (``Table.owner``, ``Table.owned_until``): the first process with an action for a table
that nobody holds takes it, or the first with a socket opened there (``route_ahead``, off the
path of the table's first action); the owner renews its leases every ``RENEW_SECONDS`` while it has
had actions there lately, and lets the others go. Any other process forwards its sockets'
actions to the owner over the channel layer, on the owner's own channel (its route), and gets
the answer back on its own. An answer that does not come within ``ANSWER_SECONDS`` is
answered "unavailable" (the client sends the action again with the same id, which is never
applied twice); a lease its owner stopped renewing (the process died) lapses after
``LEASE_SECONDS``, and the next process with an action or a due timeout
(cardroom/clock/clock.py) takes the table.

A forwarder reads the owners of the tables it forwarded to lately with its own renewal: it
learns a renewed lease without claiming the table again (a table's forwarded actions can be
further apart than a lease), and a lapsed one within a renewal. Actions that come together at
a table whose owner this process does not know claim it once.

Correctness never rests on the lease: every held batch is fenced by the table's version, every
other path takes the row's lock, so a lease two processes both believe in costs at most a held
batch's retry through the locked path.

The embedded default (one process, the in-process layer) has no other process: it routes
nothing and writes no lease.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import time
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import DatabaseError, connection
from django.db.models import Q
from django.utils import timezone

from accounts.ledger import LedgerError
from accounts.models import User
from cardroom.models import Table, TableStatus
from cardroom.realtime.queue import submit, submit_presence
from cardroom.realtime.threads import in_action_thread, in_writes_thread
from cardroom.tables.held import PRESENCE
from cardroom.tables.runtime import Outcome
from games.engine import ConfigError, IllegalAction
from games.words import sentence_data, sentence_from, sentence_of

__all__ = [
    "OwnerAway",
    "claim_due",
    "route_act",
    "route_ahead",
    "route_of",
    "route_presence",
    "sharing",
]

log = logging.getLogger(__name__)

#: How long a lease lasts unless renewed: how long a dead owner's tables wait for another.
LEASE_SECONDS = 5.0
#: How often an owner renews its leases.
RENEW_SECONDS = 1.0
#: A lease this close to its end is renewed even if its table is being acted on (waited for).
URGENT_SECONDS = 2 * RENEW_SECONDS
#: How long a forwarded action waits for the owner's answer before it is "unavailable".
ANSWER_SECONDS = 10.0
#: An owner lets a table go after this long without an action there.
IDLE_SECONDS = 120.0

#: The refusals an owner sends back, said again on the forwarding side.
REFUSALS: dict[str, type[Exception]] = {
    "IllegalAction": IllegalAction,
    "ConfigError": ConfigError,
    "LedgerError": LedgerError,
}


class OwnerAway(DatabaseError):
    """The table's owner did not answer: the action may be sent again with the same id.
    A database error to the sockets, which answer it "unavailable" as they answer a database
    they cannot reach."""


def sharing() -> bool:
    """Whether server processes share tables (a Redis channel layer); else one process has
    them all."""
    return bool(settings.REDIS_URL)


@dataclass(eq=False)
class Route:
    """This process's side of the routing, on one event loop: its channel, the tables it
    owns (with when each last had an action, and its lease), the owners it knows of others,
    and the forwarded actions waiting for their answers."""

    layer: Any
    channel: str
    pending: dict[str, asyncio.Future[Mapping[str, Any]]] = field(default_factory=dict)
    active: dict[int, float] = field(default_factory=dict)
    leases: dict[int, datetime] = field(default_factory=dict)
    known: dict[int, tuple[str, datetime]] = field(default_factory=dict)
    #: When each table was last forwarded to: the renewal reads the owners of those lately.
    forwarded: dict[int, float] = field(default_factory=dict)
    #: The claims under way, one per table, which the table's other actions here wait for.
    claiming: dict[int, asyncio.Future[None]] = field(default_factory=dict)
    tasks: set[asyncio.Task[Any]] = field(default_factory=set)
    refs: itertools.count[int] = field(default_factory=itertools.count)

    async def act(
        self,
        *,
        table_id: int,
        user: User | None,
        action: Mapping[str, Any],
        action_id: str | None,
        present: bool,
    ) -> Outcome:
        """Apply the action where its table's owner is: here, through the queue, or
        forwarded; answered or raised as ``submit`` answers it."""
        owner = await self.owner_of(table_id)
        if owner == self.channel:
            self.active[table_id] = time.monotonic()
            return await submit(
                table_id=table_id, user=user, action=action, action_id=action_id, present=present
            )
        return await self.forward(owner, table_id, user, action, action_id, present)

    async def owner_of(self, table_id: int) -> str:
        """The channel of the table's owner: this process's own where it holds the lease or
        takes it now."""
        if (leased := self.leased_owner(table_id)) is not None:
            return leased
        if (claim := self.claiming.get(table_id)) is not None:
            # One claim for the actions that came together: the others go by what it found,
            # fail as it failed, or (its caller gone) claim in their turn.
            await asyncio.wait([claim])
            if (failure := claim.exception()) is not None:
                raise failure
            return await self.owner_of(table_id)
        claim = self.claiming[table_id] = asyncio.get_running_loop().create_future()
        try:
            # In the actions' threads: on the action's path, never behind the handshakes' reads.
            owner, lease = await in_action_thread(
                _claim, table_id=table_id, owner=self.channel, now=timezone.now()
            )
            if owner == self.channel:
                self.adopt([table_id], lease)
            else:
                self.known[table_id] = (owner, lease)
        except Exception as failure:
            claim.set_exception(failure)
            claim.exception()  # retrieved, whether or not another action waits for it
            raise
        finally:
            del self.claiming[table_id]
            if not claim.done():
                claim.set_result(None)
        return owner

    def leased_owner(self, table_id: int) -> str | None:
        """The owner's channel where a lease in force says it, read from no row: this
        process's own lease, or the one it knows of another's; else None."""
        now = timezone.now()
        if (until := self.leases.get(table_id)) is not None and until > now:
            return self.channel
        if (known := self.known.get(table_id)) is not None and known[1] > now:
            return known[0]
        return None

    def owns_or_knows(self, table_id: int) -> bool:
        """Whether the table's owner is known here without a read: a lease in force
        (``leased_owner``), or a claim under way."""
        return self.leased_owner(table_id) is not None or table_id in self.claiming

    async def owner_ahead(self, table_id: int) -> None:
        """:meth:`owner_of` before any action asks (``route_ahead``); its failure is left to
        the first action, which claims again."""
        try:
            await self.owner_of(table_id)
        except Exception:  # the database is away: the first action tries again, and says so
            log.debug("table %s: the claim ahead of its first action failed", table_id)

    def adopt(self, table_ids: Sequence[int], until: datetime) -> None:
        """Tables this process has just taken, with their lease."""
        moment = time.monotonic()
        for table_id in table_ids:
            self.leases[table_id] = until
            self.active.setdefault(table_id, moment)
            self.known.pop(table_id, None)

    async def forward(
        self,
        owner: str,
        table_id: int,
        user: User | None,
        action: Mapping[str, Any],
        action_id: str | None,
        present: bool,
    ) -> Outcome:
        ref = str(next(self.refs))
        self.forwarded[table_id] = time.monotonic()
        future: asyncio.Future[Mapping[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[ref] = future
        message = {
            "type": "route.act", "ref": ref, "reply": self.channel, "table": table_id,
            "user": None if user is None else _player_of(user), "action": dict(action),
            "action_id": action_id,
            "present": present,
        }  # fmt: skip
        try:
            await self.layer.send(owner, message)
            answer = await asyncio.wait_for(future, ANSWER_SECONDS)
        except TimeoutError as error:
            self.known.pop(table_id, None)  # ask the table's row again next time
            raise OwnerAway(f"table {table_id}: its owner did not answer") from error
        finally:
            self.pending.pop(ref, None)
        if isinstance(until := answer.get("until"), int | float):
            # The owner's lease as it renews it: no need to read the row again while it lasts.
            self.known[table_id] = (owner, datetime.fromtimestamp(until, tz=UTC))
        return _answered(answer)

    async def receive(self) -> None:
        """This process's channel: answers to what it forwarded, and actions forwarded to it."""
        while True:
            message = await self.layer.receive(self.channel)
            if message.get("type") == "route.answer":
                future = self.pending.pop(str(message.get("ref")), None)
                if future is not None and not future.done():
                    future.set_result(message)
            elif message.get("type") == "route.act":
                self._spawn(self.serve(message))

    async def serve(self, message: Mapping[str, Any]) -> None:
        """Apply a forwarded action here and send its answer back."""
        answer: dict[str, Any] = {"type": "route.answer", "ref": message["ref"]}
        table_id = int(message["table"])
        try:
            # No user: the system's request (a presence notice), only ever sent by a process.
            user = None if message["user"] is None else _player_from(message["user"])
            outcome = await submit(
                table_id=table_id,
                user=user,
                action=message["action"],
                action_id=message["action_id"],
                present=bool(message["present"]),
            )
            self.active[table_id] = time.monotonic()
            answer["outcome"] = [
                outcome.table_id, outcome.version, list(outcome.events), outcome.repeated,
            ]  # fmt: skip
        except (IllegalAction, ConfigError, LedgerError) as refusal:
            answer["refused"] = [type(refusal).__name__, sentence_data(sentence_of(refusal))]
        except DatabaseError:
            log.exception("table %s: the database failed on a forwarded action", table_id)
            answer["failed"] = "unavailable"
        except Exception:
            log.exception("table %s: a forwarded action failed", table_id)
            answer["failed"] = "internal"
        if (lease := self.leases.get(table_id)) is not None:
            answer["until"] = lease.timestamp()  # the forwarder trusts it that long
        try:
            await self.layer.send(message["reply"], answer)
        except Exception:  # the forwarder answers "unavailable" when this does not come
            log.exception("table %s: could not send a forwarded action's answer", table_id)

    async def renew(self) -> None:
        """Every ``RENEW_SECONDS``, :meth:`renew_once`."""
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await self.renew_once()
            except Exception:  # the database is away: the leases lapse, others take over
                log.exception("could not renew the tables' leases")

    async def renew_once(self) -> None:
        """Renew the leases of the tables that had actions lately and let the others go; read
        the owners of the tables forwarded to lately."""
        moment = time.monotonic()
        keep = [t for t in self.leases if moment - self.active.get(t, 0.0) < IDLE_SECONDS]
        idle = [t for t in self.leases if t not in keep]
        for table_id in [t for t, at in self.forwarded.items() if moment - at >= IDLE_SECONDS]:
            del self.forwarded[table_id]
        watched = [t for t in self.forwarded if t not in self.leases]
        now = timezone.now()
        # Passed over while locked (see _renew) until a lease is this close to its end: then
        # waited for, so that a busy table's lease never lapses under its living owner.
        ending = now + timedelta(seconds=URGENT_SECONDS)
        urgent = [t for t in keep if self.leases[t] <= ending]
        kept, until, owners = await in_writes_thread(
            _renew, self.channel, keep, idle, now, watched, urgent
        )
        for table_id in [*idle, *(t for t in keep if t not in kept)]:
            self.leases.pop(table_id, None)
            self.active.pop(table_id, None)
        for table_id, renewed in kept.items():
            if renewed:
                self.leases[table_id] = until
            # else: in a transaction now (an action's), tried again at the next round; its
            # lease stands until then.
        for table_id in watched:
            owner, lease = owners.get(table_id, ("", None))
            if owner and owner != self.channel and lease is not None:
                self.known[table_id] = (owner, lease)
            else:  # nobody's, or lapsed: the next action here claims it
                self.known.pop(table_id, None)

    def _spawn(self, work: Any) -> None:
        task = asyncio.ensure_future(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)


#: What a forwarded action carries of its player: what the runtime reads of a socket's player
#: (the socket's own, as its handshake read it), so the owner reads nothing to apply it.
PLAYER_FIELDS = ("pk", "username", "display_name", "is_bot", "is_active")


def _player_of(user: User) -> dict[str, Any]:
    return {name: getattr(user, name) for name in PLAYER_FIELDS}


def _player_from(fields: Mapping[str, Any]) -> User:
    """The forwarding socket's player, as it knows them (an instance read from no row)."""
    player = User(**{name: fields[name] for name in PLAYER_FIELDS})
    player._state.adding = False  # a row that exists: never saved from here
    player._state.db = "default"
    return player


def _answered(message: Mapping[str, Any]) -> Outcome:
    """The owner's answer as ``submit`` gives it: an Outcome, or the refusal raised."""
    if "outcome" in message:
        table_id, version, events, repeated = message["outcome"]
        return Outcome(int(table_id), int(version), tuple(events), bool(repeated))
    if "refused" in message:
        kind, sentence = message["refused"]
        raise REFUSALS.get(kind, IllegalAction)(sentence_from(sentence))
    if message.get("failed") == "internal":
        raise RuntimeError("the table's owner failed on the action")
    raise OwnerAway("the table's owner could not reach its database")


_routes: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Route] = weakref.WeakKeyDictionary()
_starting: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)


async def route_act(
    *,
    table_id: int,
    user: User,
    action: Mapping[str, Any],
    action_id: str | None,
    present: bool = False,
) -> Outcome:
    """A socket's action, applied by its table's owner (here when processes share nothing)."""
    route = await _route()
    if route is None:
        return await submit(
            table_id=table_id, user=user, action=action, action_id=action_id, present=present
        )
    return await route.act(
        table_id=table_id, user=user, action=action, action_id=action_id, present=present
    )


async def _route() -> Route | None:
    """This loop's route, started on first use; None where processes share nothing."""
    if not sharing():
        return None
    loop = asyncio.get_running_loop()
    route = _routes.get(loop)
    if route is not None:
        return route
    async with _starting.setdefault(loop, asyncio.Lock()):
        route = _routes.get(loop)
        if route is None:
            layer = get_channel_layer()
            # The process id in the name: an operator reading Table.owner knows the process.
            route = Route(layer, await layer.new_channel(f"route.{os.getpid()}."))
            route._spawn(route.receive())
            route._spawn(route.renew())
            _routes[loop] = route
    return route


async def route_ahead(table_id: int) -> None:
    """A socket has opened on the table: learn its owner, or take the table if nobody holds it,
    in the background, so that the first action there finds the owner known rather than
    waiting for the claim (a table's players who sit together all waited for it). Nothing
    where processes share nothing. A claim that fails here is made again by the first action,
    as if none had been tried."""
    route = await _route()
    if route is not None and not route.owns_or_knows(table_id):
        route._spawn(route.owner_ahead(table_id))


async def route_presence(*, table_id: int, seat: int) -> Outcome:
    """A presence notice (cardroom/tables/held.py, ``PRESENCE``), applied by the table's owner
    as a socket's action is, so that the owner's table stays held."""
    route = await _route()
    if route is None:
        return await submit_presence(table_id, seat)
    action = {"kind": PRESENCE, "seat": seat}
    return await route.act(
        table_id=table_id, user=None, action=action, action_id=None, present=False
    )


def route_of(loop: asyncio.AbstractEventLoop) -> Route | None:
    """The route of ``loop``, started there (from another thread: the clock's) if need be;
    None where processes share nothing."""
    if not sharing():
        return None
    route = _routes.get(loop)
    if route is None:
        route = asyncio.run_coroutine_threadsafe(_route(), loop).result(timeout=10)
    return route


def _claim(table_id: int, owner: str, now: datetime) -> tuple[str, datetime]:
    """Take the table if nobody holds it (or ``owner`` does, or the lease lapsed); the owner
    and its lease either way."""
    until = now + timedelta(seconds=LEASE_SECONDS)
    free = Q(owner=owner) | Q(owner="") | Q(owned_until__isnull=True) | Q(owned_until__lt=now)
    if Table.objects.filter(free, pk=table_id).update(owner=owner, owned_until=until):
        return owner, until
    row = Table.objects.filter(pk=table_id).values_list("owner", "owned_until").first()
    if row is None:
        raise Table.DoesNotExist(f"no table {table_id}")
    return row[0], row[1] or now


def _renew(
    owner: str,
    keep: Sequence[int],
    idle: Sequence[int],
    now: datetime,
    watched: Sequence[int] = (),
    urgent: Sequence[int] = (),
) -> tuple[dict[int, bool], datetime, dict[int, tuple[str, datetime | None]]]:
    """Renew ``owner``'s leases of ``keep`` and let ``idle`` go; the owners of ``watched``
    with their leases. ``kept``: each table of ``keep`` that ``owner`` still holds, with
    whether its lease was renewed. A table whose row another transaction has locked (an
    action being applied) is passed over, not waited for (``SKIP LOCKED``): waiting, the
    renewal would hold the locks of the rows it had renewed, and those tables' actions would
    wait for the others'. Those of ``urgent`` (leases about to end) passed over are then
    renewed one by one, each waiting for its own row only."""
    until = now + timedelta(seconds=LEASE_SECONDS)
    if idle:
        Table.objects.filter(pk__in=idle, owner=owner).update(owner="", owned_until=None)
    kept: dict[int, bool] = {}
    if keep:
        skipping = connection.features.has_select_for_update_skip_locked
        params: list[Any] = [until, owner, *keep, *((owner, *keep) if skipping else ())]
        with connection.cursor() as cursor:
            cursor.execute(_renew_sql(len(keep), connection.vendor), params)
            kept = {int(table_id): bool(renewed) for table_id, renewed in cursor.fetchall()}
    for table_id in [t for t in urgent if kept.get(t) is False]:
        if Table.objects.filter(pk=table_id, owner=owner).update(owned_until=until):
            kept[table_id] = True
        else:  # taken meanwhile
            del kept[table_id]
    owners: dict[int, tuple[str, datetime | None]] = {}
    if watched:
        rows = Table.objects.filter(pk__in=watched, owned_until__gt=now)
        owners = {
            pk: (name, lease) for pk, name, lease in rows.values_list("pk", "owner", "owned_until")
        }
    return kept, until, owners


@cache
def _renew_sql(tables: int, vendor: str) -> str:
    """Each of the listed tables the owner holds, with whether its lease was renewed (given
    its new ``owned_until``). The outer query sees the rows as they were before the update: a
    table skipped because it is locked is still listed, as not renewed."""
    quote = connection.ops.quote_name
    table, key = quote(Table._meta.db_table), quote("id")
    listed = ", ".join(["%s"] * tables)
    mine = f"{quote('owner')} = %s AND {key} IN ({listed})"
    if not connection.features.has_select_for_update_skip_locked:
        # One writer at a time (SQLite): nothing is locked to pass over.
        return f"UPDATE {table} SET {quote('owned_until')} = %s WHERE {mine} RETURNING {key}, 1"
    return (
        f"WITH renewed AS (UPDATE {table} SET {quote('owned_until')} = %s WHERE {key} IN "
        f"(SELECT {key} FROM {table} WHERE {mine} FOR UPDATE SKIP LOCKED) RETURNING {key}) "
        f"SELECT {table}.{key}, renewed.{key} IS NOT NULL FROM {table} "
        f"LEFT OUTER JOIN renewed ON renewed.{key} = {table}.{key} "
        f"WHERE {table}.{quote('owner')} = %s AND {table}.{key} IN ({listed})"
    )


def claim_due(owner: str, now: datetime, limit: int) -> list[tuple[int, datetime | None]]:
    """The clock's share of the due tables: those ``owner`` holds, nobody holds, or whose lease
    lapsed (their owner died), taken by ``owner`` as they are found; a table being acted on is
    passed over (``SKIP LOCKED``), and another live owner's tables are left to it."""
    until = now + timedelta(seconds=LEASE_SECONDS)
    quote = connection.ops.quote_name
    table = quote(Table._meta.db_table)
    skip = (
        " FOR UPDATE SKIP LOCKED" if connection.features.has_select_for_update_skip_locked else ""
    )
    sql = (
        f"UPDATE {table} SET {quote('owner')} = %s, {quote('owned_until')} = %s "
        f"WHERE {quote('id')} IN (SELECT {quote('id')} FROM {table} "
        f"WHERE {quote('deadline')} <= %s AND {quote('status')} <> %s AND ({quote('owner')} = %s "
        f"OR {quote('owner')} = '' OR {quote('owned_until')} IS NULL "
        f"OR {quote('owned_until')} < %s) ORDER BY {quote('deadline')} LIMIT %s{skip}) "
        f"RETURNING {quote('id')}, {quote('deadline')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [owner, until, now, TableStatus.CLOSED, owner, now, limit])
        rows = cursor.fetchall()
    return sorted(
        ((int(table_id), deadline) for table_id, deadline in rows),
        key=lambda row: row[1] or now,
    )


def adopt_threadsafe(
    loop: asyncio.AbstractEventLoop, route: Route, table_ids: Sequence[int], now: datetime
) -> None:
    """Tell ``route`` (from the clock's thread) of the tables its clock took."""
    if table_ids:
        until = now + timedelta(seconds=LEASE_SECONDS)
        with contextlib.suppress(RuntimeError):  # the loop stopped: the process is going down
            loop.call_soon_threadsafe(route.adopt, list(table_ids), until)
