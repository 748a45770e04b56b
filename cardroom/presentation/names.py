"""The names people read for presets and stakes families (never the identifiers in code).

The seeds name their games the way the rooms did ("Monte Carlo", "3-5-7", "Hi-Lo"); a preset
missing here falls back to its identifier in words, so a new preset still reads acceptably.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, pgettext_lazy

__all__ = ["FAMILY_NAMES", "PRESET_NAMES", "family_name", "preset_name"]

#: Names that are the games' own (Monte Carlo, Kitty, 3-5-7...) stay as they are in every
#: language (the glossary); the others are translated when shown.
PRESET_NAMES: dict[str, str | Promise] = {
    # Guts as online rooms deal it.
    "monte_carlo": "Monte Carlo",
    "survivor": "Survivor",
    # Translators: an online Guts table whose rules the operator set (no room's preset).
    "custom": pgettext_lazy("guts preset", "Custom"),
    # Classic Guts and its house rules.
    "two_card": gettext_lazy("Two-card"),
    "three_card": gettext_lazy("Three-card"),
    "simultaneous": gettext_lazy("Simultaneous declare"),
    "single_loser": gettext_lazy("Single loser pays"),
    "kitty": "Kitty",
    "ghost_when_alone": gettext_lazy("Ghost hand"),
    "royal_crumpler": "Royal Crumpler",
    "no_peek": gettext_lazy("No peek"),
    "winner_takes_all": gettext_lazy("Winner takes all"),
    "batey": "Batey",
    "hi_lo": "Hi-Lo",
    "one_low_wild": gettext_lazy("Low card wild"),
    "two_low_wild": gettext_lazy("Two low cards wild"),
    "two_plus_one": "2+1",
    "four_two_two": "4-2-2",
    "four_two_three": "4-2-3",
    "three_five_seven": "3-5-7",
    "nuts": "Nuts",
    "napalm": "Napalm",
    "toh": "Toh",
    # Chinese Poker's unit ladder.
    # Translators: Chinese Poker's stakes: each unit won or lost is worth this much (the
    # currency stays the dollar).
    "unit-25c": gettext_lazy("$0.25 a unit"),
    "unit-50c": gettext_lazy("$0.50 a unit"),
    "unit-1": gettext_lazy("$1 a unit"),
    "unit-2": gettext_lazy("$2 a unit"),
    "unit-5": gettext_lazy("$5 a unit"),
    "unit-10": gettext_lazy("$10 a unit"),
    # Three Card Poker's limits.
    "standard": gettext_lazy("Standard limits"),
    "low": gettext_lazy("Low limits"),
    "high": gettext_lazy("High limits"),
    "solo": pgettext_lazy("three card poker limits", "Solo"),
}

#: The Guts match-cap families (games/guts/config.py): where each cap comes from.
FAMILY_NAMES: dict[str, str | Promise] = {
    "seed_000": gettext_lazy("Cap of 20 antes"),
    "seed_004": gettext_lazy("Fixed caps"),
}


def preset_name(preset: str) -> str:
    """``three_five_seven`` → "3-5-7"; an unknown one in words."""
    name = PRESET_NAMES.get(preset)
    if name:
        return str(name)
    return preset.replace("_", " ").replace("-", " ").capitalize()


def family_name(family: str) -> str:
    """``seed_000`` → "Cap of 20 antes"."""
    name = FAMILY_NAMES.get(family)
    if name:
        return str(name)
    return family.replace("_", " ").capitalize()
