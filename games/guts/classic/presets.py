"""The named tables of classic Guts: the one-deal presets and the option values each sets,
and the flows and stages of the games with several deals or stages (docs/rules/guts-classic.md).

:mod:`games.guts.classic.config` checks every table's options against these.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["CLASSIC_PRESETS", "FLOWS", "STAGES", "Stage"]

#: The one-deal presets of docs/rules/guts-classic.md and the options each one sets.
CLASSIC_PRESETS: dict[str, dict[str, Any]] = {
    "two_card": {},
    "three_card": {"cards": 3},
    "simultaneous": {"declare": "simultaneous", "all_out": "carry"},
    "single_loser": {"payers": "worst_losers", "ante_when": "every_deal"},
    "kitty": {"ghost": "always", "all_out": "chicken_fee"},
    "ghost_when_alone": {"ghost": "single_in"},
    "royal_crumpler": {"royal_crumpler": True},
    "no_peek": {"no_peek": True, "declare": "simultaneous"},
    "winner_takes_all": {"ghost": "always", "all_out": "chicken_fee", "losers_pay": "winner"},
    "batey": {"community_card": True},
    "hi_lo": {"hi_lo": True, "ghost": "always"},
    "one_low_wild": {"cards": 3, "low_wild": 1},
    "two_low_wild": {"cards": 3, "low_wild": 2},
    "two_plus_one": {"two_plus_one": True},
    "four_two_two": {"flow": "four_two", "cards": 4, "declare": "simultaneous"},
    "four_two_three": {
        "flow": "four_two",
        "cards": 4,
        "declare": "simultaneous",
        "community_after_declare": 3,
    },
    "three_five_seven": {
        "flow": "legs",
        "cards": 3,
        "declare": "simultaneous",
        "ante_when": "every_deal",
        "private_compare": True,
        "to_win": 3,
    },
    "nuts": {
        "flow": "nuts",
        "cards": 2,
        "declare": "simultaneous",
        "ante_when": "every_deal",
        "to_win": 3,
    },
    "napalm": {
        "flow": "napalm",
        "cards": 2,
        "dealer_challenge": True,
        "ante_when": "every_deal",
        "private_compare": True,
        "to_win": 5,
    },
    "toh": {"flow": "toh", "cards": 1, "dealer_challenge": True},
}

#: The flows of the games with several deals or stages: the cards each player is dealt first,
#: the most players the deck serves, and the options the flow fixes (docs/rules/guts-classic.md).
FLOWS: dict[str, tuple[int, int, dict[str, Any]]] = {
    "four_two": (4, 8, {"declare": "simultaneous"}),
    "legs": (3, 7, {"ante_when": "every_deal"}),
    "nuts": (2, 10, {"ante_when": "every_deal"}),
    "napalm": (
        2,
        7,
        {"ante_when": "every_deal", "declare": "sequential", "dealer_challenge": True},
    ),
    "toh": (1, 10, {"ante_when": "pot_empty", "declare": "sequential", "dealer_challenge": True}),
}


@dataclass(frozen=True, slots=True)
class Stage:
    """One stage of a game in stages: the cards each player then holds, the evaluator kind and
    its wild ranks, and the direction (``low``: the lowest hand wins, by the kind's ranking)."""

    cards: int
    kind: str
    wild: str = ""
    low: bool = False


#: The stages of each game in stages, in order (docs/rules/guts-classic.md). Toh plays
#: one stage per deal, over and over while the deck lasts.
STAGES: dict[str, tuple[Stage, ...]] = {
    "legs": (
        Stage(3, "three_five_seven_stage_one", "3"),
        Stage(5, "five_card", "5"),
        Stage(7, "best_five", "7"),
    ),
    "nuts": (
        Stage(2, "low_nuts", low=True),
        Stage(3, "three_card"),
        Stage(4, "low_nuts", low=True),
        Stage(5, "five_card"),
    ),
    "napalm": (Stage(2, "two_card"), Stage(5, "low_napalm", low=True), Stage(7, "best_five")),
    "toh": (Stage(1, "one_card"),),
}
