"""Tables owned by one process, actions forwarded to it (cardroom/realtime/owners.py).

Two routes on one loop and one in-memory channel layer stand for two server processes: the
first to act at a table takes it, the other forwards its players' actions and gets the owner's
answers back (applied, or refused in a sentence it can say in its own socket's language); an
id applied once is answered as such, however often it is forwarded; an owner that does not
answer leaves the action "unavailable"; the clock takes only the due tables no live owner holds.
"""

from __future__ import annotations

import asyncio
import json
import threading
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import InMemoryChannelLayer
from django.utils import timezone

from cardroom.models import Seat, Table, TableAction
from cardroom.realtime import owners
from cardroom.realtime.owners import OwnerAway, Route, claim_due
from cardroom.tables.held import PRESENCE
from cardroom.tables.runtime import Outcome
from games.engine import IllegalAction
from games.words import Sentence
from tests.cardroom.realtime.anted import survivor

pytestmark = pytest.mark.django_db(transaction=True)


async def two_processes() -> tuple[Route, Route, list[asyncio.Task[Any]]]:
    layer = InMemoryChannelLayer()
    first = Route(layer, await layer.new_channel("route."))
    second = Route(layer, await layer.new_channel("route."))
    tasks = [asyncio.ensure_future(route.receive()) for route in (first, second)]
    return first, second, tasks


async def ante(route: Route, table: Table, player: Any, action_id: str) -> Any:
    """The player's ante through ``route``: the first process to act owns the table."""
    return await route.act(
        table_id=table.pk, user=player, action={"kind": "ante"}, action_id=action_id,
        present=False,
    )  # fmt: skip


async def test_the_first_to_act_owns_the_table_and_the_other_forwards(make_player):
    players = [await sync_to_async(make_player)(name) for name in ("ann", "ben", "cat")]
    table = await sync_to_async(survivor)(players)
    first, second, tasks = await two_processes()
    try:
        mine = await ante(first, table, players[0], "a1")
        assert isinstance(mine, Outcome) and not mine.repeated
        row = await sync_to_async(Table.objects.get)(pk=table.pk)
        assert row.owner == first.channel and row.owned_until > timezone.now()
        forwarded = await ante(second, table, players[1], "b1")
        assert forwarded.version == mine.version + 1 and not forwarded.repeated
        assert second.known[table.pk][0] == first.channel
        assert table.pk not in second.leases
        # The same id again, from the forwarding side: applied once, answered as applied.
        again = await ante(second, table, players[1], "b1")
        assert again.repeated and again.version == forwarded.version
        journal = await sync_to_async(
            lambda: list(TableAction.objects.filter(table=table, client_id="b1"))
        )()
        assert len(journal) == 1
        # A refusal comes back as the sentence it was, to be said in the socket's language.
        with pytest.raises(IllegalAction) as refused:
            await ante(second, table, players[1], "b2")
        sentence = refused.value.args[0]
        assert isinstance(sentence, Sentence) and sentence.template
        # A forwarded sit seats its player as the forwarding socket knows them, read nowhere.
        dan = await sync_to_async(make_player)("dan")
        await second.act(
            table_id=table.pk, user=dan, action={"kind": "sit", "buy_in": 20_000}, action_id="d1",
            present=False,
        )  # fmt: skip
        seat = await Seat.objects.select_related("user").aget(table=table, left__isnull=True,
                                                               user=dan)  # fmt: skip
        state = (await Table.objects.aget(pk=table.pk)).state
        assert seat.user.username == "dan" and "dan" in json.dumps(state)
    finally:
        for task in tasks:
            task.cancel()


async def test_an_owner_that_does_not_answer_leaves_the_action_unavailable(
    make_player, monkeypatch
):
    monkeypatch.setattr(owners, "ANSWER_SECONDS", 0.3)
    players = [await sync_to_async(make_player)(name) for name in ("ann", "ben")]
    table = await sync_to_async(survivor)(players)
    first, second, tasks = await two_processes()
    await first.owner_of(table.pk)
    tasks[0].cancel()  # the owner's process stops reading: it died
    try:
        with pytest.raises(OwnerAway):
            await ante(second, table, players[1], "x")
        assert table.pk not in second.known  # the table's row is asked again next time
        row = await sync_to_async(Table.objects.get)(pk=table.pk)
        assert row.version == table.version  # nothing was applied
    finally:
        tasks[1].cancel()


