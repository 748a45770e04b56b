"""A Chinese Poker table's settings (docs/rules/chinese-poker.md, "Table").

Money is whole cents. ``unit`` is the value of one point; the minimum buy-in defaults to 20
units and the hand fee to one fifth of a unit, as in the seed's table. ``timeout`` is what
happens to a player who has not submitted when the setting time runs out: ``auto_arrange``
(the best-arrangement solver sets the hand) or ``surrender``. ``pause_seconds`` is the short
pause between hands, so players can sit, leave or top up. ``time_bank`` is each player's reserve
of seconds once the setting time runs out (0: none; games/time_bank.py), full again every hand
(``time_bank_refill``: ``hand``, the only choice: the game has no rounds).

>>> config = ChinesePokerConfig(unit=100)
>>> config.min_buy_in, config.hand_fee, config.seats, config.set_seconds, config.timeout
(2000, 20, 4, 90, 'auto_arrange')
>>> preset("unit-25c").hand_fee, preset("unit-10").min_buy_in
(5, 20000)
>>> ChinesePokerConfig(unit=100, seats=5)
Traceback (most recent call last):
...
games.engine.ConfigError: seats must be a whole number from 2 to 4; got 5
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.config_json import config_json
from games.engine import ConfigError
from games.time_bank import check_time_bank
from games.words import words

__all__ = [
    "DEFAULT_TIME_BANK",
    "MIN_BUY_IN_UNITS",
    "PRESETS",
    "TIMEOUT_POLICIES",
    "ChinesePokerConfig",
    "config_from_json",
    "make_config",
    "preset",
    "raised_config",
]

#: The minimum buy-in, in units (docs/rules/chinese-poker.md, "Table").
MIN_BUY_IN_UNITS = 20
#: What a timeout does to a hand that was not submitted.
TIMEOUT_POLICIES = ("auto_arrange", "surrender")
#: The seed's unit ladder, in cents.
_LADDER = {"unit-25c": 25, "unit-50c": 50, "unit-1": 100, "unit-2": 200, "unit-5": 500}
_LADDER["unit-10"] = 1000


def _whole(
    name: str, value: Any, low: int, high: int | None = None, units: int | None = None
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
        if units is not None:
            raise ConfigError(
                words(
                    # Translators: {units} is how many of the table's units the least amount is
                    "{option} must be a whole number of at least {low} ({units} units);"
                    " got {value}",
                    option=name,
                    low=low,
                    units=units,
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
class ChinesePokerConfig:
    """One table's settings, validated on creation; ``-1`` means "the rule page's default".

    ``min_buy_in`` may be raised above 20 units but not lowered: the table-stakes caps make a
    short stack a free roll, so the floor protects the other players. The fee must leave a
    minimum buy-in player something to play with.

    >>> ChinesePokerConfig(unit=100, min_buy_in=1000)
    Traceback (most recent call last):
    ...
    games.engine.ConfigError: min_buy_in must be a whole number of at least 2000 (20 units); \
got 1000
    >>> ChinesePokerConfig(unit=100, timeout="fold")
    Traceback (most recent call last):
    ...
    games.engine.ConfigError: timeout must be one of auto_arrange, surrender; got 'fold'
    """

    unit: int = 100
    min_buy_in: int = -1
    hand_fee: int = -1
    seats: int = 4
    set_seconds: int = 90
    timeout: str = "auto_arrange"
    pause_seconds: int = 5
    time_bank: float = 0.0
    time_bank_refill: str = "hand"
    #: A tournament's rule: a seat sitting out is still dealt in, its hand set at once by the
    #: ``timeout`` rule (games/chinese_poker/engine.py).
    away_deals: bool = False

    def __post_init__(self) -> None:
        _whole("unit", self.unit, 1)
        if self.min_buy_in == -1:
            object.__setattr__(self, "min_buy_in", MIN_BUY_IN_UNITS * self.unit)
        if self.hand_fee == -1:
            object.__setattr__(self, "hand_fee", self.unit // 5)
        floor = MIN_BUY_IN_UNITS * self.unit
        _whole("min_buy_in", self.min_buy_in, floor, units=MIN_BUY_IN_UNITS)
        _whole("hand_fee", self.hand_fee, 0, self.unit)
        _whole("seats", self.seats, 2, 4)
        _whole("set_seconds", self.set_seconds, 5, 3600)
        _whole("pause_seconds", self.pause_seconds, 0, 600)
        seconds, _refill = check_time_bank(self.time_bank, self.time_bank_refill, rounds=False)
        object.__setattr__(self, "time_bank", seconds)
        if not isinstance(self.away_deals, bool):
            raise ConfigError(
                words(
                    "{option} must be true or false, not {value}",
                    option="away_deals",
                    value=repr(self.away_deals),
                )
            )
        if self.timeout not in TIMEOUT_POLICIES:
            raise ConfigError(
                words(
                    "timeout must be one of {policies}; got {timeout}",
                    policies=", ".join(TIMEOUT_POLICIES),
                    timeout=repr(self.timeout),
                )
            )

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON object (the inverse of :func:`config_from_json`)."""
        return config_json(self)


