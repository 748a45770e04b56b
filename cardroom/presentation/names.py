"""The names people read for presets and stakes families (never the identifiers in code).

The seeds name their games the way the rooms did ("Monte Carlo", "3-5-7", "Hi-Lo"); a preset
missing here falls back to its identifier in words, so a new preset still reads acceptably.
"""

from __future__ import annotations

__all__ = ["FAMILY_NAMES", "PRESET_NAMES", "family_name", "preset_name"]

PRESET_NAMES: dict[str, str] = {
    # Guts as online rooms deal it.
    "monte_carlo": "Monte Carlo",
    "survivor": "Survivor",
    # Classic Guts and its house rules.
    "two_card": "Two-card",
    "three_card": "Three-card",
    "simultaneous": "Simultaneous declare",
    "single_loser": "Single loser pays",
    "kitty": "Kitty",
    "ghost_when_alone": "Ghost hand",
    "royal_crumpler": "Royal Crumpler",
    "no_peek": "No peek",
    "winner_takes_all": "Winner takes all",
    "batey": "Batey",
    "hi_lo": "Hi-Lo",
    "one_low_wild": "Low card wild",
    "two_low_wild": "Two low cards wild",
    "two_plus_one": "2+1",
    "four_two_two": "4-2-2",
    "four_two_three": "4-2-3",
    "three_five_seven": "3-5-7",
    "nuts": "Nuts",
    "napalm": "Napalm",
    "toh": "Toh",
    # Chinese Poker's unit ladder.
    "unit-25c": "$0.25 a unit",
    "unit-50c": "$0.50 a unit",
    "unit-1": "$1 a unit",
    "unit-2": "$2 a unit",
    "unit-5": "$5 a unit",
    "unit-10": "$10 a unit",
    # Three Card Poker's limits.
    "standard": "Standard limits",
    "low": "Low limits",
    "high": "High limits",
    "solo": "Solo",
}

#: The Guts match-cap families (games/guts/config.py): where each cap comes from.
FAMILY_NAMES: dict[str, str] = {
    "seed_000": "Cap of 20 antes",
    "seed_004": "Fixed caps",
}


def preset_name(preset: str) -> str:
    """``three_five_seven`` → "3-5-7"; an unknown one in words."""
    return PRESET_NAMES.get(preset) or preset.replace("_", " ").replace("-", " ").capitalize()


def family_name(family: str) -> str:
    """``seed_000`` → "Cap of 20 antes"."""
    return FAMILY_NAMES.get(family) or family.replace("_", " ").capitalize()
