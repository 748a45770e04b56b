"""The time bank through the clock: a timeout starts a player's bank, a later one applies the
usual timeout; a restart in the middle of a bank finds it as it was (games/time_bank.py)."""

from __future__ import annotations

from datetime import datetime, timedelta
from io import StringIO

import pytest
from django.core.management import call_command

from cardroom.clock.clock import clock_sweep
from cardroom.models import HandEvent, Table, TableAction
from cardroom.operators.forms import TableCreateForm
from cardroom.presentation import describe_table
from cardroom.tables.engines import engine_for
from cardroom.tables.runtime import moment_of, table_act, table_create
from cardroom.tables.selectors import table_state

pytestmark = pytest.mark.django_db


def sweep_at_deadline(table: Table) -> None:
    """The clock's sweep just after the table's deadline: exactly that table's timeout."""
    table.refresh_from_db()
    assert table.deadline is not None
    assert clock_sweep(now=table.deadline + timedelta(milliseconds=5)) == 1
    table.refresh_from_db()


@pytest.fixture
def classic(db, make_player):
    """Classic Guts declared in turn: a 5-second turn and a 10-second time bank."""
    table = table_create(
        game="classic_guts",
        preset="two_card",
        options={"ante": 100, "seats": 3, "decision_seconds": 5, "time_bank": 10},
        name="In turn",
    )
    players = [make_player(name) for name in ("ann", "ben")]
    for player in players:
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    for _ in range(4):
        table.refresh_from_db()
        if table.state["phase"] == "declare":
            return table, players
        sweep_at_deadline(table)
    raise AssertionError(f"no declare: {table.state['phase']}")


def test_the_clock_starts_the_bank_and_a_later_timeout_is_out(classic):
    table, players = classic
    turn = table.state["turn"]
    deadline = table.deadline
    sweep_at_deadline(table)
    started = HandEvent.objects.filter(table=table, type="time_bank")
    assert [event.data for event in started] == [
        {"type": "time_bank", "seat": turn, "seconds": 10.0}
    ]
    assert not HandEvent.objects.filter(table=table, type="declared").exists()
    assert table.state["turn"] == turn
    assert table.deadline == deadline + timedelta(seconds=10)
    assert table.state["banks"]["since"][turn] == deadline.timestamp()
    view = table_state(table=table, user_id=players[turn].pk)
    seat = view["table"]["seats"][turn]
    assert (seat["on_time_bank"], seat["time_bank"]) == (True, 10.0)
    context = describe_table(view)
    assert context["time_bank"] is True
    shown = next(entry for entry in context["seats"] if entry["seat"] == turn)
    assert shown["time_bank_text"] == "time bank 10 s"
    # The one on the bank counts down to their own bank's end.
    ring_end = datetime.fromisoformat(context["deadline"])
    assert abs(ring_end - (deadline + timedelta(seconds=10))) < timedelta(milliseconds=1)
    sweep_at_deadline(table)
    declared = HandEvent.objects.filter(table=table, type="declared").first()
    assert declared is not None
    assert (declared.data["seat"], declared.data["choice"], declared.data["timed_out"]) == (
        turn,
        "out",
        True,
    )
    assert table.state["banks"]["left"][turn] == 0.0
    assert HandEvent.objects.filter(table=table, type="time_bank").count() == 1


def test_a_declare_during_the_bank_keeps_the_rest_of_it(classic):
    table, players = classic
    turn = table.state["turn"]
    deadline = table.deadline
    sweep_at_deadline(table)
    table_act(
        table_id=table.pk,
        user=players[turn],
        action={"kind": "declare", "choice": "in"},
        now=deadline + timedelta(seconds=4),
    )
    table.refresh_from_db()
    assert table.state["banks"]["left"][turn] == pytest.approx(6.0)
    assert table.state["banks"]["since"][turn] is None


def test_a_restart_in_the_middle_of_a_bank_loses_nothing_and_doubles_nothing(classic):
    table, _players = classic
    turn = table.state["turn"]
    sweep_at_deadline(table)
    # The process stops here: a new one reads the stored row, and nothing else.
    stored = Table.objects.get(pk=table.pk)
    game = engine_for(stored.game).game
    state = game.load(stored.state)
    assert game.dump(state) == stored.state
    assert moment_of(game.deadline(state)) == stored.deadline
    # A sweep before the bank's end finds nothing due: the bank is not started again.
    assert clock_sweep(now=stored.deadline - timedelta(seconds=1)) == 0
    sweep_at_deadline(stored)
    assert HandEvent.objects.filter(table=table, type="time_bank").count() == 1
    assert HandEvent.objects.filter(table=table, type="declared", data__seat=turn).count() == 1
    timeouts = TableAction.objects.filter(table=table, action__kind="timeout").count()
    assert timeouts >= 2
    out = StringIO()
    call_command("replay_tables", str(table.pk), stdout=out)
    assert out.getvalue().strip().endswith("OK")


def test_three_card_poker_players_deciding_at_once_have_a_bank_each(db, make_player):
    table = table_create(
        game="three_card_poker",
        preset="standard",
        options={"decision_seconds": 5, "time_bank": 8},
        name="Banks",
    )
    players = [make_player(name) for name in ("ann", "ben")]
    for player in players:
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 10_000})
    for player in players:
        table_act(table_id=table.pk, user=player, action={"kind": "bet", "ante": 100})
    table.refresh_from_db()
    assert table.state["phase"] == "deciding"
    deadline = table.deadline
    sweep_at_deadline(table)
    assert HandEvent.objects.filter(table=table, type="time_bank").count() == 2
    assert table.deadline == deadline + timedelta(seconds=8)
    table_act(
        table_id=table.pk,
        user=players[0],
        action={"kind": "play"},
        now=deadline + timedelta(seconds=3),
    )
    table.refresh_from_db()
    assert table.state["banks"]["left"][0] == pytest.approx(5.0)
    assert table.deadline == deadline + timedelta(seconds=8)  # Ben's bank runs on
    sweep_at_deadline(table)
    folded = HandEvent.objects.get(table=table, type="folded")
    assert (folded.data["seat"], folded.data["timed_out"]) == (1, True)
    assert table.state["phase"] != "deciding"
    out = StringIO()
    call_command("replay_tables", str(table.pk), stdout=out)
    assert out.getvalue().strip().endswith("OK")


def test_operators_set_the_time_bank_from_the_command_line_and_the_console(db):
    out = StringIO()
    call_command(
        "create_table", "--game", "classic_guts", "--preset", "two_card", "--ante", "100",
        "--time-bank", "20", "--time-bank-refill", "round", "--name", "Banked", stdout=out,
    )  # fmt: skip
    table = Table.objects.get(pk=int(out.getvalue()))
    config = table.state["config"]
    assert (config["time_bank"], config["time_bank_refill"]) == (20.0, "round")
    assert table.state["banks"]["left"] == [20.0, 20.0, 20.0, 20.0, 20.0, 20.0, 20.0]
    form = TableCreateForm(
        {"name": "CP", "time_bank": "45", "time_bank_refill": "round", "bots": 0, "reason": "r"},
        game="chinese_poker",
        preset="unit-1",
    )
    assert [value for value, _ in form.fields["time_bank_refill"].choices[1:]] == ["hand", "round"]
    assert not form.is_valid()
    assert "no rounds" in str(form.errors["time_bank_refill"])
    form = TableCreateForm(
        {"name": "CP", "time_bank": "45", "bots": 0, "reason": "r"},
        game="chinese_poker",
        preset="unit-1",
    )
    assert form.is_valid(), form.errors
    assert form.config.time_bank == 45.0
