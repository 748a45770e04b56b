"""The names people read for presets and stakes families (never the identifiers in code).

The seeds name their games the way the rooms did ("Monte Carlo", "3-5-7", "Hi-Lo"); a preset
missing here falls back to its identifier in words, so a new preset still reads acceptably.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, pgettext_lazy

__all__ = [
    "FAMILY_NAMES",
    "MONEY_PRESETS",
    "OPTION_VALUE_NAMES",
    "PRESET_NAMES",
    "family_name",
    "option_value_name",
    "preset_name",
    "table_preset_name",
]

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

#: The Guts match-cap families (games/guts/config.py): the rooms whose ladders they are
#: (seed 000 is English Harbour Poker's rules, seed 004 ActionPoker.com's) and their caps
#: (docs/rules/guts-online.md, "Presets"). The rooms' names stay as they are.
FAMILY_NAMES: dict[str, str | Promise] = {
    "seed_000": gettext_lazy("English Harbour ladder (cap of 20 antes)"),
    "seed_004": gettext_lazy("ActionPoker ladder (fixed caps)"),
}

#: The values of the options an operator chooses from a list, in words (docs/table-options.md
#: says what each does; the rules pages name them so). A value missing here shows in words
#: made from its identifier.
OPTION_VALUE_NAMES: dict[str, dict[Any, str | Promise]] = {
    # Guts online.
    "payer": {
        "all_losers": gettext_lazy("Every loser pays (Monte Carlo)"),
        "lowest_loser": gettext_lazy("Lowest loser pays (Survivor)"),
    },
    "round_end": {
        "no_losers": gettext_lazy("When a hand leaves nobody owing"),
        "single_in": gettext_lazy("Only when one player alone is In"),
    },
    "match_cap_family": FAMILY_NAMES,
    # Chinese Poker.
    "timeout": {
        "auto_arrange": gettext_lazy("The cardroom sets the hand"),
        "surrender": gettext_lazy("The hand is surrendered"),
    },
    # Classic Guts.
    "cards": {2: gettext_lazy("Two cards"), 3: gettext_lazy("Three cards")},
    "declare": {
        "sequential": gettext_lazy("In turn, from the dealer's left"),
        "simultaneous": gettext_lazy("All at once"),
    },
    "payers": {
        "all_losers": gettext_lazy("Every loser pays"),
        "worst_losers": gettext_lazy("Only the worst hand In pays"),
    },
    "payment_multiple": {1: gettext_lazy("The pot"), 2: gettext_lazy("Double the pot")},
    "ante_when": {
        "pot_empty": gettext_lazy("When the pot is empty"),
        "every_deal": gettext_lazy("Every deal, but for who paid on the last"),
    },
    "all_out": {
        "carry": gettext_lazy("The pot stays"),
        "chicken_fee": gettext_lazy("Everyone antes again"),
        "wimp": gettext_lazy("The best hand antes for everyone (the wimp rule)"),
        "henry": gettext_lazy("The best hand matches the pot (the Henry rule)"),
    },
    "ghost": {
        "none": gettext_lazy("No ghost hand"),
        "always": gettext_lazy("Always"),
        "single_in": gettext_lazy("When one player alone is In"),
    },
    "single_in_needs": {
        "nothing": gettext_lazy("Nothing"),
        "pair": gettext_lazy("A pair or better"),
    },
    "losers_pay": {
        "pot": gettext_lazy("The pot"),
        "winner": gettext_lazy("The winner (Winner Takes All)"),
    },
    "low_wild": {
        0: gettext_lazy("No wild card"),
        1: gettext_lazy("The lowest face-up card"),
        2: gettext_lazy("The two lowest face-up cards"),
    },
}


def preset_name(preset: str) -> str:
    """``three_five_seven`` → "3-5-7"; an unknown one in words."""
    name = PRESET_NAMES.get(preset)
    if name:
        return str(name)
    return preset.replace("_", " ").replace("-", " ").capitalize()


#: Presets whose names are a stake in money ("$1 a unit"): at a tournament's table, which plays
#: for chips at the stake of its level, the name is not said (:func:`table_preset_name`).
MONEY_PRESETS = frozenset(name for name in PRESET_NAMES if name.startswith("unit-"))


def table_preset_name(preset: str, *, plays_for_chips: bool) -> str:
    """A table's preset as its pages name it: :func:`preset_name`, or "" at a tournament's
    table for a preset named by a stake in money, which is not its stake there."""
    if not preset or (plays_for_chips and preset in MONEY_PRESETS):
        return ""
    return preset_name(preset)


def option_value_name(option: str, value: Any) -> str:
    """``("payer", "lowest_loser")`` → "Lowest loser pays (Survivor)"; an unknown one in words."""
    name = OPTION_VALUE_NAMES.get(option, {}).get(value)
    if name:
        return str(name)
    return str(value).replace("_", " ").capitalize()


def family_name(family: str) -> str:
    """``seed_000`` → "English Harbour ladder (cap of 20 antes)"."""
    name = FAMILY_NAMES.get(family)
    if name:
        return str(name)
    return family.replace("_", " ").capitalize()
