"""Classic Guts table options and presets (docs/rules/guts-classic.md, "Options" and "Presets")."""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import ConfigError
from games.guts import PRESETS, make_config
from games.guts.classic.config import CLASSIC_PRESETS, ClassicConfig


@pytest.mark.parametrize(
    ("preset", "expected"),
    [
        ("two_card", {"cards": 2, "declare": "sequential", "ghost": "none"}),
        ("three_card", {"cards": 3, "hand_kind": "three_card"}),
        ("simultaneous", {"declare": "simultaneous", "all_out": "carry"}),
        ("single_loser", {"payers": "worst_losers", "ante_when": "every_deal"}),
        ("kitty", {"ghost": "always", "all_out": "chicken_fee"}),
        ("ghost_when_alone", {"ghost": "single_in"}),
        ("royal_crumpler", {"royal_crumpler": True, "hand_kind": "two_card"}),
        ("no_peek", {"no_peek": True, "declare": "simultaneous"}),
        ("winner_takes_all", {"ghost": "always", "losers_pay": "winner"}),
        ("batey", {"community_card": True, "hand_kind": "three_card"}),
        ("hi_lo", {"hi_lo": True, "ghost": "always"}),
        ("one_low_wild", {"cards": 3, "low_wild": 1}),
        ("two_low_wild", {"cards": 3, "low_wild": 2}),
        ("two_plus_one", {"two_plus_one": True, "cards": 2, "hand_kind": "three_card"}),
    ],
)
def test_each_preset_sets_its_options(preset: str, expected: dict[str, Any]) -> None:
    config = make_config(preset, {"ante": 100})
    assert isinstance(config, ClassicConfig)
    assert {name: getattr(config, name) for name in expected} == expected


def test_every_preset_is_offered_and_the_basic_defaults_follow_the_page() -> None:
    assert ("monte_carlo", "survivor", "custom", *CLASSIC_PRESETS) == PRESETS
    config = make_config("two_card", {"ante": 50})
    assert isinstance(config, ClassicConfig)
    assert (config.pot_limit, config.payment_multiple, config.winner_takes_pot) == (5_000, 1, True)
    assert (config.ante_when, config.single_in_needs, config.payers) == (
        "pot_empty",
        "nothing",
        "all_losers",
    )
    assert make_config("two_card", {"ante": 50, "pot_limit": None}).pot_limit is None  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("preset", "options", "message"),
    [
        ("two_card", {"ante": 100, "colour": 1}, "unknown option 'colour'; valid options: all_out"),
        ("two_card", {}, "ante is required"),
        ("two_card", {"ante": 100, "cards": 4}, "cards must be one of 2, 3"),
        ("two_card", {"ante": 100, "cards": True}, "cards must be one of 2, 3"),
        ("two_card", {"ante": 100, "ghost": "boo"}, "ghost must be one of none, always, single_in"),
        ("two_card", {"ante": 100, "no_peek": "yes"}, "no_peek must be true or false"),
        ("two_card", {"ante": 100, "pass_left": True}, "pass_left needs three cards"),
        ("simultaneous", {"ante": 100, "dealer_challenge": True}, "needs declare=sequential"),
        ("three_card", {"ante": 100, "royal_crumpler": True}, "royal_crumpler applies to two"),
        ("two_card", {"ante": 100, "flush_over_straight": True}, "applies to three-card"),
        ("hi_lo", {"ante": 100, "payers": "worst_losers"}, "hi_lo settles with payers=all"),
        ("two_card", {"ante": 100, "pot_limit": 50}, "pot_limit must be at least the ante"),
        ("three_card", {"ante": 100, "pass_left": True, "no_peek": True}, "not no_peek"),
        ("two_card", {"ante": 100, "seats": 12}, "seats must be from 2 to 10"),
        ("two_card", {"ante": 100, "second_declare": True}, "an option of two_plus_one"),
        ("two_plus_one", {"ante": 100, "ghost": "always"}, "two_plus_one deals two cards"),
    ],
)
def test_a_bad_classic_config_names_what_is_valid(
    preset: str, options: dict[str, Any], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        make_config(preset, options)
