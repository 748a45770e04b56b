"""The operator console's forms, built from each game's engine.

A table's options are the fields of its config dataclass (``make_config`` builds it), so a
new game or option appears in the form without a change here. Per game, small extras: the
stakes presets of the rules, choices the rules name, and a probe for the options a preset
cannot be built without (a Guts table needs its ante). Every option is optional: left blank,
the preset's value stands. The game's own validation (``ConfigError``) is the only rule; its
message is shown next to the field it names.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.language import said
from accounts.money import format_cents
from cardroom.presentation import cents_from_dollars
from cardroom.presentation.names import family_name, option_value_name, preset_name
from cardroom.tables.engines import PACKAGES, engine_for
from games.chinese_poker.config import PRESETS as CHINESE_PRESETS
from games.chinese_poker.config import TIMEOUT_POLICIES
from games.engine import ConfigError
from games.guts.classic.config import OPTION_CHOICES as CLASSIC_CHOICES
from games.guts.classic.config import fixed_options as classic_fixed
from games.guts.config import MATCH_CAP_FAMILIES, PAYERS, ROUND_ENDS, match_cap_for
from games.guts.config import fixed_options as online_fixed
from games.three_card_poker import exact_odds
from games.three_card_poker.config import PRESETS as TCP_PRESETS
from games.three_card_poker.odds import decimal_text
from games.time_bank import REFILLS
from games.words import sentence_of

__all__ = [
    "BotsForm",
    "OptionSpec",
    "PlayForm",
    "SeatForm",
    "TableCreateForm",
    "TimersForm",
    "config_error_field",
    "house_edge",
    "option_specs",
    "stakes_choices",
]

#: Options a preset cannot be built without, to learn its config's fields and values.
PROBES: dict[str, dict[str, Any]] = {"guts": {"ante": 100}, "classic_guts": {"ante": 100}}
#: Choices the rules name, for options that would otherwise be typed (shown in words:
#: cardroom/presentation/names.py).
CHOICES: dict[str, tuple[Any, ...]] = {
    **CLASSIC_CHOICES,
    "match_cap_family": MATCH_CAP_FAMILIES,
    "payer": PAYERS,
    "round_end": ROUND_ENDS,
    "timeout": TIMEOUT_POLICIES,
    "time_bank_refill": REFILLS,
}
#: The options a game's preset fixes (its config refuses any other value): not offered.
FIXED: dict[str, Callable[[str], frozenset[str]]] = {
    "guts": online_fixed,
    "classic_guts": classic_fixed,
}
#: The options chosen from a list, named as a person asks the question (others are named by
#: their config field, in words).
LABELS: dict[str, Any] = {
    "payer": gettext_lazy("Who pays"),
    "payers": gettext_lazy("Who pays"),
    "round_end": gettext_lazy("A round ends"),
    "match_cap_family": gettext_lazy("Match cap ladder"),
    "timeout": gettext_lazy("A hand not set in time"),
    "cards": gettext_lazy("Cards per hand"),
    "declare": gettext_lazy("Declare"),
    "payment_multiple": gettext_lazy("A loser pays"),
    "ante_when": gettext_lazy("Everyone antes"),
    "all_out": gettext_lazy("When nobody is In"),
    "ghost": gettext_lazy("Ghost hand"),
    "single_in_needs": gettext_lazy("A player In alone needs"),
    "losers_pay": gettext_lazy("Losers pay"),
    "low_wild": gettext_lazy("Wild cards"),
}
#: Options in cents, labelled so.
MONEY = frozenset(
    {"ante", "match_cap", "min_buy_in", "max_buy_in", "rake_cap", "unit", "hand_fee",
     "min_ante", "max_ante", "max_pair_plus", "pot_limit"}
)  # fmt: skip
#: Words a ConfigError uses for an option it does not name outright.
ALIASES = {"family": "match_cap_family"}
#: The form's own fields: an option of the same name is left out rather than shadow one.
OWN_FIELDS = frozenset({"name", "stakes", "bots", "reason", "confirmed_edge"})
#: The antes of the Guts stakes ladder of docs/rules/guts-online.md, "Presets" (cents).
GUTS_ANTES = (10, 25, 50, 100, 200, 500)


def _reason_field() -> forms.CharField:
    return forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("Why: it goes in the operator log, which auditors read."),
        error_messages={
            "required": gettext_lazy("Give a reason: every operator action is logged with one.")
        },
    )


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a game's config, as the form shows it."""

    name: str
    kind: str  # int, float, str, bool or payouts (comma-separated whole numbers)
    preset_value: str  # what the preset gives; empty when it follows another option
    choices: tuple[Any, ...] = ()

    @property
    def words(self) -> str:
        """The option's name in words, from the config's field (kept in English: a new option
        shows without a translation)."""
        return str(LABELS.get(self.name) or self.name.replace("_", " ").capitalize())

    @property
    def label(self) -> str:
        # Money says it is typed in dollars.
        # Translators: %(option)s is an option's name, typed in dollars.
        return _("%(option)s ($)") % {"option": self.words} if self.is_money else self.words

    @property
    def is_money(self) -> bool:
        """Typed in dollars ("2.50"), kept in cents, as the rest of the site shows money."""
        return self.name in MONEY and self.kind == "int"


