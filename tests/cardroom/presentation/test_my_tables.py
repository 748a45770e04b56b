"""A player at several tables: the "my tables" strip, its JSON and the tiled view."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse

from cardroom.models import Table
from cardroom.presentation.my_tables import my_tables
from cardroom.tables.runtime import table_act, table_create
from tests.cardroom.driving import play_to_declare, run_clock
from tests.cardroom.plays import named_cards

pytestmark = pytest.mark.django_db

SIT = {"kind": "sit", "buy_in": 20_000}


def survivor(name: str) -> Table:
    return table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name=name
    )


def seat_at(table: Table, *players) -> None:
    for player in players:
        table_act(table_id=table.pk, user=player, action=SIT)


def answer(client) -> dict:
    response = client.get(reverse("my-tables"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    return response.json()


def test_the_json_lists_only_the_players_own_tables(client, make_player):
    ann, ben, cat = (make_player(name) for name in ("ann", "ben", "cat"))
    first, second, theirs = survivor("First"), survivor("Second"), survivor("Theirs")
    seat_at(first, ann, ben)
    seat_at(second, ann)
    seat_at(theirs, ben, cat)
    client.force_login(ann)
    tables = answer(client)["tables"]
    assert [row["name"] for row in tables] == ["First", "Second"]
    assert tables[0] == {
        "id": first.pk,
        "name": "First",
        "game": "Guts (Monte Carlo / Survivor)",
        "url": reverse("table", args=[first.pk]),
        "turn": False,
        "seconds": None,
    }
    # The tiled view is offered from two tables on.
    assert answer(client)["tiled"] == reverse("tables-tiled")
    client.force_login(cat)
    assert [row["name"] for row in answer(client)["tables"]] == ["Theirs"]
    assert answer(client)["tiled"] is None


def test_a_table_left_is_no_longer_listed(client, make_player):
    ann, ben = make_player("ann"), make_player("ben")
    table = survivor("Left")
    seat_at(table, ann, ben)
    table_act(table_id=table.pk, user=ann, action={"kind": "leave"})
    client.force_login(ann)
    assert answer(client)["tables"] == []


def test_the_turn_is_true_exactly_while_a_decision_of_the_players_is_awaited(make_player):
    ann, ben = make_player("ann"), make_player("ben")
    table = survivor("Turns")
    seat_at(table, ann, ben)
    table.refresh_from_db()
    assert table.state["phase"] == "pause"
    assert [row.turn for row in my_tables(ann)] == [False]  # a pause: nothing to decide

    run_clock(table)  # the ante call
    assert table.state["phase"] == "ante"
    now = table.deadline - timedelta(seconds=12.5)
    (mine,) = my_tables(ann, now=now)
    assert mine.turn and mine.seconds == 13 and mine.time_left == "0:13"

    table_act(table_id=table.pk, user=ann, action={"kind": "ante"})
    (mine,) = my_tables(ann, now=now)
    assert not mine.turn and mine.seconds is None  # anted: it is Ben's decision now
    (his,) = my_tables(ben, now=now)
    assert his.turn

    table_act(table_id=table.pk, user=ben, action={"kind": "ante"})
    table.refresh_from_db()
    assert table.state["phase"] == "declare"
    assert [row.turn for row in my_tables(ann)] == [True]
    table_act(table_id=table.pk, user=ann, action={"kind": "declare", "choice": "in"})
    assert [row.turn for row in my_tables(ann)] == [False]
    assert [row.turn for row in my_tables(ben)] == [True]


def test_the_turn_at_the_other_games_tables(make_player):
    ann, ben = make_player("ann"), make_player("ben")
    bets = table_create(game="three_card_poker", preset="standard", options={}, name="Bets")
    rows = table_create(game="chinese_poker", preset="unit-1", options={}, name="Rows")
    for table in (bets, rows):
        seat_at(table, ann, ben)
    # Three Card Poker: bets are called at once; a bet placed ends the player's turn there.
    assert [(row.name, row.turn) for row in my_tables(ann)] == [("Bets", True), ("Rows", False)]
    table_act(table_id=bets.pk, user=ann, action={"kind": "bet", "ante": 500, "pair_plus": 0})
    assert [row.turn for row in my_tables(ann)] == [False, False]
    assert [row.turn for row in my_tables(ben)] == [True, False]
    # Chinese Poker: after the pause, each player sets a hand; surrendering it ends the turn.
    run_clock(rows)
    assert rows.state["phase"] == "setting"
    assert [row.turn for row in my_tables(ann)] == [False, True]
    table_act(table_id=rows.pk, user=ann, action={"kind": "surrender"})
    assert [row.turn for row in my_tables(ann)] == [False, False]
    assert [row.turn for row in my_tables(ben)] == [True, True]


def test_a_paused_table_awaits_nobody(make_player):
    from cardroom.models import TableStatus

    ann, ben = make_player("ann"), make_player("ben")
    table = survivor("Paused")
    seat_at(table, ann, ben)
    run_clock(table)
    assert [row.turn for row in my_tables(ann)] == [True]
    Table.objects.filter(pk=table.pk).update(status=TableStatus.PAUSED)
    assert [row.turn for row in my_tables(ann)] == [False]


def test_the_json_holds_no_card_and_nothing_of_another_player(client, make_player):
    ann, ben = make_player("ann"), make_player("ben")
    table = survivor("Cards")
    seat_at(table, ann, ben)
    play_to_declare(table, [ann, ben])
    assert named_cards(table.state), "cards are dealt: there is something to leak"
    client.force_login(ann)
    body = answer(client)
    assert named_cards(body) == set()
    (row,) = body["tables"]
    assert set(row) == {"id", "name", "game", "url", "turn", "seconds"}
    assert row["turn"] is True and isinstance(row["seconds"], int) and row["seconds"] >= 0
    text = json.dumps(body)
    assert "ben" not in text and "stack" not in text


def test_the_json_is_refused_to_a_visitor_and_never_cached(client, make_player):
    response = client.get(reverse("my-tables"))
    assert response.status_code == 401
    assert "log in" in response.json()["error"].lower()
    client.force_login(make_player("ann"))
    response = client.get(reverse("my-tables"))
    assert "no-cache" in response["Cache-Control"] and "no-store" in response["Cache-Control"]


@pytest.mark.parametrize("count", [1, 4])
def test_the_json_costs_the_same_few_queries_however_many_tables(
    client, make_player, django_assert_max_num_queries, count
):
    ann, ben = make_player("ann"), make_player("ben")
    for number in range(count):
        table = survivor(f"Table {number}")
        seat_at(table, ann, ben)
        run_clock(table)
    client.force_login(ann)
    client.get(reverse("my-tables"))  # the session's first read is not the endpoint's cost
    # The session, the user, whether they have a second factor (the OTP middleware), and one
    # query for the seats with their tables.
    with django_assert_max_num_queries(4):
        tables = answer(client)["tables"]
    assert len(tables) == count and all(row["turn"] for row in tables)


def test_every_page_shows_the_strip_with_the_turn_in_words(client, make_player):
    ann, ben = make_player("ann"), make_player("ben")
    first, second = survivor("First"), survivor("Second")
    seat_at(first, ann, ben)
    seat_at(second, ann, ben)
    run_clock(second)
    client.force_login(ann)
    page = client.get(reverse("lobby")).content.decode()
    assert '<nav id="my-tables" class="my-tables" aria-label="My tables"' in page
    assert 'aria-live="polite"' in page and "js/my_tables.js" in page
    strip = page.split('id="my-tables"')[1].split("</nav>")[0]
    first_item, second_item = strip.split("<li")[1:]
    assert "First" in first_item and "Your turn" not in first_item
    assert "Second" in second_item and "Your turn" in second_item and " left" in second_item
    assert reverse("tables-tiled") in strip


def test_the_strip_is_drawn_hidden_for_a_player_seated_nowhere_and_not_for_a_visitor(
    client, make_player
):
    visitor = client.get(reverse("home")).content.decode()
    assert 'id="my-tables"' not in visitor and "my_tables.js" not in visitor
    client.force_login(make_player("ann"))
    page = client.get(reverse("home")).content.decode()
    assert 'data-url="/my-tables.json" hidden>' in page


def test_the_compact_table_page_may_be_framed_by_this_site_and_draws_no_strip(client, make_player):
    ann, ben = make_player("ann"), make_player("ben")
    table = survivor("Framed")
    seat_at(table, ann, ben)
    client.force_login(ann)
    response = client.get(reverse("table", args=[table.pk]), {"compact": "1"})
    assert response["X-Frame-Options"] == "SAMEORIGIN"
    page = response.content.decode()
    assert 'class="compact"' in page
    assert 'id="my-tables"' not in page and "js/my_tables.js" in page  # it still tells turns
    # Every other page still refuses to be framed.
    assert client.get(reverse("lobby"))["X-Frame-Options"] == "DENY"
    normal = client.get(reverse("table", args=[table.pk])).content.decode()
    assert 'class="compact"' not in normal and 'id="my-tables"' in normal


def test_the_tiled_view_shows_up_to_four_of_the_players_tables(client, make_player):
    ann, ben = make_player("ann"), make_player("ben")
    tables = [survivor(f"Tile {number}") for number in range(5)]
    for table in tables:
        seat_at(table, ann, ben)
    run_clock(tables[1])
    client.force_login(ann)
    page = client.get(reverse("tables-tiled")).content.decode()
    tiles = page.split('id="tiles"')[1]
    for table in tables[:4]:
        assert f'data-src="/tables/{table.pk}/?compact=1"' in tiles
    assert f"/tables/{tables[4].pk}/" not in tiles
    assert 'class="tile turn"' in tiles  # Tile 1 awaits her ante
    assert 'name="t"' in page  # seated at five: she picks which four

    chosen = client.get(reverse("tables-tiled"), {"t": [tables[4].pk, tables[0].pk, 999]})
    tiles = chosen.content.decode().split('id="tiles"')[1]
    assert f"/tables/{tables[4].pk}/" in tiles and f"/tables/{tables[0].pk}/" in tiles
    assert f"/tables/{tables[2].pk}/" not in tiles


def test_the_tiled_view_shows_no_other_players_table(client, make_player):
    ann, ben = make_player("ann"), make_player("ben")
    theirs = survivor("Theirs")
    seat_at(theirs, ben)
    client.force_login(ann)
    page = client.get(reverse("tables-tiled"), {"t": theirs.pk}).content.decode()
    assert f"/tables/{theirs.pk}/" not in page
    assert "You are not seated at any table." in page


def test_the_tiled_view_asks_a_visitor_to_log_in(client):
    response = client.get(reverse("tables-tiled"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
