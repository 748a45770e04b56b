"""Online Guts table settings and presets (docs/rules/guts-online.md, "Table settings")."""

from __future__ import annotations

import re

import pytest

from games.engine import ConfigError
from games.guts import make_config
from games.guts.config import match_cap_for


@pytest.mark.parametrize(
    ("ante", "cap"),
    [(10, 200), (25, 500), (50, 1_000), (100, 2_000), (200, 4_000), (500, 10_000)],
)
def test_seed_000_caps_the_match_at_twenty_antes(ante: int, cap: int) -> None:
    assert match_cap_for(ante, "seed_000") == cap
    assert make_config("survivor", {"ante": ante}).match_cap == cap


@pytest.mark.parametrize(("ante", "cap"), [(10, 500), (25, 1_000), (50, 1_500), (200, 5_000)])
def test_seed_004_caps_the_match_by_its_own_table(ante: int, cap: int) -> None:
    options = {"ante": ante, "match_cap_family": "seed_004"}
    assert make_config("monte_carlo", options).match_cap == cap


def test_seed_004_has_no_cap_for_other_antes_unless_one_is_given() -> None:
    with pytest.raises(ConfigError, match="its antes: 10, 25, 50, 200"):
        make_config("monte_carlo", {"ante": 100, "match_cap_family": "seed_004"})
    config = make_config(
        "monte_carlo", {"ante": 100, "match_cap_family": "seed_004", "match_cap": 3_000}
    )
    assert config.match_cap == 3_000


def test_presets_fix_who_pays_and_defaults_follow_the_rules_page() -> None:
    monte_carlo = make_config("monte_carlo", {"ante": 100})
    survivor = make_config("survivor", {"ante": 100})
    assert (monte_carlo.payer, survivor.payer) == ("all_losers", "lowest_loser")
    assert (survivor.min_buy_in, survivor.max_buy_in, survivor.seats) == (10_000, None, 7)
    assert (survivor.decision_seconds, survivor.ante_seconds, survivor.top_up_seconds) == (
        15.0,
        10.0,
        5.0,
    )
    assert (survivor.rake_basis_points, survivor.rake_cap, survivor.round_end) == (
        300,
        300,
        "no_losers",
    )
    assert survivor.showdown_seconds == 3.0


@pytest.mark.parametrize(
    ("preset", "options", "message"),
    [
        ("poker", {"ante": 1}, "valid presets: monte_carlo, survivor"),
        ("survivor", {}, "ante is required"),
        ("survivor", {"ante": 0}, "ante must be a whole number of at least 1"),
        ("survivor", {"ante": 1.5}, "ante must be a whole number"),
        ("survivor", {"ante": 100, "rake_percent": 3}, "unknown option 'rake_percent'"),
        ("survivor", {"ante": 100, "payer": "all_losers"}, "preset survivor has payer=lowest"),
        ("survivor", {"ante": 100, "round_end": "never"}, "one of no_losers, single_in"),
        ("survivor", {"ante": 100, "match_cap_family": "x"}, "seed_000, seed_004"),
        ("survivor", {"ante": 100, "seats": 11}, "seats must be from 2 to 10"),
        ("survivor", {"ante": 100, "seats": 1}, "seats must be a whole number of at least 2"),
        ("survivor", {"ante": 100, "max_buy_in": 500}, "max_buy_in ($5.00) must be at least"),
        ("survivor", {"ante": 100, "decision_seconds": -1}, "decision_seconds must be"),
        ("survivor", {"ante": 100, "rake_basis_points": 10_001}, "0 to 10000"),
    ],
)
def test_a_bad_config_names_what_is_valid(
    preset: str, options: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=re.escape(message)):
        make_config(preset, options)


def test_a_config_reads_back_from_its_json() -> None:
    config = make_config("survivor", {"ante": 25, "match_cap_family": "seed_004", "seats": 6})
    data = config.to_json()
    assert make_config(data.pop("preset"), data) == config


def test_a_config_built_once_is_reused_and_a_lookalike_value_is_still_checked() -> None:
    """Configs are kept by preset and options, each value with its type: True equals 1 and
    hashes like it, yet is no ante."""
    from games.guts.config import online_config

    first = online_config("survivor", {"ante": 100, "decision_seconds": 4})
    assert online_config("survivor", {"decision_seconds": 4, "ante": 100}) is first
    assert online_config("survivor", {"ante": 100, "decision_seconds": 4.0}) == first
    online_config("survivor", {"ante": 1})
    with pytest.raises(ConfigError, match="whole number"):
        online_config("survivor", {"ante": True})
    with pytest.raises(ConfigError, match="whole number"):
        online_config("survivor", {"ante": [100]})  # unhashable: checked, not kept


# The seeds' rooms seat nobody with less than 100 antes (seed 000: "The minimum a player can
# sit down at the table for all Guts games is 100 times the ante"; seed 004 the same); only a
# custom table may ask less, and says so as a house rule (issue 32, item 5).


@pytest.mark.parametrize("preset", ["monte_carlo", "survivor"])
def test_the_seed_presets_ask_at_least_100_antes_to_sit_down(preset: str) -> None:
    assert make_config(preset, {"ante": 25}).min_buy_in == 2_500
    assert make_config(preset, {"ante": 25, "min_buy_in": 2_500}).min_buy_in == 2_500
    assert make_config(preset, {"ante": 25, "min_buy_in": 4_000}).min_buy_in == 4_000
    for too_low in (25, 2_499):
        with pytest.raises(ConfigError) as refused:
            make_config(preset, {"ante": 25, "min_buy_in": too_low})
        assert str(refused.value) == (
            f"min_buy_in must be at least 100 antes ($25.00) at {preset} tables, as the rooms"
            " that deal them ask; only a custom table may ask less"
        )


def test_a_custom_table_may_ask_less_and_chooses_who_pays() -> None:
    config = make_config("custom", {"ante": 25, "min_buy_in": 25, "payer": "lowest_loser"})
    assert (config.preset, config.min_buy_in, config.payer) == ("custom", 25, "lowest_loser")
    plain = make_config("custom", {"ante": 25})
    assert (plain.payer, plain.min_buy_in) == ("all_losers", 2_500)
    with pytest.raises(ConfigError, match=re.escape("min_buy_in must cover the ante ($0.25)")):
        make_config("custom", {"ante": 25, "min_buy_in": 24})