def test_the_clock_takes_due_tables_no_live_owner_holds(make_player):
    players = [make_player(name) for name in ("ann", "ben")]
    mine, theirs, lapsed, free = (survivor(players) for _ in range(4))
    now = timezone.now()
    later = now + timedelta(seconds=60)
    Table.objects.filter(pk=mine.pk).update(owner="me", owned_until=later)
    Table.objects.filter(pk=theirs.pk).update(owner="other", owned_until=later)
    Table.objects.filter(pk=lapsed.pk).update(owner="dead", owned_until=now - timedelta(seconds=1))
    due_at = now + timedelta(seconds=30)  # every deadline (the ante call's 4 s) has passed
    taken = [table_id for table_id, _ in claim_due("me", due_at, 100)]
    assert sorted(taken) == sorted([mine.pk, lapsed.pk, free.pk])
    owners_now = dict(Table.objects.values_list("pk", "owner"))
    assert owners_now[theirs.pk] == "other"
    assert {owners_now[pk] for pk in taken} == {"me"}


async def test_idle_tables_are_let_go_and_lost_leases_forgotten(make_player, monkeypatch):
    monkeypatch.setattr(owners, "RENEW_SECONDS", 0.05)
    players = [await sync_to_async(make_player)(name) for name in ("ann", "ben")]
    kept, idle, lost = [await sync_to_async(survivor)(players) for _ in range(3)]
    first, _, tasks = await two_processes()
    for table in (kept, idle, lost):
        await first.owner_of(table.pk)
    first.active[idle.pk] = -1e9  # no action there for ages
    await sync_to_async(Table.objects.filter(pk=lost.pk).update)(owner="another")
    renewing = asyncio.ensure_future(first.renew())
    try:
        for _ in range(100):
            await asyncio.sleep(0.05)
            if set(first.leases) == {kept.pk}:
                break
        assert set(first.leases) == {kept.pk}
        rows = await sync_to_async(lambda: dict(Table.objects.values_list("pk", "owner")))()
        assert rows[kept.pk] == first.channel and rows[idle.pk] == "" and rows[lost.pk] == "another"
    finally:
        renewing.cancel()
        for task in tasks:
            task.cancel()


async def test_the_owners_answers_carry_its_lease_so_the_forwarder_reads_no_row(
    make_player, monkeypatch
):
    players = [await sync_to_async(make_player)(name) for name in ("ann", "ben", "cat")]
    table = await sync_to_async(survivor)(players)
    first, second, tasks = await two_processes()
    try:
        await ante(first, table, players[0], "a1")
        await ante(second, table, players[1], "b1")
        # The owner renews its lease (as its renewal task does every second) ...
        renewed = timezone.now() + timedelta(seconds=owners.LEASE_SECONDS + 30)
        first.leases[table.pk] = renewed
        # ... and the forwarder learns it from the next answer, a refusal as well.
        with pytest.raises(IllegalAction):
            await ante(second, table, players[1], "b2")
        assert second.known[table.pk] == (first.channel, renewed)
        # Past the lease it first knew of, the forwarder still asks no row.
        claims: list[int] = []
        monkeypatch.setattr(owners, "_claim", lambda **kw: claims.append(kw["table_id"]))
        later = timezone.now() + timedelta(seconds=owners.LEASE_SECONDS + 10)
        monkeypatch.setattr(owners.timezone, "now", lambda: later)
        assert await second.owner_of(table.pk) == first.channel
        assert claims == []
    finally:
        for task in tasks:
            task.cancel()


async def test_the_forwarders_renewal_reads_the_owners_lease_and_forgets_a_lapsed_one(
    make_player,
):
    players = [await sync_to_async(make_player)(name) for name in ("ann", "ben")]
    renewed_table, lapsed_table = [await sync_to_async(survivor)(players) for _ in range(2)]
    first, second, tasks = await two_processes()
    try:
        for table in (renewed_table, lapsed_table):
            await first.owner_of(table.pk)
            await second.act(
                table_id=table.pk, user=players[1], action={"kind": "ante"},
                action_id=f"b{table.pk}", present=False,
            )  # fmt: skip
        # The owner renewed one lease in its row; the other's owner died and its lease lapsed.
        renewed = timezone.now() + timedelta(seconds=40)
        lapsed = timezone.now() - timedelta(seconds=1)
        await sync_to_async(Table.objects.filter(pk=renewed_table.pk).update)(owned_until=renewed)
        await sync_to_async(Table.objects.filter(pk=lapsed_table.pk).update)(owned_until=lapsed)
        await second.renew_once()
        assert second.known[renewed_table.pk][0] == first.channel
        assert abs((second.known[renewed_table.pk][1] - renewed).total_seconds()) < 0.001
        assert lapsed_table.pk not in second.known  # its next action claims the table
        assert await second.owner_of(lapsed_table.pk) == second.channel
    finally:
        for task in tasks:
            task.cancel()


