"""Table settings: defaults from the unit, validation, the seed's presets."""

from __future__ import annotations

import pytest

from games.chinese_poker.config import PRESETS, ChinesePokerConfig, make_config
from games.engine import ConfigError


def test_presets_follow_the_seeds_ladder() -> None:
    table = {name: (c.unit, c.min_buy_in, c.hand_fee) for name, c in PRESETS.items()}
    assert table == {
        "unit-25c": (25, 500, 5),
        "unit-50c": (50, 1_000, 10),
        "unit-1": (100, 2_000, 20),
        "unit-2": (200, 4_000, 40),
        "unit-5": (500, 10_000, 100),
        "unit-10": (1_000, 20_000, 200),
    }
    assert {c.seats for c in PRESETS.values()} == {4}
    assert {(c.set_seconds, c.timeout) for c in PRESETS.values()} == {(90, "auto_arrange")}


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"seats": 1}, "seats must be a whole number from 2 to 4; got 1"),
        ({"unit": 0}, "unit must be a whole number of at least 1; got 0"),
        ({"hand_fee": 101}, "hand_fee must be a whole number from 0 to 100; got 101"),
        ({"timeout": "fold"}, "timeout must be one of auto_arrange, surrender; got 'fold'"),
        ({"min_buy_in": 1_999}, r"min_buy_in must be a whole number of at least 2000 \(20 units\)"),
    ],
)
def test_bad_settings_name_the_valid_values(settings: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        ChinesePokerConfig(**settings)  # type: ignore[arg-type]


def test_make_config_changes_a_preset() -> None:
    config = make_config("unit-50c", {"seats": 3, "timeout": "surrender"})
    assert (config.unit, config.seats, config.timeout, config.hand_fee) == (50, 3, "surrender", 10)
    assert make_config("unit-1", {"unit": 25}).hand_fee == 5
    with pytest.raises(ConfigError, match="unknown setting 'ante'"):
        make_config("unit-1", {"ante": 5})
