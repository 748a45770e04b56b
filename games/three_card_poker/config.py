"""A Three Card Poker table's settings and pay tables (docs/rules/three-card-poker.md, "Table").

Money is whole cents. The two pay tables are tuples of "to one" payouts, in the order of the
rules page: the Ante bonus pays (straight, three of a kind, straight flush), the Pair Plus bet
pays (pair, flush, straight, three of a kind, straight flush). The defaults are the seed's.

>>> TableConfig().pay_tables
PayTables(ante_bonus=(1, 4, 5), pair_plus=(1, 4, 6, 30, 40))
>>> preset("standard").min_ante, preset("standard").max_ante
(100, 10000)
>>> PayTables(pair_plus=(1, 4, 6, 30))
Traceback (most recent call last):
...
games.engine.ConfigError: pair_plus needs 5 whole payouts of 0 or more (pair, flush, straight, \
three of a kind, straight flush), such as 1,4,6,30,40; got (1, 4, 6, 30)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from games.engine import ConfigError
from games.time_bank import check_time_bank
from games.words import words

__all__ = [
    "ANTE_BONUS",
    "ANTE_BONUS_HANDS",
    "DEFAULT_TIME_BANK",
    "MAX_SEATS",
    "PAIR_PLUS",
    "PAIR_PLUS_HANDS",
    "PRESETS",
    "PayTables",
    "TableConfig",
    "config_from_json",
    "make_config",
    "preset",
]

#: The seed's Ante bonus table: straight 1:1, three of a kind 4:1, straight flush 5:1.
ANTE_BONUS: tuple[int, int, int] = (1, 4, 5)
#: The seed's Pair Plus table: pair 1, flush 4, straight 6, three of a kind 30, straight flush 40.
PAIR_PLUS: tuple[int, int, int, int, int] = (1, 4, 6, 30, 40)
#: The hand categories each table pays, in table order (evaluator category names).
ANTE_BONUS_HANDS = ("straight", "three_of_a_kind", "straight_flush")
PAIR_PLUS_HANDS = ("pair", "flush", "straight", "three_of_a_kind", "straight_flush")
MAX_SEATS = 6


def _payouts(name: str, value: Any, hands: tuple[str, ...], example: str) -> tuple[int, ...]:
    ok = (
        isinstance(value, (tuple, list))
        and len(value) == len(hands)
        and all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in value)
    )
    if not ok:
        raise ConfigError(
            words(
                "{option} needs {count} whole payouts of 0 or more ({hands}), such as {example};"
                " got {value}",
                option=name,
                count=len(hands),
                hands=", ".join(hand.replace("_", " ") for hand in hands),
                example=example,
                value=repr(value),
            )
        )
    return tuple(value)


@dataclass(frozen=True, slots=True)
class PayTables:
    """The Ante bonus and Pair Plus pay tables: "to one" payouts, validated on creation."""

    ante_bonus: tuple[int, ...] = ANTE_BONUS
    pair_plus: tuple[int, ...] = PAIR_PLUS

    def __post_init__(self) -> None:
        bonus = _payouts("ante_bonus", self.ante_bonus, ANTE_BONUS_HANDS, "1,4,5")
        pair_plus = _payouts("pair_plus", self.pair_plus, PAIR_PLUS_HANDS, "1,4,6,30,40")
        object.__setattr__(self, "ante_bonus", bonus)
        object.__setattr__(self, "pair_plus", pair_plus)

    def ante_bonus_for(self, category: str) -> int:
        """The Ante bonus "to one" for a hand category (0 when the table pays nothing).

        >>> PayTables().ante_bonus_for("three_of_a_kind"), PayTables().ante_bonus_for("pair")
        (4, 0)
        """
        if category in ANTE_BONUS_HANDS:
            return self.ante_bonus[ANTE_BONUS_HANDS.index(category)]
        return 0

    def pair_plus_for(self, category: str) -> int | None:
        """The Pair Plus "to one" for a hand category; ``None`` when the bet loses (high card).

        >>> PayTables().pair_plus_for("flush"), PayTables().pair_plus_for("high_card")
        (4, None)
        """
        if category in PAIR_PLUS_HANDS:
            return self.pair_plus[PAIR_PLUS_HANDS.index(category)]
        return None


def _whole(
    name: str, value: Any, low: int, high: int | None = None, low_is: str | None = None
) -> None:
    wrong = isinstance(value, bool) or not isinstance(value, int)
    if wrong or value < low or (high is not None and value > high):
        if high is not None:
            raise ConfigError(
                words(
                    "{option} must be a whole number from {low} to {high}; got {value}",
                    option=name,
                    low=low,
                    high=high,
                    value=repr(value),
                )
            )
        if low_is is not None:
            raise ConfigError(
                words(
                    # Translators: {setting} names the setting whose value {low} is (min_ante)
                    "{option} must be a whole number of at least {low} ({setting}); got {value}",
                    option=name,
                    low=low,
                    setting=low_is,
                    value=repr(value),
                )
            )
        raise ConfigError(
            words(
                "{option} must be a whole number of at least {low}; got {value}",
                option=name,
                low=low,
                value=repr(value),
            )
        )


@dataclass(frozen=True, slots=True)
class TableConfig:
    """One table's settings (docs/rules/three-card-poker.md, "Table"), validated on creation.

    ``max_pair_plus`` 0 means the table offers no Pair Plus bet. Timers are whole seconds.
    ``time_bank`` is each player's reserve once the Play or Fold time runs out (seconds, 0:
    none; games/time_bank.py), full again every hand (``time_bank_refill``: ``hand`` only).

    >>> TableConfig(min_ante=500, max_ante=100)
    Traceback (most recent call last):
    ...
    games.engine.ConfigError: max_ante must be a whole number of at least 500 (min_ante); got 100
    """

    min_ante: int = 100
    max_ante: int = 10_000
    max_pair_plus: int = 10_000
    seats: int = MAX_SEATS
    bet_seconds: int = 15
    decision_seconds: int = 15
    time_bank: float = 0.0
    time_bank_refill: str = "hand"
    pay_tables: PayTables = field(default_factory=PayTables)

    def __post_init__(self) -> None:
        _whole("min_ante", self.min_ante, 1)
        _whole("max_ante", self.max_ante, self.min_ante, low_is="min_ante")
        _whole("max_pair_plus", self.max_pair_plus, 0)
        _whole("seats", self.seats, 1, MAX_SEATS)
        _whole("bet_seconds", self.bet_seconds, 1, 3600)
        _whole("decision_seconds", self.decision_seconds, 1, 3600)
        seconds, _refill = check_time_bank(self.time_bank, self.time_bank_refill, rounds=False)
        object.__setattr__(self, "time_bank", seconds)
        if not isinstance(self.pay_tables, PayTables):
            raise ConfigError(words("pay_tables must be a PayTables"))

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON (pay tables as lists)."""
        data: dict[str, Any] = {f.name: getattr(self, f.name) for f in fields(self)}
        del data["pay_tables"]
        data["ante_bonus"] = list(self.pay_tables.ante_bonus)
        data["pair_plus"] = list(self.pay_tables.pair_plus)
        return data


