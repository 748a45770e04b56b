"""Players' actions waiting for their table, applied a table's worth at a time.

A socket's action used to be one trip to the database thread and one transaction. In a burst
(every table's ante call landing at once, everyone sitting down as a room opens) each table's
actions queued one by one behind every other table's, and each paid again for locking the
table row and reading its seats. Here the actions of one table that arrive while that table's
previous batch is being applied wait together, and go as one call of
``cardroom.tables.runtime.table_act_many``: one transaction, one lock, one read of the seats,
each action still its own version. A table with nothing in flight sends its action at once, so
a quiet table waits for nobody.

Between batches the queue holds each table as its last batch left it (cardroom/tables/held.py),
so the next batch is settled in memory and written in one fenced transaction; a batch the held
rows cannot take goes through the locked path. A held table's timeout is timed here, at its
deadline, and comes through the same queue (``submit_timeout``), so it keeps its place among
the players' actions and the table stays held; the clock's sweep (cardroom/clock/clock.py)
leaves a timed table to its timer unless the timer is ``TIMER_GRACE_SECONDS`` late.

The queue belongs to this process's event loop (a test runs servers on loops of their own);
processes still share tables through the row lock and the held batches' fence. It also knows
whether any action is in hand, which new sockets wait on (``actions_quiet``,
cardroom/realtime/admission.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.utils import timezone

from accounts.models import User
from cardroom.observability.metrics import timeout_applied
from cardroom.realtime.threads import in_action_thread
from cardroom.tables.held import PRESENCE, Held, held_act
from cardroom.tables.runtime import Outcome, Request
from games.engine import IllegalAction

__all__ = ["actions_quiet", "submit", "submit_presence", "submit_timeout", "timed_here"]

log = logging.getLogger(__name__)

#: The most actions one batch applies: a flood at one table still lets the others in.
BATCH_LIMIT = 32
#: The most tables a loop holds between batches (the least recently acted on are let go).
HELD_LIMIT = 4096
#: How late a held table's own timer may be before the clock's sweep applies its timeout.
TIMER_GRACE_SECONDS = 1.0


@dataclass
class _Waiting:
    """The actions waiting for each table on one loop, and the tables being applied."""

    actions: dict[int, list[tuple[Request, asyncio.Future[Any]]]] = field(default_factory=dict)
    busy: set[int] = field(default_factory=set)
    tasks: set[asyncio.Task[None]] = field(default_factory=set)
    #: Each table as its last batch left it, for the next (cardroom/tables/held.py).
    held: OrderedDict[int, Held] = field(default_factory=OrderedDict)
    #: The timers of the held tables' deadlines, and (read by the clock's thread, so replaced
    #: whole, never changed) the tables they time.
    timers: dict[int, asyncio.TimerHandle] = field(default_factory=dict)
    timed: frozenset[int] = frozenset()
    #: Actions submitted on this loop and not answered yet; ``quiet`` is set when there are none.
    in_flight: int = 0
    quiet: asyncio.Event = field(default_factory=asyncio.Event)


_loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Waiting] = weakref.WeakKeyDictionary()


async def submit(
    *,
    table_id: int,
    user: User | None,
    action: Mapping[str, Any],
    action_id: str | None,
    present: bool = False,
) -> Outcome:
    """Apply one player's action with whatever else waits for its table; raises the refusal
    (IllegalAction, ...) or the database's failure exactly as ``table_act`` would. With no
    user, a system request forwarded from another process (``submit_presence``'s)."""
    return await _submit(table_id, Request(user, dict(action), action_id, present))


async def submit_presence(table_id: int, seat: int) -> Outcome:
    """Tell the game, in its turn among the table's actions, what the seat's count of
    connections says when it is applied (cardroom/tables/held.py, ``PRESENCE``)."""
    return await _submit(table_id, Request(None, {"kind": PRESENCE, "seat": seat}))


async def submit_timeout(table_id: int) -> Outcome:
    """Apply the clock's timeout of the table, now, in its turn among the players' actions;
    raises IllegalAction when nothing is due, as ``table_timeout`` answers None."""
    return await _submit(table_id, Request(None, {"kind": "timeout"}))


async def _submit(table_id: int, request: Request) -> Outcome:
    loop = asyncio.get_running_loop()
    waiting = _loops.setdefault(loop, _Waiting())
    future: asyncio.Future[Any] = loop.create_future()
    waiting.actions.setdefault(table_id, []).append((request, future))
    if table_id not in waiting.busy:
        waiting.busy.add(table_id)
        task = loop.create_task(_apply_waiting(waiting, table_id))
        waiting.tasks.add(task)  # held, so the task is not collected while it runs
        task.add_done_callback(waiting.tasks.discard)
    waiting.in_flight += 1
    waiting.quiet.clear()
    try:
        outcome: Outcome = await future
    finally:
        waiting.in_flight -= 1
        if not waiting.in_flight:
            waiting.quiet.set()
    return outcome


def timed_here(loop: asyncio.AbstractEventLoop) -> frozenset[int]:
    """The tables whose timeouts ``loop``'s queue times itself (read from any thread)."""
    waiting = _loops.get(loop)
    return frozenset() if waiting is None else waiting.timed


def _time(waiting: _Waiting, table_id: int) -> None:
    """Time the held table's deadline (or stop timing a table no longer held)."""
    timer = waiting.timers.pop(table_id, None)
    if timer is not None:
        timer.cancel()
    held = waiting.held.get(table_id)
    deadline = held.table.deadline if held is not None else None
    if deadline is not None:
        delay = max(0.0, (deadline - timezone.now()).total_seconds())
        loop = asyncio.get_running_loop()
        waiting.timers[table_id] = loop.call_later(delay, _due, waiting, table_id)
    waiting.timed = frozenset(waiting.timers)


def _due(waiting: _Waiting, table_id: int) -> None:
    """A held table's deadline: its timeout goes in the queue (or the timer waits again, when
    the held table's deadline moved meanwhile)."""
    waiting.timers.pop(table_id, None)
    held = waiting.held.get(table_id)
    deadline = held.table.deadline if held is not None else None
    if deadline is not None and deadline > timezone.now():
        _time(waiting, table_id)
        return
    waiting.timed = frozenset(waiting.timers)
    if deadline is not None:
        task = asyncio.get_running_loop().create_task(_timeout(table_id, deadline))
        waiting.tasks.add(task)
        task.add_done_callback(waiting.tasks.discard)


async def _timeout(table_id: int, deadline: datetime) -> None:
    try:
        await submit_timeout(table_id)
    except IllegalAction:
        return  # applied meanwhile, or the table changed: its next deadline is timed anew
    except Exception:
        log.exception("table %s: a timed timeout failed; the clock's sweep will apply it", table_id)
        return
    timeout_applied(deadline, timezone.now())


async def actions_quiet(limit: float) -> bool:
    """Return once no action is waiting for its table or being applied on this loop, or after
    ``limit`` seconds at most; whether it was quiet."""
    waiting = _loops.get(asyncio.get_running_loop())
    if waiting is None or not waiting.in_flight:
        return True
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(waiting.quiet.wait(), limit)
        return True
    return False


async def _apply_waiting(waiting: _Waiting, table_id: int) -> None:
    """Apply the table's waiting actions, batch after batch, until none is left."""
    batch: list[tuple[Request, asyncio.Future[Any]]] = []
    try:
        while queued := waiting.actions.get(table_id):
            batch, rest = queued[:BATCH_LIMIT], queued[BATCH_LIMIT:]
            if rest:
                waiting.actions[table_id] = rest
            else:
                del waiting.actions[table_id]
            requests = [request for request, _ in batch]
            held = waiting.held.pop(table_id, None)  # taken back only if the batch keeps it
            try:
                answers, held = await in_action_thread(
                    held_act, table_id=table_id, requests=requests, held=held
                )
            except Exception as failure:  # the database: no action of the batch was applied
                answers, held = [failure] * len(batch), None
            if held is not None:
                waiting.held[table_id] = held
                while len(waiting.held) > HELD_LIMIT:
                    _time(waiting, waiting.held.popitem(last=False)[0])
            _time(waiting, table_id)
            for (_, future), answer in zip(batch, answers, strict=True):
                if future.done():  # its socket went away while it waited
                    continue
                if isinstance(answer, BaseException):
                    future.set_exception(answer)
                else:
                    future.set_result(answer)
    finally:
        waiting.busy.discard(table_id)
        # Cancelled (the loop is stopping): whoever still waits is told, not left hanging.
        for _, future in [*batch, *waiting.actions.pop(table_id, [])]:
            if not future.done():
                future.cancel()
