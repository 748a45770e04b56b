"""A tournament's state on its table's JSON socket (docs/protocol.md, "Tournaments"): every
``state`` frame carries ``tournament``, the same as ``/tournaments/<id>.json``; the runtime reads
it only for the versions that change it (the start, a level raised, a player placed, the
finish), and each socket keeps the last one it was sent."""

from __future__ import annotations

import json
from datetime import UTC, timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client as HttpClient
from django.utils import timezone

from cardroom.models import EntryStatus, Table, Tournament, TournamentStatus
from cardroom.realtime.auth import token_create
from cardroom.tables import announce
from cardroom.tables.runtime import table_act, table_create, table_timeout
from cardroom.tables.snapshots import snapshot_from_db, state_frame
from cardroom.tournaments.levels import levels_sweep
from cardroom.tournaments.registration import fill_with_bots, register
from tests.cardroom.queries import ORDINARY, queries
from tests.cardroom.sockets import Client, make_clients
from tests.cardroom.tournaments.driving import play_out


def _json(tournament: Tournament) -> dict:
    response = HttpClient().get(f"/tournaments/{tournament.pk}.json")
    assert response.status_code == 200
    return json.loads(response.content)


def _iso(moment) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


@pytest.fixture
def heard(monkeypatch):
    """Every announced version, instead of the sockets."""
    heard: list[announce.Announcement] = []
    monkeypatch.setattr(announce, "_hook", heard.append)
    return heard


def _start(make_tournament, make_player, seats: int = 2) -> Tournament:
    tournament = make_tournament(seats=seats)
    for number in range(seats):
        register(tournament_id=tournament.pk, user=make_player(f"p{number}"))
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    return tournament


# The runtime's snapshots, as announced after each commit.


@pytest.mark.django_db
def test_the_start_and_a_level_raised_are_announced_with_the_tournament(
    make_tournament, make_player, heard, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        tournament = _start(make_tournament, make_player)
    # Each seat taken at the start is a version of the table; the last says it all.
    seated = heard[-1].snapshot
    assert seated is not None and seated["plays_for_chips"] is True
    assert seated["tournament"] == _json(tournament)
    assert seated["tournament"]["status"] == "running"
    assert (seated["tournament"]["level"], seated["tournament"]["stake"]) == (1, 10)
    assert seated["tournament"]["level_ends"] == _iso(tournament.level_deadline)

    at = tournament.level_deadline + timedelta(milliseconds=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert levels_sweep(now=at) == 1
    tournament.refresh_from_db()
    raised = heard[-1].snapshot
    assert raised is not None and raised["version"] == seated["version"] + 1
    # Read once the level's transaction committed: the tournament's row is written after the
    # table's action in it.
    assert raised["tournament"]["level"] == 2
    assert (raised["tournament"]["stake"], raised["tournament"]["next_stake"]) == (40, 100)
    assert raised["tournament"]["level_ends"] == _iso(at + timedelta(minutes=1))
    assert raised["tournament"] == _json(tournament)


@pytest.mark.django_db
def test_an_ordinary_action_at_a_tournaments_table_reads_nothing_more(
    make_tournament, make_player, heard, django_capture_on_commit_callbacks
):
    """The query budget: an ordinary action reads no tournament, neither in its transaction
    nor after it commits; only a version that changes the tournament does."""
    tournament = _start(make_tournament, make_player, seats=3)
    table = tournament.table
    assert table is not None
    players = [entry.user for entry in tournament.entries.order_by("seat")]

    def costs(run) -> tuple[int, int]:
        """(queries of the action, queries of what runs once it commits)."""
        with django_capture_on_commit_callbacks() as callbacks:
            in_action = queries(run)
        return in_action, queries(lambda: [callback() for callback in callbacks])

    table.refresh_from_db()
    assert table.deadline is not None
    # Monte Carlo: the clock antes every seat and deals; then each player declares, the last
    # declaration ends the hand (nobody is out of chips after it).
    deal = costs(lambda: table_timeout(table_id=table.pk, now=table.deadline))
    declare = {"kind": "declare", "choice": "in"}
    declares = [
        costs(lambda p=player: table_act(table_id=table.pk, user=p, action=declare))
        for player in players
    ]
    assert all(in_action <= ORDINARY for in_action, _ in declares[:-1]), declares
    assert [after_commit for _, after_commit in [deal, *declares]] == [0] * 4, (deal, declares)
    assert len(heard) == 4 and all("tournament" not in told.snapshot for told in heard)
    # A level raised reads it, once committed: what the counts above would have caught.
    raised = costs(lambda: levels_sweep(now=tournament.level_deadline + timedelta(seconds=1)))
    assert raised[1] > 0, raised
    assert heard[-1].snapshot["tournament"]["level"] == 2


@pytest.mark.django_db(transaction=True)
def test_places_and_the_finish_are_announced_as_they_commit(
    seeded, make_tournament, make_player, heard
):
    tournament = make_tournament(seats=3, bots=2)
    fill_with_bots(tournament_id=tournament.pk, count=2)
    register(tournament_id=tournament.pk, user=make_player("ann"))
    tournament.refresh_from_db()
    play_out(tournament, timezone.now())
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    carried = [told.snapshot["tournament"] for told in heard if "tournament" in told.snapshot]
    # Not every version: the antes, declarations and deals of the hands carry none.
    assert 0 < len(carried) < len(heard) // 2, (len(carried), len(heard))
    # A player placed while the others played on, then the finish.
    assert any(
        state["status"] == "running"
        and [entrant["status"] for entrant in state["entrants"]].count("eliminated") == 1
        for state in carried
    ), carried
    assert carried[-1] == _json(tournament)
    assert carried[-1]["status"] == "finished"
    assert carried[-1]["level_ends"] is None
    assert sorted(e["place"] for e in carried[-1]["entrants"]) == sorted(
        tournament.entries.exclude(place=None).values_list("place", flat=True)
    )
    assert tournament.entries.filter(status=EntryStatus.WON).count() == 1


# The frames.


@pytest.mark.django_db
def test_a_chips_table_without_a_tournament_and_a_cash_table_carry_none(make_player):
    cash = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 4}, name="Cash"
    )
    table_act(table_id=cash.pk, user=make_player("ann"), action={"kind": "sit", "buy_in": 20_000})
    cash.refresh_from_db()
    frame = state_frame(snapshot_from_db(cash), None)
    assert frame["tournament"] is None
    assert frame["table"]["table"]["plays_for_chips"] is False
    chips = table_create(
        game="guts", preset="monte_carlo", options={"ante": 10, "seats": 3}, name="Chips",
        plays_for_chips=True,
    )  # fmt: skip
    snapshot = snapshot_from_db(chips)
    assert "tournament" not in snapshot
    assert state_frame(snapshot, None)["table"]["table"]["plays_for_chips"] is True