def config_from_json(data: Mapping[str, Any]) -> TableConfig:
    """A :class:`TableConfig` from JSON settings; ``preset`` names a starting point.

    >>> config_from_json({"preset": "low", "pair_plus": [1, 3, 6, 30, 40]}).pay_tables.pair_plus
    (1, 3, 6, 30, 40)
    >>> config_from_json({"ante": 5})
    Traceback (most recent call last):
    ...
    games.engine.ConfigError: unknown setting 'ante'; settings: preset, min_ante, max_ante, \
max_pair_plus, seats, bet_seconds, decision_seconds, time_bank, time_bank_refill, ante_bonus, \
pair_plus
    """
    names = ["preset", *(f.name for f in fields(TableConfig) if f.name != "pay_tables")]
    names += ["ante_bonus", "pair_plus"]
    for key in data:
        if key not in names:
            raise ConfigError(
                words(
                    "unknown setting {key}; settings: {settings}",
                    key=repr(key),
                    settings=", ".join(names),
                )
            )
    base = preset(data["preset"]) if "preset" in data else TableConfig()
    tables = PayTables(
        ante_bonus=tuple(data.get("ante_bonus", base.pay_tables.ante_bonus)),
        pair_plus=tuple(data.get("pair_plus", base.pay_tables.pair_plus)),
    )
    settings = {f.name: data.get(f.name, getattr(base, f.name)) for f in fields(TableConfig)}
    settings["pay_tables"] = tables
    return TableConfig(**settings)


#: Each player's time bank at the presets' tables (seconds).
DEFAULT_TIME_BANK = 30.0

#: Named starting points for operators: limits in cents, the seed's pay tables, a time bank.
PRESETS: dict[str, TableConfig] = {
    "standard": TableConfig(time_bank=DEFAULT_TIME_BANK),
    "low": TableConfig(
        min_ante=10, max_ante=1_000, max_pair_plus=1_000, time_bank=DEFAULT_TIME_BANK
    ),
    "high": TableConfig(
        min_ante=1_000, max_ante=100_000, max_pair_plus=25_000, time_bank=DEFAULT_TIME_BANK
    ),
    "solo": TableConfig(seats=1, time_bank=DEFAULT_TIME_BANK),
}


def preset(name: str) -> TableConfig:
    """The preset called ``name``; :class:`ConfigError` names the presets otherwise."""
    if name not in PRESETS:
        raise ConfigError(
            words(
                "unknown preset {preset}; presets: {presets}",
                preset=repr(name),
                presets=", ".join(PRESETS),
            )
        )
    return PRESETS[name]


def _payout_list(value: Any) -> Any:
    """Pay tables typed on a command line ("1,4,6,30,40") as a list; anything else as given,
    for :class:`PayTables` to check."""
    if not isinstance(value, str):
        return value
    try:
        return [int(part) for part in value.split(",")]
    except ValueError:
        return value


def make_config(name: str, options: Mapping[str, Any] | None = None) -> TableConfig:
    """A preset's settings with some changed (``options``: setting names to values); for the
    table runtime. Pay tables may be lists or comma-separated text.

    >>> make_config("standard", {"min_ante": 500, "max_ante": 50_000}).min_ante
    500
    >>> make_config("low", {"pair_plus": "1,3,6,30,40"}).pay_tables.pair_plus
    (1, 3, 6, 30, 40)
    >>> make_config("standard", {"ante": 100})
    Traceback (most recent call last):
    ...
    games.engine.ConfigError: unknown option 'ante'; valid options: min_ante, max_ante, \
max_pair_plus, seats, bet_seconds, decision_seconds, time_bank, time_bank_refill, ante_bonus, \
pair_plus
    """
    base = preset(name)
    known = [f.name for f in fields(TableConfig) if f.name != "pay_tables"]
    known += ["ante_bonus", "pair_plus"]
    changed = dict(options or {})
    for key in changed:
        if key not in known:
            raise ConfigError(
                words(
                    "unknown option {option}; valid options: {options}",
                    option=repr(key),
                    options=", ".join(known),
                )
            )
    for key in ("ante_bonus", "pair_plus"):
        if key in changed:
            changed[key] = _payout_list(changed[key])
    return config_from_json({"preset": name, **changed}) if changed else base