def _kind(annotation: Any, value: Any) -> str | None:
    text = str(annotation).replace(" | None", "").replace("None | ", "").strip()
    if text in ("int", "float", "str", "bool"):
        return text
    if isinstance(value, tuple) and all(isinstance(item, int) for item in value):
        return "payouts"
    return None


def _shown(value: Any) -> str:
    if isinstance(value, tuple):
        return ",".join(str(item) for item in value)
    if value is None:
        return _("none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return str(value)


def _leaves(config: Any) -> list[tuple[str, Any, Any]]:
    """The config's options as (name, annotation, value); a nested dataclass (Three Card
    Poker's pay tables) gives its own fields, which ``make_config`` takes by name."""
    found: list[tuple[str, Any, Any]] = []
    for field in dataclasses.fields(config):
        value = getattr(config, field.name)
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            found += _leaves(value)
        elif field.name != "preset":
            found.append((field.name, field.type, value))
    return found


def option_specs(game: str, preset: str) -> list[OptionSpec]:
    """Every option a table of ``game`` from ``preset`` takes, with the preset's values.

    A value that follows a probed option (a Guts match cap follows the ante) is not shown as
    the preset's: the config is built twice, with the probe and with it doubled, and only
    values equal in both are.
    """
    engine = engine_for(game)
    probe = PROBES.get(game, {})
    config = engine.make_config(preset, probe)
    doubled = {name: value * 2 for name, value in probe.items()}
    other = {name: value for name, _type, value in _leaves(engine.make_config(preset, doubled))}
    specs = []
    unchangeable = FIXED[game](preset) if game in FIXED else frozenset()
    for name, annotation, value in _leaves(config):
        kind = _kind(annotation, value)
        if kind is None or name in OWN_FIELDS or name in unchangeable:
            continue
        fixed = name not in probe and other.get(name) == value
        money = name in MONEY and kind == "int" and isinstance(value, int)
        shown = format_cents(value) if money else _shown(value)
        if name in CHOICES:
            shown = option_value_name(name, value)
        specs.append(
            OptionSpec(
                name=name,
                kind=kind,
                preset_value=shown if fixed else "",
                choices=CHOICES.get(name, ()),
            )
        )
    return specs


def stakes_choices(game: str, preset: str) -> list[tuple[str, str, dict[str, Any]]]:
    """The stakes presets of the rules for a table of ``game``: (key, label, options).

    Guts (any table with an ``ante``): the ante ladder with both match-cap families of the
    seeds (docs/rules/guts-online.md, "Presets"); classic Guts has no match cap, so its ladder is
    the antes alone. Chinese
    Poker: the seed's unit ladder, with its buy-in and fee. Three Card Poker: the presets'
    Ante and Pair Plus limits.
    """
    names = {spec.name for spec in option_specs(game, preset)}
    choices: list[tuple[str, str, dict[str, Any]]] = []
    # By the options, not the game's name: any table with an ante takes the Guts ladder.
    if {"ante", "match_cap_family"} <= names:
        for family in MATCH_CAP_FAMILIES:
            for ante in GUTS_ANTES:
                try:
                    cap = match_cap_for(ante, family)
                except ConfigError:
                    continue  # seed 004 lists four stakes only
                # Translators: %(family)s names a ladder of match caps; the rest are amounts.
                label = _("%(family)s: %(ante)s ante, match cap %(cap)s") % {
                    "family": family_name(family),
                    "ante": format_cents(ante),
                    "cap": format_cents(cap),
                }
                choices.append(
                    (f"{family}-{ante}", label, {"ante": ante, "match_cap_family": family})
                )
    elif "ante" in names:
        for ante in GUTS_ANTES:
            label = _("%(ante)s ante") % {"ante": format_cents(ante)}
            choices.append((f"ante-{ante}", label, {"ante": ante}))
    elif game == "chinese_poker":
        for key, config in CHINESE_PRESETS.items():
            # Translators: Chinese Poker stakes; %(unit)s, %(buy_in)s and %(fee)s are amounts.
            label = _("%(unit)s unit, buy-in %(buy_in)s, fee %(fee)s") % {
                "unit": format_cents(config.unit),
                "buy_in": format_cents(config.min_buy_in),
                "fee": format_cents(config.hand_fee),
            }
            choices.append((key, label, {"unit": config.unit}))
    elif game == "three_card_poker":
        seen = set()
        for key, tcp in TCP_PRESETS.items():
            limits = {
                "min_ante": tcp.min_ante,
                "max_ante": tcp.max_ante,
                "max_pair_plus": tcp.max_pair_plus,
            }
            if tuple(limits.values()) in seen:
                continue
            seen.add(tuple(limits.values()))
            # Translators: Three Card Poker stakes; "Ante" and "Pair Plus" are the bets' names.
            label = _("%(preset)s: Ante %(least)s to %(most)s, Pair Plus to %(pair_plus)s") % {
                "preset": preset_name(key),
                "least": format_cents(tcp.min_ante),
                "most": format_cents(tcp.max_ante),
                "pair_plus": format_cents(tcp.max_pair_plus),
            }
            choices.append((key, label, limits))
    return choices


def _named(message: str, code: str, words: str) -> str:
    return re.sub(rf"(?<![\w]){re.escape(code)}(?![\w])", words, message)


def in_words(message: str, specs: list[OptionSpec], preset: str) -> str:
    """A refusal of the rules as the form says it: each option whose code is no word
    ("max_buy_in") by its label, as the form shows it, each value chosen from a list by its
    name ("ActionPoker ladder (fixed caps)"), and the preset by its name."""
    message = _named(message, preset, preset_name(preset))
    for spec in specs:
        if "_" in spec.name:
            message = _named(message, spec.name, f"“{spec.words}”")
        for value in spec.choices:
            if isinstance(value, str) and "_" in value:
                message = _named(message, value, option_value_name(spec.name, value))
    return message


def config_error_field(message: str, names: set[str]) -> str | None:
    """The option a ConfigError's message names first, if it names one."""
    found: list[tuple[int, str]] = []
    for word in [*names, *ALIASES]:
        match = re.search(rf"(?<![\w]){re.escape(word)}(?![\w])", message)
        if match:
            found.append((match.start(), ALIASES.get(word, word)))
    found = [(at, name) for at, name in found if name in names]
    return min(found)[1] if found else None


def house_edge(config: Any) -> dict[str, Any] | None:
    """The exact figures of a Three Card Poker config's pay tables, for a person to read."""
    tables = getattr(config, "pay_tables", None)
    if tables is None:
        return None
    odds = exact_odds(tables.ante_bonus, tables.pair_plus)

    def percent(value: Any) -> dict[str, str]:
        return {
            "percent": decimal_text(value * 100, 4) + " %",
            "fraction": f"{value.numerator}/{value.denominator}",
        }

    return {
        "ante_bonus": ",".join(str(x) for x in tables.ante_bonus),
        "pair_plus": ",".join(str(x) for x in tables.pair_plus),
        "ante_play": percent(odds.ante_play_house_edge),
        "element_of_risk": percent(odds.element_of_risk),
        "pair_plus_edge": percent(odds.pair_plus_house_edge),
        "threshold": odds.play_threshold.text,
    }


class DollarsField(forms.CharField):
    """An amount typed in dollars ("2.50", "$1,000") and cleaned to whole cents."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=24, **kwargs)
        self.widget.attrs.update({"inputmode": "decimal", "placeholder": "0.00"})

    def clean(self, value: Any) -> int | None:
        text = super().clean(value)
        if text in ("", None):
            return None
        try:
            return cents_from_dollars(text)
        except ValueError as error:
            # Translators: %(error)s says what is wrong with the amount typed.
            typed = _("%(error)s (type dollars, such as 2.50)")
            raise forms.ValidationError(
                typed % {"error": said(sentence_of(error))}, code="dollars"
            ) from error


def _option_field(spec: OptionSpec) -> forms.Field:
    if spec.preset_value:
        # Translators: %(value)s is the preset's value of an option.
        help_text = _("Preset: %(value)s.") % {"value": spec.preset_value}
    else:
        help_text = _("Follows the stakes.")
    common: dict[str, Any] = {"required": False, "label": spec.label, "help_text": help_text}
    if spec.kind == "bool":
        return forms.ChoiceField(
            choices=[("", _("(preset)")), ("yes", _("yes")), ("no", _("no"))], **common
        )
    if spec.choices:
        # The values in words; what is posted is the value itself, typed back as the rules have it.
        kind = type(spec.choices[0])

        def coerce(value: Any) -> Any:
            return kind(value)

        return forms.TypedChoiceField(
            choices=[
                ("", _("(preset)")),
                *((str(value), option_value_name(spec.name, value)) for value in spec.choices),
            ],
            coerce=coerce,
            empty_value="",
            **common,
        )
    if spec.is_money:
        return DollarsField(**common)
    if spec.kind == "int":
        return forms.IntegerField(**common)
    if spec.kind == "float":
        return forms.FloatField(**common)
    if spec.kind == "payouts":
        common["help_text"] = f"{_('Payouts to one, comma-separated.')} {help_text}"
    return forms.CharField(max_length=200, **common)


class TableCreateForm(forms.Form):
    """A new table of one game and preset: a name, the stakes, any options, bots, a reason."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)

    def __init__(self, *args: Any, game: str, preset: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if game not in PACKAGES:
            raise ValueError(f"unknown game {game!r}")
        engine = engine_for(game)
        if preset not in engine.presets:
            raise ValueError(f"unknown preset {preset!r} of {game}")
        self.game, self.preset, self.engine = game, preset, engine
        self.specs = option_specs(game, preset)
        self.stakes = {key: options for key, _label, options in stakes_choices(game, preset)}
        if self.stakes:
            self.fields["stakes"] = forms.ChoiceField(
                label=_("Stakes"),
                required=False,
                choices=[("", _("(preset)"))]
                + [(key, label) for key, label, _options in stakes_choices(game, preset)],
                help_text=_("A stakes preset of the rules; any option below overrides it."),
            )
        for spec in self.specs:
            self.fields[spec.name] = _option_field(spec)
        self.fields["bots"] = forms.IntegerField(
            label=_("Bots"), min_value=0, initial=0, help_text=_("Seats kept filled by house bots.")
        )
        self.fields["reason"] = _reason_field()
        self.config: Any = None

    def option_values(self) -> dict[str, Any]:
        """The options the operator set, over the chosen stakes preset's."""
        data = self.cleaned_data
        options: dict[str, Any] = dict(self.stakes.get(data.get("stakes") or "", {}))
        for spec in self.specs:
            value = data.get(spec.name)
            if value is None or value == "":
                continue
            if spec.kind == "bool":
                value = value == "yes"
            options[spec.name] = value
        return options

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            self.config = self.engine.make_config(self.preset, self.option_values())
        except ConfigError as error:
            # The option is found in the English (options are named in English); the message
            # is shown in the reader's language.
            field = config_error_field(str(error), {spec.name for spec in self.specs})
            self.add_error(field, in_words(said(sentence_of(error)), self.specs, self.preset))
            return data
        seats = getattr(self.config, "seats", None)
        bots = data.get("bots") or 0
        if isinstance(seats, int) and bots > seats - 1:
            most = seats - 1
            too_many = ngettext(
                "at most %(count)s bot: one seat is kept for a person",
                "at most %(count)s bots: one seat is kept for a person",
                most,
            )
            self.add_error("bots", too_many % {"count": most})
        return data


class TimersForm(forms.Form):
    """A table's timers, as they are now; only the changed ones are applied."""

    def __init__(self, *args: Any, timers: Mapping[str, Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.current = dict(timers)
        for name, value in timers.items():
            label = name.replace("_", " ").capitalize()
            kind = forms.IntegerField if isinstance(value, int) else forms.FloatField
            self.fields[name] = kind(
                label=label, initial=value, min_value=0, max_value=3600, required=True
            )
        self.fields["reason"] = _reason_field()

    def changed_timers(self) -> dict[str, Any]:
        """The timers whose value differs from the table's."""
        return {
            name: self.cleaned_data[name]
            for name, value in self.current.items()
            if self.cleaned_data[name] != value
        }

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if not self.errors and not self.changed_timers():
            raise forms.ValidationError(_("No timer changed: nothing to do."), code="unchanged")
        return data


class SeatForm(forms.Form):
    """Sit a player out, or remove them; the game decides when it takes effect."""

    seat = forms.IntegerField(label=gettext_lazy("Seat"), min_value=0)
    action = forms.ChoiceField(
        label=gettext_lazy("Action"),
        choices=[("sit_out", gettext_lazy("Sit out")), ("leave", gettext_lazy("Remove"))],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"] = _reason_field()


class PlayForm(forms.Form):
    """Pause, resume or close the table, or void the hand in play."""

    action = forms.ChoiceField(
        label=gettext_lazy("Action"),
        choices=[
            ("pause", gettext_lazy("Pause (finish the hand, deal no more)")),
            ("resume", gettext_lazy("Resume")),
            ("close", gettext_lazy("Close (finish the hand, cash everyone out)")),
            ("void", gettext_lazy("Void the hand in play (every chip goes back)")),
        ],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"] = _reason_field()


class BotsForm(forms.Form):
    """How many seats house bots keep filled."""

    bots = forms.IntegerField(label=gettext_lazy("Bots"), min_value=0)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["reason"] = _reason_field()
