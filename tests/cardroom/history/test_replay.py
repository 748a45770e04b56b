"""Replaying a table's journal gives its recorded hands and state (docs/architecture.md)."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from cardroom.history.journal_audit import table_replay
from cardroom.models import Hand, Table, TableAction
from cardroom.tables.control import hand_void
from cardroom.tables.runtime import table_act
from tests.cardroom.driving import declare_all, play_to_declare, run_clock

pytestmark = pytest.mark.django_db


def test_a_played_hand_replays_to_its_result_and_state(survivor_table, seated):
    play_to_declare(survivor_table, seated)
    declare_all(survivor_table, seated)
    run_clock(survivor_table)  # the next hand's antes and matches
    survivor_table.refresh_from_db()
    result = table_replay(table=survivor_table)
    assert (result.ok, result.hands, result.problem) == (True, 1, "")
    assert result.actions == TableAction.objects.filter(table=survivor_table).count()
    deals = TableAction.objects.filter(table=survivor_table, action__kind="deal")
    assert [len(entry.action["deck"]) for entry in deals] == [52]


def test_a_void_and_a_timeout_replay_too(survivor_table, seated):
    run_clock(survivor_table)
    table_act(table_id=survivor_table.pk, user=seated[0], action={"kind": "ante"})
    hand_void(table_id=survivor_table.pk, reason="test")
    play_to_declare(survivor_table, seated)
    survivor_table.refresh_from_db()
    run_clock(survivor_table)  # nobody declared: everyone is mucked
    survivor_table.refresh_from_db()
    assert table_replay(table=survivor_table).ok
    assert Hand.objects.filter(table=survivor_table).exclude(void_reason="").count() == 1


def test_a_tampered_record_is_found(survivor_table, seated):
    play_to_declare(survivor_table, seated)
    declare_all(survivor_table, seated)
    hand = Hand.objects.get(table=survivor_table, number=1)
    original = hand.result
    hand.result = {**original, "rake": 0}
    hand.save()
    result = table_replay(table=survivor_table)
    assert not result.ok
    assert "results differ" in result.problem
    survivor_table.refresh_from_db()
    state = survivor_table.state
    Table.objects.filter(pk=survivor_table.pk).update(state={**state, "pot": 1})
    with pytest.raises(CommandError, match="do not replay"):
        call_command("replay_tables", str(survivor_table.pk), stdout=StringIO())
    # Put the records back, so the suite's own replay check after each test passes.
    Hand.objects.filter(pk=hand.pk).update(result=original)
    Table.objects.filter(pk=survivor_table.pk).update(state=state)


def test_the_command_reports_every_table(survivor_table, seated):
    out = StringIO()
    call_command("replay_tables", stdout=out)
    assert f"table {survivor_table.pk}: " in out.getvalue()
    assert out.getvalue().strip().endswith("OK")
