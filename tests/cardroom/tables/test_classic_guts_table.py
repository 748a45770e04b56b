"""Classic Guts at the table: sequential declare, timeouts are Out, the ghost stays hidden."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command

from cardroom.models import Hand, HandEvent
from cardroom.presentation.house_rules import house_rules
from cardroom.tables.runtime import table_act, table_create, table_timeout
from cardroom.tables.selectors import table_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def kitty(db):
    return table_create(
        game="classic_guts", preset="kitty", options={"ante": 100, "seats": 4}, name="Kitty"
    )


@pytest.fixture
def players(kitty, make_player):
    seated = [make_player(name) for name in ("ann", "ben", "cat")]
    for player in seated:
        table_act(table_id=kitty.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    return seated


def run_clock(table) -> None:
    table.refresh_from_db()
    assert table.deadline is not None
    assert table_timeout(table_id=table.pk, now=table.deadline + timedelta(milliseconds=5))
    table.refresh_from_db()


def to_declare(table) -> None:
    for _ in range(4):
        if table.state["phase"] == "declare":
            return
        run_clock(table)
    raise AssertionError(f"no declare: {table.state['phase']}")


def test_sequential_declare_shows_whose_turn_it_is(kitty, players):
    to_declare(kitty)
    view = table_state(table=kitty, user_id=players[0].pk)["table"]
    turn = view["turn"]
    assert turn is not None
    for seat, player in enumerate(players):
        legal = table_state(table=kitty, user_id=player.pk)["you"]["legal_actions"]
        assert any(a["kind"] == "declare" for a in legal) == (seat == turn)


def test_a_missing_declare_is_out_and_the_ledger_balances(kitty, players):
    to_declare(kitty)
    for _ in range(6):
        if kitty.state["phase"] != "declare":
            break
        run_clock(kitty)
    declared = HandEvent.objects.filter(table=kitty, type="declared")
    assert declared.exists()
    assert Hand.objects.filter(table=kitty, ended__isnull=False).exists()
    call_command("audit_ledger")


def test_the_ghost_hand_is_hidden_from_everyone_before_the_showdown(kitty, players):
    to_declare(kitty)
    for player in players:
        view = table_state(table=kitty, user_id=player.pk)["table"]
        assert view["ghost"] is None
    ghost_events = HandEvent.objects.filter(table=kitty, private_to=-1)
    assert all("cards" in e.data for e in ghost_events)


def test_house_rules_are_stated_in_words(kitty):
    rules = house_rules(kitty)
    assert "A ghost hand plays every showdown; an In hand must beat it." in rules
    assert "When nobody is In, everyone antes again." in rules
    assert "Pot limit $100.00; the excess waits in a reserve." in rules
    # A ghost hand plays the dealer too: no automatic In at a Kitty table.
    assert (
        "The dealer is never In automatically: if all are Out, the rule for nobody In applies."
        in rules
    )


def test_house_rules_say_when_the_dealer_is_in_automatically(db):
    plain = table_create(game="classic_guts", preset="three_card", options={"ante": 100}, name="P")
    rules = house_rules(plain)
    assert "If all before the dealer are Out, the dealer takes the pot unseen." in rules
    assert not any("never In automatically" in line for line in rules)


def test_the_table_page_and_lobby_show_the_house_rules(client, kitty, players):
    from django.urls import reverse

    to_declare(kitty)
    client.force_login(players[0])
    page = client.get(reverse("table", args=[kitty.pk])).content.decode()
    assert "House rules" in page
    assert "A ghost hand plays every showdown" in page
    assert "turn to declare" in page
    lobby = client.get(reverse("lobby")).content.decode()
    assert "When nobody is In, everyone antes again." in lobby


def test_an_online_preset_is_not_a_classic_table(db):
    from games.engine import ConfigError

    with pytest.raises(ConfigError, match="unknown preset 'survivor'"):
        table_create(game="classic_guts", preset="survivor", options={"ante": 100}, name="x")
