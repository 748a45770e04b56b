"""House rules of classic Guts as table options and presets (rules/guts-classic.md, seed 001).

Options are named as on the rules page; a preset is a set of option values, and options not
named by a preset take the basic game's defaults. Options this module adds, where the page
describes a preset in words: ``losers_pay`` (``pot``, or ``winner`` for Winner Takes All),
``low_wild`` (0, 1 or 2: "One / Two low In and wild"), ``two_plus_one`` (Two Plus One) with
its ``second_declare``. Money in cents, rates in basis points.

>>> config = classic_config("three_card", {"ante": 100})
>>> config.cards, config.declare, config.pot_limit, config.hand_kind
(3, 'sequential', 10000, 'three_card')
>>> classic_config("two_card", {"ante": 100, "pass_left": True})
Traceback (most recent call last):
...
games.engine.ConfigError: pass_left needs three cards (cards=3)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from typing import Any

from games.engine import ConfigError

__all__ = ["CLASSIC_PRESETS", "ClassicConfig", "classic_config"]

#: The one-deal presets of rules/guts-classic.md and the options each one sets.
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
}

_CHOICES: dict[str, tuple[Any, ...]] = {
    "cards": (2, 3),
    "declare": ("sequential", "simultaneous"),
    "payers": ("all_losers", "worst_losers"),
    "payment_multiple": (1, 2),
    "ante_when": ("pot_empty", "every_deal"),
    "all_out": ("carry", "chicken_fee", "wimp", "henry"),
    "ghost": ("none", "always", "single_in"),
    "single_in_needs": ("nothing", "pair"),
    "losers_pay": ("pot", "winner"),
    "low_wild": (0, 1, 2),
}
_FLAGS = (
    "winner_takes_pot",
    "pass_left",
    "no_peek",
    "partial_reveal",
    "community_card",
    "hi_lo",
    "dealer_challenge",
    "two_plus_one",
    "second_declare",
    "two_card_straights_flushes",
    "royal_crumpler",
    "trips_over_straight_flush",
    "flush_over_straight",
    "three_card_straights_flushes",
)
_TWO_CARD_RANKING = ("two_card_straights_flushes", "royal_crumpler")
_THREE_CARD_RANKING = (
    "trips_over_straight_flush",
    "flush_over_straight",
    "three_card_straights_flushes",
)
_SECONDS = ("decision_seconds", "showdown_seconds")


@dataclass(frozen=True, slots=True)
class ClassicConfig:
    """One classic Guts table: the house rules (rules/guts-classic.md, "Options").

    ``pot_limit`` ``None`` means no limit (and no reserve). The rake (the page is silent on
    it) is the cardroom's usual fee on each pot won, as at the online tables.
    """

    preset: str
    ante: int
    pot_limit: int | None
    min_buy_in: int
    max_buy_in: int | None = None
    cards: int = 2
    declare: str = "sequential"
    payers: str = "all_losers"
    payment_multiple: int = 1
    winner_takes_pot: bool = True
    ante_when: str = "pot_empty"
    all_out: str = "carry"
    ghost: str = "none"
    single_in_needs: str = "nothing"
    pass_left: bool = False
    no_peek: bool = False
    partial_reveal: bool = False
    community_card: bool = False
    hi_lo: bool = False
    dealer_challenge: bool = False
    losers_pay: str = "pot"
    low_wild: int = 0
    two_plus_one: bool = False
    second_declare: bool = False
    two_card_straights_flushes: bool = False
    royal_crumpler: bool = False
    trips_over_straight_flush: bool = False
    flush_over_straight: bool = False
    three_card_straights_flushes: bool = True
    seats: int = 7
    decision_seconds: float = 15.0
    showdown_seconds: float = 3.0
    rake_basis_points: int = 300
    rake_cap: int = 300

    @property
    def hand_kind(self) -> str:
        """The evaluator kind of a shown hand: two cards, or three (three dealt, two and the
        Batey, or Two Plus One's two and one)."""
        three = self.cards == 3 or self.community_card or self.two_plus_one
        return "three_card" if three else "two_card"

    @property
    def ranking(self) -> tuple[tuple[str, object], ...]:
        """The ranking options passed to the evaluator, as a hashable tuple."""
        names = _THREE_CARD_RANKING if self.hand_kind == "three_card" else _TWO_CARD_RANKING
        return tuple((name, getattr(self, name)) for name in names)

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON (``classic_config(preset, options)`` reads them back)."""
        return asdict(self)


_OPTION_NAMES = tuple(
    sorted(field.name for field in fields(ClassicConfig) if field.name != "preset")
)


def _check_values(values: dict[str, Any]) -> None:
    for name, valid in _CHOICES.items():
        value = values.get(name, valid[0])
        if value not in valid or isinstance(value, bool) != isinstance(valid[0], bool):
            shown = ", ".join(str(choice) for choice in valid)
            raise ConfigError(f"{name} must be one of {shown}, not {value!r}")
    for name in _FLAGS:
        if name in values and not isinstance(values[name], bool):
            raise ConfigError(f"{name} must be true or false, not {values[name]!r}")
    for name in _SECONDS:
        value = values.get(name, 0)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 3600:
            raise ConfigError(f"{name} must be a number of seconds from 0 to 3600, not {value!r}")
        if name in values:
            values[name] = float(value)
    for name in ("ante", "min_buy_in", "max_buy_in", "pot_limit", "rake_basis_points", "rake_cap"):
        value = values.get(name)
        least = 0 if name.startswith("rake") else 1
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or value < least
        ):
            raise ConfigError(f"{name} must be a whole number of at least {least}, not {value!r}")


def _check_combinations(config: ClassicConfig) -> None:
    two_card_hand = config.hand_kind == "two_card"
    if config.pass_left and config.cards != 3:
        raise ConfigError("pass_left needs three cards (cards=3)")
    if config.dealer_challenge and config.declare != "sequential":
        raise ConfigError("dealer_challenge needs declare=sequential")
    for name in _TWO_CARD_RANKING if not two_card_hand else _THREE_CARD_RANKING:
        default = name == "three_card_straights_flushes"
        if getattr(config, name) != default:
            size = "two" if name in _TWO_CARD_RANKING else "three"
            raise ConfigError(f"{name} applies to {size}-card hands only")
    if config.low_wild and (config.cards != 3 or config.community_card or config.partial_reveal):
        raise ConfigError("low_wild needs cards=3 without community_card or partial_reveal")
    if config.second_declare and not config.two_plus_one:
        raise ConfigError("second_declare is an option of two_plus_one")
    if config.two_plus_one and (
        config.cards != 3 - 1
        or config.ghost != "none"
        or config.single_in_needs != "nothing"
        or config.all_out in ("wimp", "henry")
        or config.hi_lo
        or config.community_card
        or config.partial_reveal
        or config.no_peek
    ):
        raise ConfigError(
            "two_plus_one deals two cards then one: it takes no ghost, single_in_needs,"
            " wimp or henry rule, hi_lo, community_card, partial_reveal or no_peek"
        )
    if config.pass_left and config.no_peek:
        raise ConfigError("pass_left needs players to see their cards (not no_peek)")
    if config.hi_lo and config.low_wild:
        raise ConfigError("hi_lo and low_wild don't combine (low_wild puts players In)")
    if config.hi_lo and config.payers != "all_losers":
        raise ConfigError("hi_lo settles with payers=all_losers")
    if config.max_buy_in is not None and config.max_buy_in < config.min_buy_in:
        raise ConfigError(f"max_buy_in must be at least min_buy_in ({config.min_buy_in})")
    if not 2 <= config.seats <= 10:
        raise ConfigError(f"seats must be from 2 to 10, not {config.seats}")
    if config.rake_basis_points > 10_000:
        raise ConfigError("rake_basis_points must be from 0 to 10000 (0 % to 100 %)")


def classic_config(preset: str, options: Mapping[str, Any] | None = None) -> ClassicConfig:
    """Build and validate a classic table's config from a preset and options.

    ``ante`` is required; ``pot_limit`` defaults to 100 times the ante (``None``: no limit),
    ``min_buy_in`` to 100 times the ante.
    """
    if preset not in CLASSIC_PRESETS:
        valid = ", ".join(CLASSIC_PRESETS)
        raise ConfigError(f"unknown preset {preset!r}; valid presets: {valid}")
    given = dict(options or {})
    given.pop("preset", None)
    for name in given:
        if name not in _OPTION_NAMES:
            raise ConfigError(f"unknown option {name!r}; valid options: {', '.join(_OPTION_NAMES)}")
    values: dict[str, Any] = {**CLASSIC_PRESETS[preset], **given}
    if "ante" not in values:
        raise ConfigError("ante is required: the stake in cents, such as 100 for $1")
    _check_values(values)
    ante = values["ante"]
    values.setdefault("pot_limit", 100 * ante)
    values.setdefault("min_buy_in", 100 * ante)
    if values["pot_limit"] is not None and values["pot_limit"] < ante:
        raise ConfigError(f"pot_limit must be at least the ante ({ante}) or none")
    seats = values.get("seats", 7)
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise ConfigError(f"seats must be a whole number from 2 to 10, not {seats!r}")
    config = ClassicConfig(preset=preset, **values)
    _check_combinations(config)
    return config
