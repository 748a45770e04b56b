"""The load script runs, bounded, and reports what it measured."""

from __future__ import annotations

import pytest

from tests.load.load import main, percentiles

pytestmark = pytest.mark.django_db(transaction=True)


def test_percentiles_are_in_milliseconds():
    assert percentiles([0.001, 0.002, 0.003]) == {
        "count": 3, "p50_ms": 2.0, "p95_ms": 3.0, "max_ms": 3.0,
    }  # fmt: skip


def test_a_short_load_run_plays_hands_and_times_the_clock(capsys):
    result = main(["--tables", "1", "--players", "3", "--hands", "3", "--seconds", "40"])
    assert result["hands_per_table"] >= 3
    assert result["round_trip"]["count"] > 0
    assert result["timeout_delay"]["count"] >= 1
