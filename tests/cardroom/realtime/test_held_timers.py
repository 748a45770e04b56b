"""A held table's timeout is timed by the server's queue (cardroom/realtime/queue.py): applied
at its deadline with no clock's sweep, in its turn among the players' actions; the clock's sweep
leaves a timed table to its timer unless the timer is late."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.utils import timezone

from accounts.services import user_create
from cardroom.clock import clock
from cardroom.models import Table, TableAction
from cardroom.realtime.queue import TIMER_GRACE_SECONDS, submit, timed_here
from cardroom.tables.runtime import table_create

pytestmark = pytest.mark.django_db(transaction=True)


def quick_table() -> Table:
    return table_create(
        game="guts", preset="survivor", name="Timed",
        options={"ante": 100, "seats": 3, "ante_seconds": 0.5, "decision_seconds": 0.5,
                 "showdown_seconds": 0.2},
    )  # fmt: skip


async def kinds(table: Table) -> list[str]:
    rows = TableAction.objects.filter(table=table).order_by("version", "seq")
    return [row.action["kind"] async for row in rows]


async def test_a_held_table_s_timeouts_come_from_its_timer_with_no_clock():
    table = await sync_to_async(quick_table)()
    users = [await sync_to_async(user_create)(username=name) for name in ("ann", "ben")]
    for user in users:
        await submit(table_id=table.pk, user=user, action={"kind": "sit", "buy_in": 20_000},
                     action_id=None)  # fmt: skip
    # The sits go the locked path; a decision holds the table and times its deadline.
    loop = asyncio.get_running_loop()
    await submit(table_id=table.pk, user=users[0], action={"kind": "sit_out"}, action_id=None)
    await submit(table_id=table.pk, user=users[0], action={"kind": "sit_in"}, action_id=None)
    assert table.pk in timed_here(loop)
    for _ in range(60):  # the pause, the ante call, then nobody antes: the timeouts go on
        await asyncio.sleep(0.1)
        if (await kinds(table)).count("timeout") >= 2:
            break
    assert (await kinds(table)).count("timeout") >= 2
    row = await Table.objects.aget(pk=table.pk)
    assert row.deadline is None or table.pk in timed_here(loop)


def test_the_clock_leaves_a_timed_table_to_its_timer_until_it_is_late(monkeypatch):
    table = quick_table()
    Table.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=0.2))
    handed: list[int] = []
    monkeypatch.setattr(
        clock, "_time_out_queued", lambda loop, due: handed.extend(t for t, _ in due) or 0
    )
    monkeypatch.setattr(clock, "route_of", lambda loop: None)
    monkeypatch.setattr(clock, "timed_here", lambda loop: frozenset({table.pk}))
    loop = object()
    clock.clock_sweep(loop=loop)  # type: ignore[arg-type]
    assert handed == []  # its timer has it
    late = timezone.now() - timedelta(seconds=TIMER_GRACE_SECONDS + 0.5)
    Table.objects.filter(pk=table.pk).update(deadline=late)
    clock.clock_sweep(loop=loop)  # type: ignore[arg-type]
    assert handed == [table.pk]  # its timer is late: the sweep applies it


def test_the_clock_wakes_only_for_the_deadlines_no_other_timer_meets(monkeypatch):
    """Its pause leaves out the tables its server's queue times and those another live owner
    holds; it wakes for the rest (and polls anyway: the sweep above still sees them all)."""
    from types import SimpleNamespace

    mine, timed, theirs, lapsed = (quick_table() for _ in range(4))
    now = timezone.now()
    Table.objects.update(deadline=now + timedelta(seconds=0.1))
    Table.objects.filter(pk=theirs.pk).update(
        owner="route.other", owned_until=now + timedelta(seconds=5)
    )
    Table.objects.filter(pk=lapsed.pk).update(
        owner="route.dead", owned_until=now - timedelta(seconds=1)
    )
    Table.objects.filter(pk=mine.pk).update(
        owner="route.me", owned_until=now + timedelta(seconds=5)
    )
    monkeypatch.setattr(clock, "server_loop", lambda: object())
    monkeypatch.setattr(clock, "timed_here", lambda loop: frozenset({timed.pk}))
    monkeypatch.setattr(clock, "route_of", lambda loop: SimpleNamespace(channel="route.me"))
    ticking = clock.ClockThread()

    def wakes_for(*tables: Table) -> bool:
        Table.objects.update(deadline=None)
        Table.objects.filter(pk__in=[t.pk for t in tables]).update(
            deadline=timezone.now() + timedelta(seconds=0.1)
        )
        return ticking.pause() < clock.POLL_SECONDS

    assert wakes_for(mine) and wakes_for(lapsed)
    assert not wakes_for(timed) and not wakes_for(theirs) and not wakes_for(timed, theirs)
    Table.objects.filter(pk=theirs.pk).update(owner="")
    assert wakes_for(theirs)  # nobody holds it now: the clock is its timer