async def test_actions_that_come_together_claim_their_table_once(make_player, monkeypatch):
    players = [await sync_to_async(make_player)(name) for name in ("ann", "ben")]
    table = await sync_to_async(survivor)(players)
    first, second, tasks = await two_processes()
    claims: list[int] = []
    claim = owners._claim

    def counted(**arguments: Any) -> Any:
        claims.append(arguments["table_id"])
        return claim(**arguments)

    monkeypatch.setattr(owners, "_claim", counted)
    try:
        await first.owner_of(table.pk)
        answers = await asyncio.gather(*(second.owner_of(table.pk) for _ in range(5)))
        assert answers == [first.channel] * 5
        assert claims == [table.pk, table.pk]  # the owner's, then the forwarder's one
    finally:
        for task in tasks:
            task.cancel()


async def test_a_failed_claim_fails_the_actions_that_waited_for_it_at_once(
    make_player, monkeypatch
):
    players = [await sync_to_async(make_player)(name) for name in ("ann", "ben")]
    table = await sync_to_async(survivor)(players)
    _, second, tasks = await two_processes()
    claims: list[int] = []

    def unreachable(**arguments: Any) -> Any:
        claims.append(arguments["table_id"])
        raise OwnerAway("the database is away")

    monkeypatch.setattr(owners, "_claim", unreachable)
    try:
        answers = await asyncio.gather(
            *(second.owner_of(table.pk) for _ in range(5)), return_exceptions=True
        )
        assert all(isinstance(answer, OwnerAway) for answer in answers)
        assert claims == [table.pk]  # one claim, its failure the answer of all five
        assert second.claiming == {}
    finally:
        for task in tasks:
            task.cancel()


async def test_the_owners_renewal_passes_over_a_table_being_acted_on(make_player):
    """A table whose row another transaction holds (an action being applied) is not waited
    for: its lease stands as it was, and is tried again at the next round (waited for once it
    is about to end); the other tables' are renewed meanwhile. A table another process has
    taken since is let go. (SQLite has one writer at a time, which the renewal waits for as
    every write does, and no row lock to pass over; and the embedded default writes no lease:
    there, the leases are only renewed.)"""
    from django.db import connection, transaction

    players = [await sync_to_async(make_player)(name) for name in ("ann", "ben")]
    busy, free, taken = [await sync_to_async(survivor)(players) for _ in range(3)]
    first, _, tasks = await two_processes()
    locked, release = threading.Event(), threading.Event()

    def hold(table_id: int) -> None:
        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(pk=table_id)
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    holder = threading.Thread(target=hold, args=(busy.pk,))
    try:
        for table in (busy, free, taken):
            await first.owner_of(table.pk)
        before = dict(first.leases)
        await sync_to_async(Table.objects.filter(pk=taken.pk).update)(owner="route.other")
        await asyncio.sleep(0.01)  # a later lease than the claims'
        vendor = await sync_to_async(lambda: connection.vendor)()
        if vendor == "postgresql":
            holder.start()
            await sync_to_async(locked.wait)(5)
        await asyncio.wait_for(first.renew_once(), 3)  # never waits for the lock
        assert first.leases[free.pk] > before[free.pk]
        assert taken.pk not in first.leases
        if vendor == "postgresql":
            assert first.leases[busy.pk] == before[busy.pk]  # passed over, still held
            # Its lease about to end, it is waited for (its own row alone), then renewed.
            first.leases[busy.pk] = timezone.now() + timedelta(seconds=owners.URGENT_SECONDS / 2)
            renewal = asyncio.ensure_future(first.renew_once())
            await asyncio.sleep(0.3)
            assert not renewal.done()
            release.set()
            await asyncio.wait_for(renewal, 5)
        assert first.leases[busy.pk] == first.leases[free.pk] > before[busy.pk]
        row = await sync_to_async(Table.objects.get)(pk=busy.pk)
        assert row.owner == first.channel and row.owned_until == first.leases[busy.pk]
    finally:
        release.set()
        if holder.is_alive():
            holder.join(5)
        for task in tasks:
            task.cancel()


async def test_a_presence_notice_is_forwarded_to_the_owner_with_no_player(make_player):
    """A socket's presence notice (cardroom/tables/held.py) goes to the owner as a player's
    action does, with no user: the owner tells the game what the seat's count says."""
    players = [await sync_to_async(make_player)(name) for name in ("ann", "ben")]
    table = await sync_to_async(survivor)(players)
    first, second, tasks = await two_processes()
    try:
        await ante(first, table, players[0], "a1")
        seat = await Seat.objects.aget(table=table, user=players[1], left__isnull=True)
        await Seat.objects.filter(pk=seat.pk).aupdate(connections=0)
        told = await second.act(
            table_id=table.pk, user=None, action={"kind": PRESENCE, "seat": seat.number},
            action_id=None, present=False,
        )  # fmt: skip
        assert isinstance(told, Outcome) and not told.repeated
        assert second.known[table.pk][0] == first.channel  # forwarded, not applied here
        row = await TableAction.objects.aget(table=table, version=told.version)
        assert row.action["kind"] == "disconnect" and row.actor_id is None
    finally:
        for task in tasks:
            task.cancel()


