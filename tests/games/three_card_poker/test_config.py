"""Table settings, pay tables and presets (docs/rules/three-card-poker.md, "Table")."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import ConfigError
from games.three_card_poker.config import (
    PRESETS,
    PayTables,
    TableConfig,
    config_from_json,
    preset,
)


def test_defaults_are_the_seeds_tables_and_timers() -> None:
    config = TableConfig()
    assert config.pay_tables == PayTables(ante_bonus=(1, 4, 5), pair_plus=(1, 4, 6, 30, 40))
    assert (config.seats, config.bet_seconds, config.decision_seconds) == (6, 15, 15)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"min_ante": 0}, "min_ante must be a whole number of at least 1; got 0"),
        ({"min_ante": 1.5}, "min_ante must be a whole number of at least 1; got 1.5"),
        ({"min_ante": 500, "max_ante": 100}, "max_ante must be .* at least 500 \\(min_ante\\)"),
        ({"max_pair_plus": -1}, "max_pair_plus must be a whole number of at least 0"),
        ({"seats": 7}, "seats must be a whole number from 1 to 6; got 7"),
        ({"seats": 0}, "seats must be a whole number from 1 to 6; got 0"),
        ({"bet_seconds": 0}, "bet_seconds must be a whole number from 1 to 3600"),
        ({"decision_seconds": True}, "decision_seconds must be a whole number"),
    ],
)
def test_bad_settings_name_the_valid_values(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        TableConfig(**settings)


@pytest.mark.parametrize(
    ("tables", "message"),
    [
        ({"ante_bonus": (1, 4)}, "ante_bonus needs 3 whole payouts .* such as 1,4,5"),
        ({"ante_bonus": (1, 4, -5)}, "ante_bonus needs 3 whole payouts of 0 or more"),
        ({"pair_plus": (1, 4, 6, 30, 40.5)}, "pair_plus needs 5 whole payouts"),
        ({"pair_plus": "1,4,6,30,40"}, "pair_plus needs 5 whole payouts"),
    ],
)
def test_bad_pay_tables_name_the_valid_shape(tables: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        PayTables(**tables)


def test_zero_payouts_are_allowed() -> None:
    assert PayTables(ante_bonus=(0, 0, 0)).ante_bonus_for("straight") == 0


def test_presets_are_valid_and_unknown_ones_are_named() -> None:
    assert list(PRESETS) == ["standard", "low", "high", "solo"]
    assert preset("solo").seats == 1
    with pytest.raises(ConfigError, match="presets: standard, low, high, solo"):
        preset("vip")


def test_config_json_round_trips() -> None:
    config = TableConfig(min_ante=25, pay_tables=PayTables(pair_plus=(1, 3, 6, 30, 40)))
    assert config_from_json(config.to_json()) == config
    assert config_from_json({"preset": "high"}) == PRESETS["high"]