#: Each player's time bank at the presets' tables (seconds).
DEFAULT_TIME_BANK = 30.0

#: The seed's tables: units of 25¢, 50¢, $1, $2, $5 and $10; with a time bank.
PRESETS: dict[str, ChinesePokerConfig] = {
    name: ChinesePokerConfig(unit=unit, time_bank=DEFAULT_TIME_BANK)
    for name, unit in _LADDER.items()
}


def preset(name: str) -> ChinesePokerConfig:
    """The preset table called ``name``.

    >>> preset("unit-2").unit
    200
    >>> preset("huge")
    Traceback (most recent call last):
    ...
    games.engine.ConfigError: no preset 'huge'; presets: unit-25c, unit-50c, unit-1, unit-2, \
unit-5, unit-10
    """
    if name not in PRESETS:
        raise ConfigError(
            words(
                "no preset {preset}; presets: {presets}",
                preset=repr(name),
                presets=", ".join(PRESETS),
            )
        )
    return PRESETS[name]


def config_from_json(data: Mapping[str, Any]) -> ChinesePokerConfig:
    """Settings from a JSON object; unknown keys are an error naming the known ones.

    >>> config_from_json({"unit": 50}).hand_fee
    10
    >>> config_from_json({"units": 50})
    Traceback (most recent call last):
    ...
    games.engine.ConfigError: unknown setting 'units'; settings: unit, min_buy_in, hand_fee, \
seats, set_seconds, timeout, pause_seconds, time_bank, time_bank_refill, away_deals
    """
    known = tuple(ChinesePokerConfig.__dataclass_fields__)
    for key in data:
        if key not in known:
            raise ConfigError(
                words(
                    "unknown setting {key}; settings: {settings}",
                    key=repr(key),
                    settings=", ".join(known),
                )
            )
    return ChinesePokerConfig(**dict(data))


def make_config(name: str, options: Mapping[str, Any] | None = None) -> ChinesePokerConfig:
    """A preset's settings with some changed (``options``: setting names to values); for
    the table runtime. The unit's defaults follow a changed unit.

    >>> make_config("unit-1", {"seats": 2, "timeout": "surrender"}).seats
    2
    >>> make_config("unit-2", {"unit": 500}).min_buy_in
    10000
    """
    base = preset(name).to_json()
    changed = dict(options or {})
    if "unit" in changed:
        base.pop("min_buy_in")
        base.pop("hand_fee")
    return config_from_json(base | changed)


def raised_config(config: ChinesePokerConfig, unit: int) -> ChinesePokerConfig:
    """``config`` at a new unit (a tournament's level, the runtime action ``level``). The hand
    fee stays (at most the new unit); the minimum buy-in rises to 20 units when it must, and
    matters only to players sitting down later.

    >>> raised = raised_config(ChinesePokerConfig(unit=10, hand_fee=0, min_buy_in=1500), 100)
    >>> raised.unit, raised.hand_fee, raised.min_buy_in
    (100, 0, 2000)
    """
    return replace(
        config,
        unit=unit,
        hand_fee=min(config.hand_fee, unit),
        min_buy_in=max(config.min_buy_in, MIN_BUY_IN_UNITS * unit),
    )