async def test_a_claim_ahead_takes_the_table_so_the_first_action_claims_nothing(
    make_player, monkeypatch
):
    """A socket opened on a table (``route_ahead``) takes it before any action, so its first
    action finds the lease here; on another process, the owner is learned, and the first
    forwarded action reads no row either."""
    players = [await sync_to_async(make_player)(name) for name in ("ann", "ben")]
    table = await sync_to_async(survivor)(players)
    first, second, tasks = await two_processes()
    claims: list[str] = []
    claim = owners._claim

    def counted(**kwargs: Any) -> Any:
        claims.append(kwargs["owner"])
        return claim(**kwargs)

    monkeypatch.setattr(owners, "_claim", counted)
    try:
        assert not first.owns_or_knows(table.pk)
        await first.owner_ahead(table.pk)
        assert first.owns_or_knows(table.pk) and table.pk in first.leases
        row = await sync_to_async(Table.objects.get)(pk=table.pk)
        assert row.owner == first.channel and row.owned_until == first.leases[table.pk]
        await second.owner_ahead(table.pk)  # a socket of the other process: learns, no take
        assert second.known[table.pk][0] == first.channel and table.pk not in second.leases
        assert claims == [first.channel, second.channel]
        mine = await ante(first, table, players[0], "a1")
        forwarded = await ante(second, table, players[1], "b1")
        assert forwarded.version == mine.version + 1
        assert claims == [first.channel, second.channel]  # no action claimed again
    finally:
        for task in tasks:
            task.cancel()


async def test_a_failed_claim_ahead_is_made_again_by_the_first_action(make_player, monkeypatch):
    players = [await sync_to_async(make_player)(name) for name in ("ann",)]
    table = await sync_to_async(survivor)([*players, await sync_to_async(make_player)("ben")])
    first, _, tasks = await two_processes()
    claim = owners._claim

    def away(**kwargs: Any) -> Any:
        raise owners.DatabaseError("the database is away")

    monkeypatch.setattr(owners, "_claim", away)
    try:
        await first.owner_ahead(table.pk)  # swallowed: nothing to answer yet
        assert not first.owns_or_knows(table.pk) and not first.claiming
        monkeypatch.setattr(owners, "_claim", claim)
        applied = await ante(first, table, players[0], "a1")
        assert isinstance(applied, Outcome) and table.pk in first.leases
    finally:
        for task in tasks:
            task.cancel()


async def test_route_ahead_claims_only_where_processes_share_tables(make_player, settings):
    table = await sync_to_async(survivor)(
        [await sync_to_async(make_player)(name) for name in ("ann", "ben")]
    )
    settings.REDIS_URL = ""
    await owners.route_ahead(table.pk)  # one process: nothing routed, no lease written
    row = await sync_to_async(Table.objects.get)(pk=table.pk)
    assert row.owner == "" and row.owned_until is None
    settings.REDIS_URL = "redis://127.0.0.1:6379/9"  # read by sharing() alone here
    await owners.route_ahead(table.pk)
    route = owners._routes[asyncio.get_running_loop()]
    try:
        for _ in range(100):  # in the background: the claim is the route's task
            if table.pk in route.leases:
                break
            await asyncio.sleep(0.02)
        row = await sync_to_async(Table.objects.get)(pk=table.pk)
        assert row.owner == route.channel and table.pk in route.leases
    finally:
        for task in route.tasks:
            task.cancel()
        owners._routes.pop(asyncio.get_running_loop(), None)


async def test_a_socket_opened_on_a_table_claims_it_ahead_unless_it_is_closed(
    make_player, monkeypatch
):
    from cardroom.realtime import consumers
    from cardroom.realtime.auth import token_create
    from cardroom.tables.control import table_close
    from tests.cardroom.sockets import Client

    asked: list[int] = []

    async def ahead(table_id: int) -> None:
        asked.append(table_id)

    monkeypatch.setattr(consumers, "route_ahead", ahead)
    players = [await sync_to_async(make_player)(name) for name in ("ann", "ben")]
    table, closed = [await sync_to_async(survivor)(players) for _ in range(2)]
    await sync_to_async(table_close)(table_id=closed.pk)
    token = await sync_to_async(token_create)(user=players[0])
    for opened in (table, closed):
        client = Client(opened.pk, token)
        assert (await client.connect())["type"] == "state"
        await client.communicator.disconnect()
    assert asked == [table.pk]  # the closed table has no action to come
