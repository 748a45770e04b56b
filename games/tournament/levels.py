"""A tournament's levels: the stake (Guts' ante, Chinese Poker's unit) and how long it lasts.

Levels are JSON: ``[{"ante": chips, "minutes": n}, ...]``. Level 0 starts with the
tournament; each lasts its minutes; the last never ends. The stake never goes down.

>>> validate_levels([{"ante": 10, "minutes": 5}, {"ante": 20, "minutes": 5}])
[{'ante': 10, 'minutes': 5}, {'ante': 20, 'minutes': 5}]
>>> [level["ante"] for level in default_levels(1500, 10)]
[10, 15, 25, 40, 60, 100, 150, 250, 400]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine import ConfigError, IllegalAction
from games.words import words

__all__ = ["DEFAULT_MINUTES", "MAX_LEVELS", "MAX_MINUTES", "default_levels", "validate_levels"]

#: How long each default level lasts.
DEFAULT_MINUTES = 5
#: The most levels a tournament may have, and the longest a level may last.
MAX_LEVELS = 50
MAX_MINUTES = 24 * 60
#: The stakes a default ladder rounds up to, as the rooms' ladders read: 1 to 8, then these
#: times a power of ten.
_SMALL = (1, 2, 3, 4, 5, 6, 8)
_MANTISSAS = (10, 12, 15, 20, 25, 30, 40, 50, 60, 80)


def _whole(value: Any, least: int) -> bool:
    return not isinstance(value, bool) and isinstance(value, int) and value >= least


def validate_levels(levels: Any) -> list[dict[str, int]]:
    """``levels`` checked and copied: a list of 1 to 50 levels, each exactly an ``ante`` of
    at least 1 chip, no lower than the level before, and its ``minutes``, from 1 to 1440;
    raises :class:`~games.engine.ConfigError` saying what is wrong.

    >>> validate_levels([{"ante": 20, "minutes": 5}, {"ante": 10, "minutes": 5}])
    Traceback (most recent call last):
    ...
    games.engine.ConfigError: level 2's ante (10) is lower than level 1's (20): antes only rise
    """
    if not isinstance(levels, list) or not levels:
        raise ConfigError(
            words("the levels are a list of levels, each with an ante and its minutes")
        )
    if len(levels) > MAX_LEVELS:
        raise ConfigError(
            words("a tournament has at most {most} levels, not {count}", most=MAX_LEVELS,
                  count=len(levels))
        )  # fmt: skip
    checked: list[dict[str, int]] = []
    for number, level in enumerate(levels, start=1):
        if not isinstance(level, dict) or set(level) != {"ante", "minutes"}:
            raise ConfigError(
                words("level {number} must have exactly an ante and its minutes", number=number)
            )
        ante, minutes = level["ante"], level["minutes"]
        if not _whole(ante, 1):
            raise ConfigError(
                words(
                    "level {number}'s ante must be a whole number of chips, at least 1, not"
                    " {value}",
                    number=number,
                    value=repr(ante),
                )
            )
        if not _whole(minutes, 1) or minutes > MAX_MINUTES:
            raise ConfigError(
                words(
                    "level {number}'s minutes must be a whole number from 1 to {most}, not {value}",
                    number=number,
                    most=MAX_MINUTES,
                    value=repr(minutes),
                )
            )
        if checked and ante < checked[-1]["ante"]:
            raise ConfigError(
                words(
                    "level {number}'s ante ({ante}) is lower than level {before}'s ({previous}):"
                    " antes only rise",
                    number=number,
                    ante=ante,
                    before=number - 1,
                    previous=checked[-1]["ante"],
                )
            )
        checked.append({"ante": ante, "minutes": minutes})
    return checked


def _round_up(value: int) -> int:
    """The smallest ladder stake at least ``value``.

    >>> [_round_up(n) for n in (1, 7, 9, 11, 16, 26, 41, 61, 101, 2_600)]
    [1, 8, 10, 12, 20, 30, 50, 80, 120, 3000]
    """
    for small in _SMALL:
        if small >= value:
            return small
    power = 1
    while True:
        for mantissa in _MANTISSAS:
            if mantissa * power >= value:
                return mantissa * power
        power *= 10


def default_levels(
    chips: int, first: int, *, minutes: int = DEFAULT_MINUTES
) -> list[dict[str, int]]:
    """The ladder a tournament plays when its template names none: from ``first``, each
    level's stake about half as much again as the one before, rounded up to a stake the
    rooms' ladders use (1 to 8, then 10, 12, 15, 20, 25, 30, 40, 50, 60, 80 times a power of
    ten), every level lasting ``minutes``, up to the first stake of at least a fifth of the
    starting ``chips``: there a stack of the start lasts five antes, so the last level
    (which never ends) brings a finish soon.

    >>> default_levels(100, 5, minutes=3)
    [{'ante': 5, 'minutes': 3}, {'ante': 8, 'minutes': 3}, {'ante': 12, 'minutes': 3}, \
{'ante': 20, 'minutes': 3}]
    >>> default_levels(100, 40)
    [{'ante': 40, 'minutes': 5}]
    """
    if not _whole(chips, 1) or not _whole(first, 1):
        raise ConfigError(words("the starting chips and the first ante are whole numbers above 0"))
    if first > chips:
        raise ConfigError(
            words("the first ante ({ante}) is more than the starting chips ({chips})",
                  ante=first, chips=chips)
        )  # fmt: skip
    antes = [first]
    while antes[-1] * 5 < chips and len(antes) < MAX_LEVELS:
        antes.append(max(_round_up(antes[-1] * 3 // 2), antes[-1] + 1))
    return validate_levels([{"ante": ante, "minutes": minutes} for ante in antes])


def level_action_stake(action: Mapping[str, Any]) -> int:
    """The ``stake`` of a ``level`` action (the runtime's, at a tournament's table): whole
    chips, at least 1; IllegalAction in words otherwise. Every game takes it the same way."""
    stake = action.get("stake")
    if isinstance(stake, bool) or not isinstance(stake, int) or stake < 1:
        raise IllegalAction(
            words("'stake' must be a whole number of chips of at least 1, not {value}",
                  value=repr(stake))
        )  # fmt: skip
    return stake
