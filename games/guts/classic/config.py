"""House rules of classic Guts as table options and presets (docs/rules/guts-classic.md).

Options are named as on the rules page; a preset is a set of option values, and options not
named by a preset take the basic game's defaults. Options this module adds, where the page
describes a preset in words: ``losers_pay`` (``pot``, or ``winner`` for Winner Takes All),
``low_wild`` (0, 1 or 2: "One / Two low In and wild"), ``two_plus_one`` (Two Plus One) with
its ``second_declare``. Money in cents, rates in basis points.

The games with several deals or stages (docs/rules/guts-classic.md, "Games with a second deal",
"Games in stages with legs", "Toh") are presets too; ``flow`` (fixed by the preset) names the
engine's flow: ``one_deal`` (every game above), ``four_two`` (Four-Two-Two and Four-Two-Three,
see :mod:`games.guts.classic.fourtwo`), ``legs`` (Three-Five-Seven), ``nuts``, ``napalm`` and
``toh`` (see :mod:`games.guts.classic.stages`). Their options: ``max_loss`` (the most a loser
pays in one deal), ``dropped_pay_ante``, ``nobody_plays_penalty``, ``lone_vs_deck`` (4-2-2 and
4-2-3), ``to_win`` (legs, nuts, tokens or points that take the pot; Toh's 0 means "by the number of
players": 5 for up to four, 4 for five to seven, 3 for eight or more) and ``private_compare``
(showdowns before the last stage are seen only by the players In: 3-5-7 and Napalm).

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
from dataclasses import dataclass, fields
from typing import Any

from games.config_json import config_json
from games.engine import ConfigError
from games.guts.classic.presets import CLASSIC_PRESETS, FLOWS, STAGES, Stage
from games.time_bank import check_time_bank
from games.words import Money, words

__all__ = [
    "CLASSIC_PRESETS",
    "DEFAULT_TIME_BANK",
    "FLOWS",
    "OPTION_CHOICES",
    "STAGES",
    "ClassicConfig",
    "Stage",
    "classic_config",
    "fixed_options",
]

_CHOICES: dict[str, tuple[Any, ...]] = {
    "cards": (2, 3),  # the one-deal games; the other flows fix theirs (FLOWS)
    "declare": ("sequential", "simultaneous"),
    "payers": ("all_losers", "worst_losers"),
    "payment_multiple": (1, 2),
    "ante_when": ("pot_empty", "every_deal"),
    "all_out": ("carry", "chicken_fee", "wimp", "henry"),
    "ghost": ("none", "always", "single_in"),
    "single_in_needs": ("nothing", "pair"),
    "losers_pay": ("pot", "winner"),
    "low_wild": (0, 1, 2),
    "flow": ("one_deal", *FLOWS),
    "community_after_declare": (0, 3),
}
#: The options chosen from a list, and their values (the console offers them as such).
OPTION_CHOICES: Mapping[str, tuple[Any, ...]] = _CHOICES
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
    "dropped_pay_ante",
    "nobody_plays_penalty",
    "lone_vs_deck",
    "private_compare",
)
#: Options of the one-deal games that the flows with several deals or stages don't take.
_ONE_DEAL_ONLY = (
    "payers",
    "payment_multiple",
    "winner_takes_pot",
    "all_out",
    "ghost",
    "single_in_needs",
    "pass_left",
    "no_peek",
    "partial_reveal",
    "community_card",
    "hi_lo",
    "losers_pay",
    "low_wild",
    "two_plus_one",
    "second_declare",
    "two_card_straights_flushes",
    "royal_crumpler",
    "trips_over_straight_flush",
    "flush_over_straight",
    "three_card_straights_flushes",
)
#: Of those, what Four-Two-Two and Four-Two-Three keep from the basic game.
_FOUR_TWO_KEEPS = ("payers", "payment_multiple", "winner_takes_pot", "all_out")
_TWO_CARD_RANKING = ("two_card_straights_flushes", "royal_crumpler")
_THREE_CARD_RANKING = (
    "trips_over_straight_flush",
    "flush_over_straight",
    "three_card_straights_flushes",
)
_SECONDS = ("decision_seconds", "showdown_seconds")
#: Each player's reserve at the tables whose declare is in turn (seconds).
DEFAULT_TIME_BANK = 30.0


@dataclass(frozen=True, slots=True)
class ClassicConfig:
    """One classic Guts table: the house rules (docs/rules/guts-classic.md, "Options").

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
    flow: str = "one_deal"
    community_after_declare: int = 0
    max_loss: int | None = None
    dropped_pay_ante: bool = False
    nobody_plays_penalty: bool = False
    lone_vs_deck: bool = False
    private_compare: bool = False
    to_win: int = 0
    seats: int = 7
    decision_seconds: float = 15.0
    showdown_seconds: float = 3.0
    time_bank: float = 0.0
    time_bank_refill: str = "hand"
    rake_basis_points: int = 300
    rake_cap: int = 300

    @property
    def hand_kind(self) -> str:
        """The evaluator kind of a shown hand: two cards, or three (three dealt, two and the
        Batey, or Two Plus One's two and one); the best five of 4-2-2 and 4-2-3; Toh's one
        card; the first stage's, in the games in stages (:meth:`stage_rules` has each one's)."""
        if self.flow == "four_two":
            return "best_five"
        if self.flow in STAGES:
            return STAGES[self.flow][0].kind
        three = self.cards == 3 or self.community_card or self.two_plus_one
        return "three_card" if three else "two_card"

    @property
    def ranking(self) -> tuple[tuple[str, object], ...]:
        """The ranking options passed to the evaluator, as a hashable tuple (none in the games
        with several deals: they play the default rankings)."""
        kind = self.hand_kind
        if self.flow != "one_deal":
            return ()
        names = _THREE_CARD_RANKING if kind == "three_card" else _TWO_CARD_RANKING
        return tuple((name, getattr(self, name)) for name in names)

    @property
    def staged(self) -> bool:
        """Whether a deal goes through stages (3-5-7, Nuts, Napalm; Toh's deals of one deck)."""
        return self.flow in ("legs", "nuts", "napalm", "toh")

    def target(self, players: int) -> int:
        """The marks that take the pot in a game starting with ``players`` (Toh's default: 5
        points for up to four players, 4 for five to seven, 3 for eight or more)."""
        if self.to_win:
            return self.to_win
        return 5 if players <= 4 else 4 if players <= 7 else 3

    def stage_rules(self, stage: int) -> Stage:
        """How ``stage`` (1, 2, ...) of a game in stages is played (Toh: every deal alike)."""
        stages = STAGES[self.flow]
        return stages[min(stage, len(stages)) - 1]

    @property
    def dealer_auto_in(self) -> bool:
        """Sequential declare: whether the dealer is In automatically when everyone before is
        Out, and takes the pot unseen. Only where no other rule governs a lone hand: not with
        a ghost hand, Winner Takes All (``losers_pay=winner``), ``single_in_needs=pair`` or
        ``dealer_challenge``, where the dealer declares last like everyone and all Out brings
        the ``all_out`` rule; nor at Hi-Lo or the games in stages, where the dealer chooses."""
        return (
            self.flow in ("one_deal", "four_two")
            and not self.hi_lo
            and self.ghost == "none"
            and self.losers_pay == "pot"
            and self.single_in_needs == "nothing"
            and not self.dealer_challenge
        )

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON (``classic_config(preset, options)`` reads them back)."""
        return config_json(self)


_OPTION_NAMES = tuple(
    sorted(field.name for field in fields(ClassicConfig) if field.name != "preset")
)
_DEFAULTS: dict[str, Any] = {
    field.name: field.default for field in fields(ClassicConfig) if field.name != "preset"
}
#: Options of the games with several deals or stages only.
_FLOW_ONLY = (
    "community_after_declare",
    "max_loss",
    "dropped_pay_ante",
    "nobody_plays_penalty",
    "lone_vs_deck",
    "private_compare",
    "to_win",
)


def _check_values(values: dict[str, Any]) -> None:
    flow = values.get("flow", "one_deal")
    for name, valid in _CHOICES.items():
        if name == "cards" and flow in FLOWS:
            valid = (FLOWS[flow][0],)
        value = values.get(name, valid[0])
        if value not in valid or isinstance(value, bool) != isinstance(valid[0], bool):
            shown = ", ".join(str(choice) for choice in valid)
            raise ConfigError(
                words(
                    "{option} must be one of {choices}, not {value}",
                    option=name,
                    choices=shown,
                    value=repr(value),
                )
            )
    for name in _FLAGS:
        if name in values and not isinstance(values[name], bool):
            raise ConfigError(
                words(
                    "{option} must be true or false, not {value}",
                    option=name,
                    value=repr(values[name]),
                )
            )
    for name in _SECONDS:
        value = values.get(name, 0)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 3600:
            raise ConfigError(
                words(
                    "{option} must be a number of seconds from 0 to 3600, not {value}",
                    option=name,
                    value=repr(value),
                )
            )
        if name in values:
            values[name] = float(value)
    for name in (
        "ante",
        "min_buy_in",
        "max_buy_in",
        "pot_limit",
        "max_loss",
        "rake_basis_points",
        "rake_cap",
    ):
        value = values.get(name)
        least = 0 if name.startswith("rake") else 1
        if value is not None and (
            isinstance(value, bool) or not isinstance(value, int) or value < least
        ):
            raise ConfigError(
                words(
                    "{option} must be a whole number of at least {least}, not {value}",
                    option=name,
                    least=least,
                    value=repr(value),
                )
            )


def _check_flow(config: ClassicConfig) -> None:
    """The games with several deals or stages: fixed options, the deck's size, ``to_win``."""
    preset = config.preset
    if config.flow == "one_deal":
        for name in _FLOW_ONLY:
            if getattr(config, name) != _DEFAULTS[name]:
                raise ConfigError(
                    words("{option} is an option of the games with several deals", option=name)
                )
        return
    first, most, fixed = FLOWS[config.flow]
    for name, value in {"cards": first, **fixed}.items():
        if getattr(config, name) != value:
            raise ConfigError(
                words(
                    "{preset} plays with {option}={wanted}, not {value}",
                    preset=preset,
                    option=name,
                    wanted=value,
                    value=repr(getattr(config, name)),
                )
            )
    keeps = _FOUR_TWO_KEEPS if config.flow == "four_two" else ()
    for name in _ONE_DEAL_ONLY:
        if name not in keeps and getattr(config, name) != _DEFAULTS[name]:
            raise ConfigError(
                words("{option} is not an option of {preset}", option=name, preset=preset)
            )
    if config.flow == "four_two":
        if config.all_out not in ("carry", "chicken_fee"):
            raise ConfigError(
                words(
                    "{preset} takes all_out carry or chicken_fee, not {all_out}",
                    preset=preset,
                    all_out=config.all_out,
                )
            )
        most = 10 if config.community_after_declare else most
    elif config.max_loss is not None or config.pot_limit is not None:
        raise ConfigError(
            words("{preset} has no pot_limit or max_loss (they must be none)", preset=preset)
        )
    elif config.flow == "toh" and config.to_win not in (0, 3, 4, 5):
        raise ConfigError(
            words(
                "to_win (points) must be 0 (by the players), 3, 4 or 5, not {to_win}",
                to_win=config.to_win,
            )
        )
    elif config.flow != "toh" and not 1 <= config.to_win <= 10:
        raise ConfigError(words("to_win must be from 1 to 10, not {to_win}", to_win=config.to_win))
    if config.flow != "four_two":
        for name in ("dropped_pay_ante", "nobody_plays_penalty", "lone_vs_deck"):
            if getattr(config, name):
                raise ConfigError(
                    words("{option} is an option of four_two_two and four_two_three", option=name)
                )
    if config.seats > most:
        raise ConfigError(
            words(
                "seats must be from 2 to {most} for {preset} (the deck's 52 cards)",
                most=most,
                preset=preset,
            )
        )


