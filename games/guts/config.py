"""Table settings of online Monte Carlo and Survivor Guts (docs/rules/guts-online.md).

A table's config is built from a preset and a dict of options; anything unknown or out of range
raises :class:`~games.engine.ConfigError` naming what is valid. Money is in cents, the rake rate
in basis points (300 is 3 %), times in seconds.

>>> config = online_config("survivor", {"ante": 50})
>>> config.payer, config.match_cap, config.min_buy_in, config.rake_cap
('lowest_loser', 1000, 5000, 300)
>>> online_config("monte_carlo", {"ante": 50, "match_cap_family": "seed_004"}).match_cap
1500
>>> online_config("survivor", {"ante": 50, "colour": "red"})  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
games.engine.ConfigError: unknown option 'colour'; valid options: ante, ante_seconds, ...
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from games.config_json import config_json
from games.engine import ConfigError
from games.words import Money, words

__all__ = [
    "MATCH_CAP_FAMILIES",
    "ONLINE_PRESETS",
    "PAYERS",
    "ROUND_ENDS",
    "SEED_MIN_BUY_IN_ANTES",
    "SEED_PRESETS",
    "SHORT_ANTES",
    "OnlineConfig",
    "fixed_options",
    "match_cap_for",
    "online_config",
    "raised_config",
]

#: Seed 004's room caps the match per ante (cents → cents); seed 000 caps at 20 times the ante.
_SEED_004_CAPS: dict[int, int] = {10: 500, 25: 1_000, 50: 1_500, 200: 5_000}

#: The two match-cap families an operator chooses from (docs/rules/guts-online.md, "Presets").
MATCH_CAP_FAMILIES: tuple[str, ...] = ("seed_000", "seed_004")

#: Online presets and the rule each one fixes. ``custom`` is the cardroom's own table: it fixes
#: nothing (``payer`` defaults to Monte Carlo's) and is the one that may ask a buy-in below
#: the seeds' 100 antes.
ONLINE_PRESETS: dict[str, dict[str, str]] = {
    "monte_carlo": {"payer": "all_losers"},
    "survivor": {"payer": "lowest_loser"},
    "custom": {},
}

#: The presets named after the seeds' games, whose rooms seat nobody with less than
#: ``SEED_MIN_BUY_IN_ANTES`` antes (seed 000, and seed 004 the same).
SEED_PRESETS: tuple[str, ...] = ("monte_carlo", "survivor")
SEED_MIN_BUY_IN_ANTES = 100

#: Who pays after a showdown: every loser In (Monte Carlo), or the lowest (Survivor).
PAYERS: tuple[str, ...] = ("all_losers", "lowest_loser")
#: When a round ends (docs/rules/guts-online.md, step 6).
ROUND_ENDS: tuple[str, ...] = ("no_losers", "single_in")
#: What a stack below the ante may do when asked for it: nothing (``refuse``, top up first) or
#: post all it has and play on (``all_in``, the tournaments' rule).
SHORT_ANTES: tuple[str, ...] = ("refuse", "all_in")

_CHOICES: dict[str, tuple[str, ...]] = {
    "payer": PAYERS,
    "round_end": ROUND_ENDS,
    "match_cap_family": MATCH_CAP_FAMILIES,
    "short_ante": SHORT_ANTES,
}


def fixed_options(preset: str) -> frozenset[str]:
    """The options ``preset`` fixes: ``online_config`` refuses any other value for them.

    >>> sorted(fixed_options("survivor")), sorted(fixed_options("custom"))
    (['payer'], [])
    """
    return frozenset(ONLINE_PRESETS[preset])


def match_cap_for(ante: int, family: str = "seed_000") -> int:
    """The most a loser pays into the next pot, for an ante and a match-cap family.

    Seed 000 caps at 20 times the ante. Seed 004 lists four stakes only; another ante in that
    family is an error (give ``match_cap`` explicitly instead).

    >>> match_cap_for(10), match_cap_for(500), match_cap_for(10, "seed_004")
    (200, 10000, 500)
    >>> match_cap_for(100, "seed_004")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    games.engine.ConfigError: family seed_004 has no cap for an ante of 100 cents; its antes: ...
    """
    if family == "seed_000":
        return 20 * ante
    if family == "seed_004":
        if ante not in _SEED_004_CAPS:
            antes = ", ".join(str(known) for known in _SEED_004_CAPS)
            raise ConfigError(
                words(
                    "family seed_004 has no cap for an ante of {ante} cents; its antes: {antes}"
                    " (or set match_cap)",
                    ante=ante,
                    antes=antes,
                )
            )
        return _SEED_004_CAPS[ante]
    valid = ", ".join(MATCH_CAP_FAMILIES)
    raise ConfigError(
        words("unknown match_cap_family {family}; valid: {valid}", family=repr(family), valid=valid)
    )


@dataclass(frozen=True, slots=True)
class OnlineConfig:
    """One online Guts table's settings (docs/rules/guts-online.md, "Table settings").

    ``showdown_seconds`` is the pause after a showdown, and between rounds, so players can see
    the result: the page is silent on it; online rooms pause a few seconds.

    The tournaments' options (docs/table-options.md): ``short_ante`` ``all_in`` lets a stack
    below the ante post all it has and play on; ``away_antes`` has the table post every ante
    itself, so a seat sitting out or away is still anted and dealt in (its declare Out at once)
    and nobody can wait the rising antes out by declining them.
    """

    preset: str
    ante: int
    match_cap: int
    min_buy_in: int
    max_buy_in: int | None
    payer: str
    round_end: str = "no_losers"
    match_cap_family: str = "seed_000"
    seats: int = 7
    decision_seconds: float = 15.0
    ante_seconds: float = 10.0
    top_up_seconds: float = 5.0
    reconnect_grace_seconds: float = 60.0
    showdown_seconds: float = 3.0
    rake_basis_points: int = 300
    rake_cap: int = 300
    short_ante: str = "refuse"
    away_antes: bool = False

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON object (``online_config(preset, options)`` reads it back)."""
        return config_json(self)


