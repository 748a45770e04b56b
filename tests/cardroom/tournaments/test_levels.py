"""Levels on the durable clock: raised at their deadline in one transaction with the table's
action, resumed after a crash from the rows alone."""

from __future__ import annotations

from datetime import timedelta

import pytest

from cardroom.models import HandEvent, Tournament
from cardroom.tournaments.levels import levels_sweep
from cardroom.tournaments.registration import register

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(make_tournament, make_player):
    tournament = make_tournament(seats=2)
    for name in ("ann", "ben"):
        register(tournament_id=tournament.pk, user=make_player(name))
    tournament.refresh_from_db()
    return tournament


def _stake(table):
    table.refresh_from_db()
    return table.state["config"]["ante"], table.state.get("next_stake")


def test_nothing_rises_before_the_deadline(running):
    deadline = running.level_deadline
    assert levels_sweep(now=deadline - timedelta(seconds=1)) == 0
    running.refresh_from_db()
    assert (running.level, running.level_deadline) == (0, deadline)
    assert not HandEvent.objects.filter(type="level_raised").exists()


def test_a_level_rises_at_its_deadline_with_the_tables_action(running):
    deadline = running.level_deadline
    at = deadline + timedelta(milliseconds=200)
    assert levels_sweep(now=at) == 1
    running.refresh_from_db()
    assert running.level == 1
    assert running.level_deadline == at + timedelta(minutes=1)
    event = HandEvent.objects.get(type="level_raised")
    assert event.data["stake"] == 40
    assert 40 in _stake(running.table)
    # The same sweep again raises nothing more.
    assert levels_sweep(now=at) == 0


def test_a_crash_resumes_the_level_and_its_deadline_from_the_rows(running):
    """A process raised level 1 and died; a new process's first sweep reads only the rows:
    level 1 and its deadline stand, and the next level comes at that deadline, not before."""
    levels_sweep(now=running.level_deadline + timedelta(milliseconds=1))
    running.refresh_from_db()
    level, deadline = running.level, running.level_deadline
    # A new process: nothing in memory, the tournament read again.
    fresh = Tournament.objects.get(pk=running.pk)
    assert (fresh.level, fresh.level_deadline) == (level, deadline) == (1, deadline)
    assert levels_sweep(now=deadline - timedelta(seconds=1)) == 0
    # Down past the deadline: the first sweep after the restart raises the level due.
    assert levels_sweep(now=deadline + timedelta(minutes=5)) == 1
    fresh.refresh_from_db()
    assert fresh.level == 2
    assert fresh.level_deadline == deadline + timedelta(minutes=6)
    assert list(
        HandEvent.objects.filter(type="level_raised").values_list("data__stake", flat=True)
    ) == [40, 100]


def test_the_last_level_never_ends(running):
    now = running.level_deadline
    for _ in range(5):
        levels_sweep(now=now + timedelta(milliseconds=1))
        running.refresh_from_db()
        if running.level_deadline is None:
            break
        now = running.level_deadline
    assert running.level == 3  # the fourth and last level
    assert running.level_deadline is None
    assert levels_sweep(now=now + timedelta(days=1)) == 0


def test_a_level_another_clock_raised_first_is_not_raised_twice(running, monkeypatch):
    """Two clocks read the same due level: the second's table action is undone with its
    update, so the table gets one level_raised, not two."""
    from cardroom.tournaments import levels

    real = levels.table_apply

    def raced(**kwargs):
        # The other clock commits its raise between this one's read and its update.
        Tournament.objects.filter(pk=running.pk).update(level=1)
        return real(**kwargs)

    monkeypatch.setattr(levels, "table_apply", raced)
    version = running.table.version
    assert (
        levels.raise_level(
            tournament_id=running.pk, now=running.level_deadline + timedelta(seconds=1)
        )
        is False
    )
    running.table.refresh_from_db()
    assert running.table.version == version  # our action was undone
    assert not HandEvent.objects.filter(type="level_raised").exists()
