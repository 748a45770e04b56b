"""The runtime's in-process benchmark (tests/load/held.py) plays its tables to the end through
the held batches, builds every version's frames, and gives the server's hook back."""

from __future__ import annotations

import pytest

from cardroom.models import Table, TableAction
from cardroom.tables import announce
from tests.load import held

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_plays_every_table_to_its_hands_and_measures_both_sides():
    before = announce.plugged()
    result = held.play(tables=2, hands=2, seconds=60)
    assert result["tables"] == 2 and result["hands"] >= 4
    # Every version announced became a frame for each of its table's five players.
    assert result["versions"] >= result["hands"] * 5  # five antes a hand at least
    assert result["frames"] == result["versions"] * held.PLAYERS
    assert result["batches"] >= result["versions"]
    for key in ("held_ms_per_hand", "frames_ms_per_hand", "layer_ms_per_hand"):
        assert result[key] > 0
    assert announce.plugged() is before
    # The journal holds every version the batches applied, and the tables dealt their hands.
    assert TableAction.objects.count() >= result["versions"]
    assert all(table.state["hand"] >= 2 for table in Table.objects.all())


def test_the_lazy_player_lets_every_other_declare_time_out():
    view = {"you": {"legal_actions": [{"kind": "declare"}], "cards": ["2c", "7d", "9h"]}}
    assert held.decision(view, seat=0, hand=0) is None
    assert held.decision(view, seat=0, hand=1) == {"kind": "declare", "choice": "out"}
    assert held.decision(view, seat=1, hand=0) == {"kind": "declare", "choice": "out"}
    view["you"]["cards"] = ["2c", "2d", "9h"]
    assert held.decision(view, seat=1, hand=0) == {"kind": "declare", "choice": "in"}
    assert held.decision({"you": {"legal_actions": [{"kind": "ante"}]}}, 0, 0) == {"kind": "ante"}
    assert held.decision({"you": None}, 0, 0) is None


def test_its_bounds_are_checked():
    with pytest.raises(SystemExit):
        held.main(["--tables", "0"])
    with pytest.raises(SystemExit):
        held.main(["--hands", "5000"])