_OPTION_NAMES: tuple[str, ...] = tuple(
    sorted(field.name for field in fields(OnlineConfig) if field.name != "preset")
)
_MONEY = ("ante", "match_cap", "min_buy_in", "max_buy_in", "rake_basis_points", "rake_cap")
_SECONDS = (
    "decision_seconds",
    "ante_seconds",
    "top_up_seconds",
    "reconnect_grace_seconds",
    "showdown_seconds",
)


def _whole(name: str, value: Any, *, least: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise ConfigError(
            words(
                "{option} must be a whole number of at least {least}, not {value}",
                option=name,
                least=least,
                value=repr(value),
            )
        )
    return value


def _seconds(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 3600:
        raise ConfigError(
            words(
                "{option} must be a number of seconds from 0 to 3600, not {value}",
                option=name,
                value=repr(value),
            )
        )
    return float(value)


#: Configs already built, by preset and options (each value with its type: 1, 1.0 and True
#: are equal keys otherwise). A table's config is read back with every load of its state, and
#: checking it again was a third of a load's time.
_BUILT: dict[tuple[Any, ...], OnlineConfig] = {}
_BUILT_MAX = 512


def online_config(preset: str, options: Mapping[str, Any] | None = None) -> OnlineConfig:
    """Build and validate a table's config from a preset name and options.

    ``ante`` is required. ``match_cap`` defaults to the cap of ``match_cap_family`` (default
    ``seed_000``), ``min_buy_in`` to 100 times the ante, which is also its floor at the seed
    presets (a custom table may ask as little as one ante).
    """
    try:
        key = (
            preset,
            *sorted((name, type(value), value) for name, value in (options or {}).items()),
        )
        hash(key)
    except TypeError:  # an unhashable or unorderable option: checked below, and refused
        return _online_config(preset, options)
    built = _BUILT.get(key)
    if built is None:
        built = _online_config(preset, options)
        if len(_BUILT) >= _BUILT_MAX:
            _BUILT.clear()
        _BUILT[key] = built
    return built


def _online_config(preset: str, options: Mapping[str, Any] | None) -> OnlineConfig:
    if preset not in ONLINE_PRESETS:
        raise ConfigError(
            words(
                "unknown preset {preset}; valid presets: {presets}",
                preset=repr(preset),
                presets=", ".join(ONLINE_PRESETS),
            )
        )
    given = dict(options or {})
    given.pop("preset", None)
    for name in given:
        if name not in _OPTION_NAMES:
            raise ConfigError(
                words(
                    "unknown option {option}; valid options: {options}",
                    option=repr(name),
                    options=", ".join(_OPTION_NAMES),
                )
            )
    for name, fixed in ONLINE_PRESETS[preset].items():
        if name in given and given[name] != fixed:
            raise ConfigError(
                words(
                    "preset {preset} has {option}={fixed}, not {value}",
                    preset=preset,
                    option=name,
                    fixed=fixed,
                    value=repr(given[name]),
                )
            )
    values: dict[str, Any] = {**ONLINE_PRESETS[preset], **given}
    for name, valid in _CHOICES.items():
        if name in values and values[name] not in valid:
            raise ConfigError(
                words(
                    "{option} must be one of {choices}, not {value}",
                    option=name,
                    choices=", ".join(valid),
                    value=repr(values[name]),
                )
            )
    if "ante" not in values:
        raise ConfigError(words("ante is required: the table's stake, such as $1.00"))
    ante = _whole("ante", values["ante"], least=1)
    for name in _MONEY:
        if values.get(name) is not None:
            _whole(name, values[name], least=0 if name.startswith("rake") else 1)
    for name in _SECONDS:
        if name in values:
            values[name] = _seconds(name, values[name])
    family = values.get("match_cap_family", "seed_000")
    if values.get("match_cap") is None:
        values["match_cap"] = match_cap_for(ante, family)
    values.setdefault("payer", "all_losers")  # a custom table that names none
    values.setdefault("min_buy_in", SEED_MIN_BUY_IN_ANTES * ante)
    values.setdefault("max_buy_in", None)
    if preset in SEED_PRESETS and values["min_buy_in"] < SEED_MIN_BUY_IN_ANTES * ante:
        raise ConfigError(
            words(
                "min_buy_in must be at least {count} antes ({least}) at {preset} tables, as the"
                " rooms that deal them ask; only a custom table may ask less",
                count=SEED_MIN_BUY_IN_ANTES,
                least=Money(SEED_MIN_BUY_IN_ANTES * ante),
                preset=preset,
            )
        )
    if values["min_buy_in"] < ante:
        raise ConfigError(
            words(
                "min_buy_in must cover the ante ({ante}), not {amount}",
                ante=Money(ante),
                amount=Money(values["min_buy_in"]),
            )
        )
    if values["max_buy_in"] is not None and values["max_buy_in"] < values["min_buy_in"]:
        raise ConfigError(
            words(
                "max_buy_in ({most}) must be at least min_buy_in ({least})",
                most=Money(values["max_buy_in"]),
                least=Money(values["min_buy_in"]),
            )
        )
    if not isinstance(values.get("away_antes", False), bool):
        raise ConfigError(
            words(
                "{option} must be true or false, not {value}",
                option="away_antes",
                value=repr(values["away_antes"]),
            )
        )
    seats = _whole("seats", values.get("seats", 7), least=2)
    if seats > 10:
        raise ConfigError(words("seats must be from 2 to 10, not {seats}", seats=seats))
    if values.get("rake_basis_points", 300) > 10_000:
        raise ConfigError(words("rake_basis_points must be from 0 to 10000 (0 % to 100 %)"))
    return OnlineConfig(preset=preset, **values)


def raised_config(config: OnlineConfig, stake: int) -> OnlineConfig:
    """``config`` at a new ante, ``stake`` (a tournament's level; games/guts/online.py).

    The match cap follows the ante by the table's match-cap family when the table kept its
    family's cap (seed 000: 20 antes; seed 004: its listed caps, and a stake it lists none for
    is refused); a cap the operator set keeps its ratio to the ante (rounded down, at least 1).
    The buy-in limits rise only as far as the rules ask (``min_buy_in`` covering 100 antes at
    the seed presets); they matter only to players sitting down later.

    >>> config = online_config("survivor", {"ante": 10})
    >>> raised = raised_config(config, 25)
    >>> raised.ante, raised.match_cap, raised.min_buy_in
    (25, 500, 2500)
    >>> raised_config(online_config("custom", {"ante": 10, "match_cap": 150}), 20).match_cap
    300
    >>> raised_config(online_config("monte_carlo", {"ante": 10, "match_cap_family": "seed_004"}),
    ...               30)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    games.engine.ConfigError: family seed_004 has no cap for an ante of 30 cents; its antes: ...
    """
    options = config.to_json()
    preset = options.pop("preset")
    family = config.match_cap_family
    try:
        kept_family = config.match_cap == match_cap_for(config.ante, family)
    except ConfigError:  # the family lists no cap for the old ante: the operator set one
        kept_family = False
    if kept_family:
        options["match_cap"] = match_cap_for(stake, family)
    else:
        options["match_cap"] = max(1, config.match_cap * stake // config.ante)
    floor = SEED_MIN_BUY_IN_ANTES * stake if preset in SEED_PRESETS else stake
    options["ante"] = stake
    options["min_buy_in"] = max(config.min_buy_in, floor)
    if config.max_buy_in is not None:
        options["max_buy_in"] = max(config.max_buy_in, options["min_buy_in"])
    return online_config(preset, options)
