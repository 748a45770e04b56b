"""The reconnect grace and idle limit, and the table management commands."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import timezone

from accounts.selectors import bankroll_balance
from cardroom.clock.clock import presence_sweep
from cardroom.models import Seat, Table, Tournament
from cardroom.realtime.auth import token_user

pytestmark = pytest.mark.django_db


def away(seat: Seat, seconds: float) -> None:
    Seat.objects.filter(pk=seat.pk).update(
        connections=0, last_seen=timezone.now() - timedelta(seconds=seconds)
    )


def test_an_away_player_is_sat_out_after_the_grace_then_stood_up(survivor_table, seated):
    ann = seated[0]
    seat = Seat.objects.get(user=ann, left__isnull=True)
    away(seat, 30)
    assert presence_sweep() == 0  # within the 60-second grace
    away(seat, 61)
    assert presence_sweep() == 1
    survivor_table.refresh_from_db()
    assert survivor_table.state["seats"][0]["sitting_out"] is True
    assert presence_sweep() == 0  # sat out once, not again
    survivor_table.idle_limit_seconds = 120
    survivor_table.save()
    away(seat, 121)
    assert presence_sweep() == 1
    seat.refresh_from_db()
    assert seat.left is not None
    assert bankroll_balance(user=ann) == 100_000


def test_create_table_prints_the_id_and_validates_options():
    out = StringIO()
    call_command(
        "create_table", "--game", "guts", "--preset", "survivor", "--name", "Late night",
        "--bots", "2", "--ante", "100", stdout=out,
    )  # fmt: skip
    table = Table.objects.get(pk=int(out.getvalue()))
    assert (table.name, table.preset, table.bots) == ("Late night", "survivor", 2)
    assert table.stakes == 100


def test_create_table_passes_game_options_through():
    out = StringIO()
    call_command(
        "create_table", "--game", "guts", "--preset", "monte_carlo", "--ante", "25",
        "--name", "Quarter", "--match-cap=1000", stdout=out,
    )  # fmt: skip
    table = Table.objects.get(pk=int(out.getvalue()))
    assert table.config == {"ante": 25, "match_cap": 1000}
    assert table.stakes == 25


def test_create_table_refuses_an_unknown_option_naming_the_valid_ones():
    with pytest.raises(CommandError, match="unknown option 'colour'; valid options: ante"):
        call_command(
            "create_table", "--game", "guts", "--preset", "survivor", game_options={"colour": 1}
        )
    assert not Table.objects.exists()


def test_api_token_prints_only_a_token_for_a_new_player():
    out = StringIO()
    call_command("api_token", "robot", "--create", stdout=out)
    token = out.getvalue().strip()
    assert len(token) >= 40
    assert " " not in token
    user = token_user(token)
    assert user is not None
    assert user.username == "robot"
    assert bankroll_balance(user=user) == 100_000


def test_api_token_for_an_unknown_player_without_create_fails():
    with pytest.raises(CommandError, match="no user 'ghost'"):
        call_command("api_token", "ghost")


def test_seed_demo_is_safe_to_run_twice():
    call_command("seed_demo", stdout=StringIO())
    call_command("seed_demo", stdout=StringIO())
    assert Table.objects.filter(name="Survivor $1").count() == 1
    # One demo sit-and-go open for registration, however often it runs.
    assert Tournament.objects.filter(name="Survivor sit-and-go").count() == 1


def test_the_clock_sleeps_until_the_next_deadline_but_polls_at_least_every_200_ms(
    survivor_table, seated
):
    from cardroom.clock.clock import POLL_SECONDS, ClockThread

    clock = ClockThread()
    Table.objects.update(deadline=timezone.now() + timedelta(seconds=0.1))
    assert 0.05 <= clock.pause() <= 0.11
    Table.objects.update(deadline=timezone.now() - timedelta(seconds=5))
    assert clock.pause() == 0.05
    Table.objects.update(deadline=None)
    assert clock.pause() == POLL_SECONDS
