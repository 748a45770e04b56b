"""What the house's own tools do at a sit-and-go: a timer change or a void keeps the level's
stake, an entrant excluded since registering is refunded rather than seated, house bots pay
no fee and are not the cash tables' bots, the lobby lists no chips table among the cash
tables, a pool the ledger could not pay out in one transfer is refused, and a cancelled
tournament shows no prize pool."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from accounts.selectors import bankroll_balance
from cardroom.models import EntryStatus, Table, TournamentStatus
from cardroom.responsible.services import exclusion_record
from cardroom.tables.control import hand_void, table_timers_set
from cardroom.tables.runtime import table_timeout
from cardroom.tournaments.cancel import cancel_tournament
from cardroom.tournaments.levels import raise_level
from cardroom.tournaments.registration import fill_with_bots, register
from cardroom.tournaments.selectors import tournament_summary
from games.engine import ConfigError
from tests.cardroom.tournaments.money import balance

pytestmark = pytest.mark.django_db


def started(make_tournament, make_player, **settings):
    tournament = make_tournament(seats=2, **settings)
    for name in ("ann", "ben"):
        register(tournament_id=tournament.pk, user=make_player(name))
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.RUNNING
    return tournament


def test_a_timer_change_keeps_the_stake_of_the_level_in_play(make_tournament, make_player):
    tournament = started(make_tournament, make_player)
    table = tournament.table
    assert raise_level(tournament_id=tournament.pk, now=timezone.now() + timedelta(minutes=2))
    # Play on until the level's stake (10 → 40) is in force, between two hands.
    for _ in range(200):
        table = Table.objects.get(pk=table.pk)
        if table.state["config"]["ante"] == 40 and table.open_hand_id is None:
            break
        table_timeout(table_id=table.pk, now=table.deadline)
    staked = (table.state["config"]["ante"], table.state.get("next_stake"))
    assert 40 in staked
    table_timers_set(table_id=table.pk, timers={"decision_seconds": 20})
    table.refresh_from_db()
    assert table.state["config"]["decision_seconds"] == 20
    # The level's stake, in force or waiting, is what it was: not the table's first (10).
    assert (table.state["config"]["ante"], table.state.get("next_stake")) == staked


def test_a_void_keeps_a_level_raised_during_the_voided_hand(make_tournament, make_player):
    tournament = started(make_tournament, make_player)
    table = Table.objects.get(pk=tournament.table_id)
    # Into the first hand: the antes are called and taken, the cards dealt.
    while table.open_hand_id is None:
        table_timeout(table_id=table.pk, now=table.deadline)
        table.refresh_from_db()
    assert raise_level(tournament_id=tournament.pk, now=timezone.now() + timedelta(minutes=2))
    table.refresh_from_db()
    assert table.state["next_stake"] == 40  # waiting for the next ante call
    hand_void(table_id=table.pk, reason="a test of the void")
    table.refresh_from_db()
    assert 40 in (table.state["config"]["ante"], table.state.get("next_stake"))


def test_an_entrant_excluded_since_registering_is_refunded_not_seated(make_tournament, make_player):
    tournament = make_tournament(seats=2)
    ann, ben = make_player("ann"), make_player("ben")
    before = bankroll_balance(user=ann)
    register(tournament_id=tournament.pk, user=ann)
    exclusion_record(
        user=ann, days=7, kind="time_out", reason="a break", by=ann, now=timezone.now()
    )
    register(tournament_id=tournament.pk, user=ben)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.REGISTERING  # her seat is open again
    statuses = {entry.user.username: entry.status for entry in tournament.entries.all()}
    assert statuses == {"ann": EntryStatus.UNREGISTERED, "ben": EntryStatus.REGISTERED}
    assert bankroll_balance(user=ann) == before
    assert tournament.table_id is None


def test_house_bots_pay_the_buy_in_but_no_fee(make_tournament, make_player):
    tournament = make_tournament(seats=3, bots=2)
    fill_with_bots(tournament_id=tournament.pk, count=2)
    bots = [entry.user for entry in tournament.entries.all()]
    assert all(bot.is_bot and bot.username.startswith("sng-bot-") for bot in bots)
    assert balance(f"prize:n{tournament.pk}") == 2 * 1000
    assert balance("fees") == 0
    register(tournament_id=tournament.pk, user=make_player("ann"))
    assert balance("fees") == 100
    tournament.refresh_from_db()
    cancel_tournament(tournament_id=tournament.pk, reason="a test")
    assert balance(f"prize:n{tournament.pk}") == 0
    assert balance("fees") == 0


def test_the_lobby_lists_no_tournament_table_among_the_cash_tables(
    client, make_tournament, make_player
):
    tournament = started(make_tournament, make_player, name="Chips only")
    page = client.get(reverse("lobby")).content.decode()
    assert (
        f'href="{reverse("table", args=[tournament.table_id])}"'
        not in page.split('id="lobby-tournaments"')[0]
    )


def test_a_pool_the_ledger_could_not_pay_in_one_transfer_is_refused(make_tournament):
    most = settings.CARDROOM_MAX_TRANSFER_CENTS // 6
    with pytest.raises(ConfigError, match="buy_in must be a whole number from 1 to"):
        make_tournament(seats=6, buy_in=most + 1)
    assert make_tournament(seats=6, buy_in=most).buy_in == most


def test_a_cancelled_tournament_shows_no_prize_pool(make_tournament, make_player):
    tournament = make_tournament(seats=3)
    register(tournament_id=tournament.pk, user=make_player("ann"))
    cancel_tournament(tournament_id=tournament.pk, reason="a test")
    tournament.refresh_from_db()
    summary = tournament_summary(tournament)
    assert summary["prize_pool"] == 0
    assert set(summary["prizes"]) <= {0}