def _check_combinations(config: ClassicConfig) -> None:
    two_card_hand = config.hand_kind == "two_card"
    if config.pass_left and config.cards != 3:
        raise ConfigError(words("pass_left needs three cards (cards=3)"))
    if config.dealer_challenge and config.declare != "sequential":
        raise ConfigError(words("dealer_challenge needs declare=sequential"))
    for name in _TWO_CARD_RANKING if not two_card_hand else _THREE_CARD_RANKING:
        default = name == "three_card_straights_flushes"
        if getattr(config, name) != default:
            size = "two" if name in _TWO_CARD_RANKING else "three"
            raise ConfigError(
                words("{option} applies to {size}-card hands only", option=name, size=size)
            )
    if config.low_wild and (config.cards != 3 or config.community_card or config.partial_reveal):
        raise ConfigError(words("low_wild needs cards=3 without community_card or partial_reveal"))
    if config.second_declare and not config.two_plus_one:
        raise ConfigError(words("second_declare is an option of two_plus_one"))
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
            words(
                "two_plus_one deals two cards then one: it takes no ghost, single_in_needs,"
                " wimp or henry rule, hi_lo, community_card, partial_reveal or no_peek"
            )
        )
    if config.pass_left and config.no_peek:
        raise ConfigError(words("pass_left needs players to see their cards (not no_peek)"))
    if config.hi_lo and config.low_wild:
        raise ConfigError(words("hi_lo and low_wild don't combine (low_wild puts players In)"))
    if config.hi_lo and config.payers != "all_losers":
        raise ConfigError(words("hi_lo settles with payers=all_losers"))
    if config.max_buy_in is not None and config.max_buy_in < config.min_buy_in:
        raise ConfigError(
            words(
                "max_buy_in must be at least min_buy_in ({amount})", amount=Money(config.min_buy_in)
            )
        )
    if not 2 <= config.seats <= 10:
        raise ConfigError(words("seats must be from 2 to 10, not {seats}", seats=config.seats))
    if config.time_bank and config.declare != "sequential":
        raise ConfigError(
            words(
                "time_bank needs declare=sequential: a simultaneous declare has one timer for"
                " everyone (set time_bank to 0)"
            )
        )
    if config.rake_basis_points > 10_000:
        raise ConfigError(words("rake_basis_points must be from 0 to 10000 (0 % to 100 %)"))