async def _state_at(client: Client, table: Table) -> dict:
    """The state frame of the table's latest version (the socket's own presence may make a
    version before it)."""
    await table.arefresh_from_db()
    while True:
        frame = await client.receive()
        if frame["type"] == "state" and frame["version"] == table.version:
            return frame


@pytest.mark.django_db(transaction=True)
async def test_the_socket_carries_the_tournament_and_its_levels(make_tournament, make_player):
    tournament = await sync_to_async(_start)(make_tournament, make_player)
    table = await Table.objects.aget(pk=tournament.table_id)
    player = await sync_to_async(lambda: tournament.entries.order_by("seat")[0].user)()
    ann = Client(table.pk, await sync_to_async(token_create)(user=player))
    first = await ann.connect()
    assert first["type"] == "state"
    assert first["table"]["table"]["plays_for_chips"] is True
    assert first["tournament"] == await sync_to_async(_json)(tournament)
    assert first["tournament"]["id"] == tournament.pk
    assert (first["tournament"]["level"], first["tournament"]["stake"]) == (1, 10)
    assert first["tournament"]["next_stake"] == 40
    assert first["tournament"]["places_paid"] == 2
    assert first["tournament"]["prizes"] == [1300, 700]

    at = tournament.level_deadline + timedelta(milliseconds=1)
    assert await sync_to_async(levels_sweep)(now=at) == 1
    await tournament.arefresh_from_db()
    frame = await _state_at(ann, table)
    assert (frame["tournament"]["level"], frame["tournament"]["stake"]) == (2, 40)
    assert frame["tournament"]["next_stake"] == 100
    assert frame["tournament"]["level_ends"] == _iso(tournament.level_deadline)
    assert frame["tournament"] == await sync_to_async(_json)(tournament)

    # An ordinary version's snapshot leaves the tournament out; the socket keeps the last.
    await table.arefresh_from_db()
    assert table.deadline is not None
    await sync_to_async(table_timeout)(table_id=table.pk, now=table.deadline)
    after = await _state_at(ann, table)
    # The timeout's version, and perhaps the socket's own coming online (a presence version:
    # the tournament seated Ann with no socket), whichever committed first.
    assert after["version"] in (frame["version"] + 1, frame["version"] + 2)
    assert after["tournament"] == frame["tournament"]
    await ann.close()


@pytest.mark.django_db(transaction=True)
async def test_a_cash_tables_frames_say_no_tournament():
    table = await sync_to_async(table_create)(
        game="guts", preset="survivor", options={"ante": 100, "seats": 4}, name="Cash"
    )
    ann, ben = await make_clients(table, ["ann", "ben"])
    assert (await ann.act(kind="sit", buy_in=20_000))["type"] == "ack"
    assert (await ben.act(kind="sit", buy_in=20_000))["type"] == "ack"
    for client in (ann, ben):
        await client.drain(table)
        states = [frame for frame in client.frames if frame["type"] == "state"]
        assert len(states) >= 3
        assert all("tournament" in frame and frame["tournament"] is None for frame in states)
        assert all(frame["table"]["table"]["plays_for_chips"] is False for frame in states)
        await client.close()


@pytest.mark.django_db
def test_a_chips_tables_frames_offer_no_sit_top_up_or_leave(make_tournament, make_player):
    """The runtime refuses them there (cardroom/tables/chips.py), so no frame offers them:
    neither to a seated player nor to a spectator while a seat is free."""
    tournament = _start(make_tournament, make_player, seats=2)
    table = Table.objects.get(pk=tournament.table_id)
    snapshot = snapshot_from_db(table)
    seated = [entry.user for entry in tournament.entries.order_by("seat")]
    spectator = make_player("watcher")
    cash = table_create(
        game="guts", preset="monte_carlo", options={"ante": 10, "seats": 3}, name="Cash"
    )
    table_act(table_id=cash.pk, user=seated[0], action={"kind": "sit", "buy_in": 20_000})
    cash.refresh_from_db()
    # What a cash table offers the same viewers, so the filter has something to remove.
    offered = {
        action["kind"]
        for viewer in (seated[0], spectator)
        for action in state_frame(snapshot_from_db(cash), viewer.pk)["you"]["legal_actions"]
    }
    assert {"sit", "leave"} <= offered
    for viewer in (*seated, spectator):
        kinds = {a["kind"] for a in state_frame(snapshot, viewer.pk)["you"]["legal_actions"]}
        assert not kinds & {"sit", "top_up", "leave"}, (viewer.username, kinds)
