"""House bots: they fill seats, wait a human-like pause, and act from their own view."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from cardroom.clock.bots import THINK_RANGE, bot_decision, bots_sweep, think_seconds
from cardroom.models import Seat
from cardroom.tables.runtime import table_create, table_timeout

pytestmark = pytest.mark.django_db


@pytest.fixture
def bot_table(db):
    return table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 4}, name="Bots", bots=2
    )


def test_bots_fill_their_seats_and_leave_one_free_for_people(bot_table):
    bots_sweep()
    bots = Seat.objects.filter(table=bot_table, left__isnull=True, user__is_bot=True)
    assert bots.count() == 2
    bot_table.refresh_from_db()
    assert bot_table.state["phase"] == "pause"


def test_bots_wait_their_pause_then_ante(bot_table):
    bots_sweep()
    bot_table.refresh_from_db()
    table_timeout(table_id=bot_table.pk, now=bot_table.deadline + timedelta(milliseconds=5))
    bot_table.refresh_from_db()
    assert bot_table.state["phase"] == "ante"
    assert bots_sweep(now=timezone.now()) == 0  # still thinking
    later = timezone.now() + timedelta(seconds=THINK_RANGE[1] + 1)
    assert bots_sweep(now=later) >= 1
    call_command("audit_ledger")


def test_think_time_is_stable_and_within_range():
    first = think_seconds(1, 5, 2)
    assert first == think_seconds(1, 5, 2)
    assert THINK_RANGE[0] <= first <= THINK_RANGE[1]


def state_with(cards: list[str], variant: str) -> dict:
    you = {
        "seat": 0,
        "cards": cards,
        "legal_actions": [{"kind": "declare", "choices": ["in", "out"]}],
    }
    return {"table": {"variant": variant, "you": you}}


@pytest.mark.parametrize(
    ("cards", "variant", "choice"),
    [
        (["2c", "2d", "7h"], "monte_carlo", "in"),
        (["As", "Kd", "7h"], "monte_carlo", "out"),
        (["As", "Kd", "7h"], "survivor", "in"),
        (["Qs", "Jd", "7h"], "survivor", "out"),
    ],
)
def test_the_guts_bot_plays_a_threshold(cards, variant, choice):
    assert bot_decision("guts", state_with(cards, variant)) == {"kind": "declare", "choice": choice}