def fixed_options(preset: str) -> frozenset[str]:
    """The options ``preset`` does not let a table change: ``classic_config`` refuses any
    value but the preset's for them (the flow, and what a flow fixes or does not take).

    >>> sorted(fixed_options("two_card"))[:3]
    ['community_after_declare', 'dropped_pay_ante', 'flow']
    >>> {"cards", "declare", "payers"} <= fixed_options("napalm")
    True
    """
    flow = CLASSIC_PRESETS[preset].get("flow", "one_deal")
    if flow == "one_deal":
        return frozenset({"flow", *_FLOW_ONLY})
    _first, _most, fixed = FLOWS[flow]
    keeps = _FOUR_TWO_KEEPS if flow == "four_two" else ()
    unlimited = () if flow == "four_two" else ("pot_limit", "max_loss")
    taken = {name for name in _ONE_DEAL_ONLY if name not in keeps}
    return frozenset({"flow", "cards", *fixed, *taken, *unlimited})


def classic_config(preset: str, options: Mapping[str, Any] | None = None) -> ClassicConfig:
    """Build and validate a classic table's config from a preset and options.

    ``ante`` is required; ``pot_limit`` defaults to 100 times the ante (``None``: no limit),
    ``min_buy_in`` to 100 times the ante.
    """
    if preset not in CLASSIC_PRESETS:
        valid = ", ".join(CLASSIC_PRESETS)
        raise ConfigError(
            words(
                "unknown preset {preset}; valid presets: {presets}",
                preset=repr(preset),
                presets=valid,
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
    if "flow" in given and given["flow"] != CLASSIC_PRESETS[preset].get("flow", "one_deal"):
        presets = ", ".join(name for name, values in CLASSIC_PRESETS.items() if "flow" in values)
        raise ConfigError(
            words(
                "flow is fixed by the preset; the presets with stages: {presets}", presets=presets
            )
        )
    values: dict[str, Any] = {**CLASSIC_PRESETS[preset], **given}
    if "ante" not in values:
        raise ConfigError(words("ante is required: the stake, such as $1.00"))
    _check_values(values)
    ante = values["ante"]
    flow = values.get("flow", "one_deal")
    # The flows with several deals play for a pot without a limit; 4-2-2 caps each loss instead.
    values.setdefault("pot_limit", 100 * ante if flow == "one_deal" else None)
    if flow == "four_two":
        values.setdefault("max_loss", 100 * ante)
    values.setdefault("min_buy_in", 100 * ante)
    if values["pot_limit"] is not None and values["pot_limit"] < ante:
        raise ConfigError(words("pot_limit must be at least the ante ({ante}) or none", ante=ante))
    to_win = values.get("to_win", 0)
    if isinstance(to_win, bool) or not isinstance(to_win, int):
        raise ConfigError(words("to_win must be a whole number, not {to_win}", to_win=repr(to_win)))
    seats = values.get("seats", 7)
    if isinstance(seats, bool) or not isinstance(seats, int):
        raise ConfigError(
            words("seats must be a whole number from 2 to 10, not {seats}", seats=repr(seats))
        )
    # A time bank where each player declares in turn; none where the declare is simultaneous.
    sequential = values.get("declare", "sequential") == "sequential"
    values.setdefault("time_bank", DEFAULT_TIME_BANK if sequential else 0)
    values["time_bank"], values["time_bank_refill"] = check_time_bank(
        values["time_bank"], values.get("time_bank_refill", "hand"), rounds=True
    )
    config = ClassicConfig(preset=preset, **values)
    _check_flow(config)
    _check_combinations(config)
    return config
