"""Regression guards of the live path: queries per action, and none on the push path.

A push builds each viewer's frame from the snapshot the runtime sent with the version, so no
connection reads the database after an action; an ordinary action costs at most 8 queries
whatever the number of seats, a showdown at most 20.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.template.loader import render_to_string

from cardroom.models import Table
from cardroom.presentation.pages import page_context
from cardroom.tables.runtime import table_act, table_create, table_timeout
from cardroom.tables.selectors import table_state
from cardroom.tables.snapshots import snapshot_from_db, state_frame
from tests.cardroom.queries import ORDINARY, SHOWDOWN, queries


def clock(table: Table) -> None:
    table.refresh_from_db()
    assert table_timeout(table_id=table.pk, now=table.deadline + timedelta(milliseconds=10))


def survivor_with(players: list, seats: int) -> tuple[Table, dict[str, int]]:
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": seats}, name="Budget"
    )
    counts: dict[str, int] = {}
    for player in players:
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    clock(table)  # the round's ante call
    ids = iter(range(1000))
    # The first ante opens the hand: its deck is shuffled and committed to before any card.
    counts["ante that opens the hand"] = queries(
        lambda: table_act(table_id=table.pk, user=players[0], action={"kind": "ante"})
    )
    counts["ante"] = max(
        queries(
            lambda p=player: table_act(
                table_id=table.pk, user=p, action={"kind": "ante"}, action_id=str(next(ids))
            )
        )
        for player in players[1:-1]
    )
    # The last ante deals: the hand is marked dealt as well.
    counts["ante that deals"] = queries(
        lambda: table_act(table_id=table.pk, user=players[-1], action={"kind": "ante"})
    )
    counts["declare"] = max(
        queries(
            lambda p=player: table_act(
                table_id=table.pk, user=p, action={"kind": "declare", "choice": "in"}
            )
        )
        for player in players[:-1]
    )
    counts["showdown"] = queries(
        lambda: table_act(
            table_id=table.pk, user=players[-1], action={"kind": "declare", "choice": "out"}
        )
    )
    return table, counts


@pytest.mark.django_db
def test_an_action_costs_the_same_few_queries_whatever_the_number_of_seats(make_player):
    from accounts.ledger import rake_account

    rake_account()  # opened by the first rake ever taken, which is not what is measured here
    players = [make_player(f"p{i}") for i in range(6)]
    _, three = survivor_with(players[:3], seats=3)
    _, six = survivor_with(players, seats=6)
    assert three == six, (three, six)
    assert three["ante"] <= ORDINARY and three["declare"] <= ORDINARY, three
    assert three["ante that deals"] <= ORDINARY + 1, three
    assert three["ante that opens the hand"] <= ORDINARY + 4, three
    assert three["showdown"] <= SHOWDOWN, three
    if connection.vendor == "postgresql":
        # Statements that read nothing back go together (accounts/sql/writes.py), and the
        # table is read with its seats: each of these is a round trip (besides the BEGIN and
        # COMMIT of the transaction, which this test's own transaction takes the place of).
        assert three["declare"] <= 2 and three["ante"] <= 4, three
        assert three["showdown"] <= 8, three


@pytest.mark.django_db
def test_three_card_poker_bets_and_chinese_poker_rows_stay_in_budget(make_player):
    tcp = table_create(game="three_card_poker", preset="standard", options={}, name="TCP")
    ann, ben = make_player("ann"), make_player("ben")
    for player in (ann, ben):
        table_act(table_id=tcp.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    bet = {"kind": "bet", "ante": 100, "pair_plus": 100}
    table_act(table_id=tcp.pk, user=ann, action=bet)  # the first bet opens the hand
    assert queries(lambda: table_act(table_id=tcp.pk, user=ben, action=bet)) <= ORDINARY
    chinese = table_create(game="chinese_poker", preset="unit-1", options={}, name="CP")
    for player in (ann, ben):
        table_act(table_id=chinese.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    for _ in range(3):  # the pause, then the deal
        chinese.refresh_from_db()
        if chinese.state["phase"] == "setting":
            break
        clock(chinese)
    cards = table_state(table=chinese, user_id=ann.pk)["you"]["cards"]
    assert len(cards) == 13, cards
    rows = {"kind": "set", "front": cards[:3], "middle": cards[3:8], "back": cards[8:]}
    assert queries(lambda: table_act(table_id=chinese.pk, user=ann, action=rows)) <= ORDINARY


@pytest.mark.django_db
def test_a_frame_and_the_page_are_built_from_a_snapshot_with_no_query(make_player):
    table, _ = survivor_with([make_player("ann"), make_player("ben"), make_player("cat")], 4)
    table.refresh_from_db()
    snapshot = snapshot_from_db(table)
    viewer = table.seats.filter(left__isnull=True).first().user

    def build() -> None:
        state = state_frame(snapshot, viewer.pk)
        context = page_context(snapshot=snapshot, state=state, bankroll_cents=0, oob=True)
        render_to_string("cardroom/partials/_regions.html", context)

    assert queries(build) == 0


@pytest.mark.django_db(transaction=True)
async def test_pushes_after_an_action_read_nothing(monkeypatch):
    """Both sockets, after their first frame: a version pushed by the runtime reaches them
    with the database reads of the push path made to fail."""
    import cardroom.realtime.consumers
    import cardroom.realtime.snapshot_reads
    from accounts.services import user_create
    from cardroom.realtime.auth import token_create
    from tests.cardroom.sockets import Client, Page

    table = await sync_to_async(table_create)(
        game="guts", preset="survivor", options={"ante": 100, "seats": 4}, name="Push"
    )
    ann = await sync_to_async(user_create)(username="ann")
    ben = await sync_to_async(user_create)(username="ben")
    api = Client(table.pk, await sync_to_async(token_create)(user=ann))
    page = Page(table.pk, await sync_to_async(token_create)(user=ann))
    await api.connect()
    await page.open()

    def no_read(*args, **kwargs):
        raise AssertionError("the push path read the database")

    # Every database read of a socket: the snapshot (cardroom/realtime/snapshot_reads.py reads
    # it through these two) and the page's bankroll.
    monkeypatch.setattr(cardroom.realtime.snapshot_reads, "snapshot_from_db", no_read)
    monkeypatch.setattr(cardroom.realtime.snapshot_reads, "table_row", no_read)
    monkeypatch.setattr(cardroom.realtime.consumers, "bankroll_balance", no_read)
    await sync_to_async(table_act)(
        table_id=table.pk, user=ben, action={"kind": "sit", "buy_in": 20_000}
    )
    frame = await api.receive()
    assert frame["type"] == "state" and frame["version"] == 1
    assert [s.get("player") for s in frame["table"]["seats"]].count("ben") == 1
    await page.settle(table)
    assert page.version() == 1
    assert "ben" in page.frames[-1]  # the page drew the new seat, from the snapshot
    await api.close()
    await page.communicator.disconnect()
