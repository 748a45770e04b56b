"""The forms of the limits page: the limits and the reality check, a time-out, a self-exclusion,
and the house's lifting of a self-exclusion."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.language import said
from accounts.money import format_cents
from cardroom.models.responsible import BUY_IN_LIMITS, LOSS_LIMITS, LimitName, PlayerLimits
from cardroom.presentation import cents_from_dollars
from cardroom.responsible.terms import (
    MAX_LIMIT_CENTS,
    REALITY_MINUTES,
    SESSION_MINUTES,
)
from games.words import sentence_of

__all__ = ["SELF_EXCLUSION_CHOICES", "TIME_OUT_CHOICES", "ExclusionForm", "LiftForm", "LimitsForm"]

#: The lengths offered, in days, with their names.
TIME_OUT_CHOICES = [
    (1, gettext_lazy("24 hours")),
    (2, gettext_lazy("2 days")),
    (3, gettext_lazy("3 days")),
    (7, gettext_lazy("1 week")),
    (14, gettext_lazy("2 weeks")),
    (28, gettext_lazy("4 weeks")),
    (42, gettext_lazy("6 weeks")),
]
SELF_EXCLUSION_CHOICES = [
    (183, gettext_lazy("6 months")),
    (365, gettext_lazy("1 year")),
    (730, gettext_lazy("2 years")),
    (1095, gettext_lazy("3 years")),
    (1826, gettext_lazy("5 years")),
]


def _dollars(cents: int | None) -> str:
    if cents is None:
        return ""
    whole, rest = divmod(cents, 100)
    return f"{whole}.{rest:02d}" if rest else str(whole)


class LimitsForm(forms.Form):
    """Every limit at once; a field left as it was asks for nothing. Money in dollars, empty
    for no limit; the session and the reality check in minutes."""

    session_minutes = forms.IntegerField(
        required=False,
        min_value=SESSION_MINUTES[0],
        max_value=SESSION_MINUTES[1],
        label=gettext_lazy("Session limit (minutes)"),
    )
    reality_minutes = forms.IntegerField(
        min_value=REALITY_MINUTES[0],
        max_value=REALITY_MINUTES[1],
        label=gettext_lazy("Reality check every (minutes)"),
    )

    def __init__(
        self, data: Any = None, *, row: PlayerLimits | None, pending: dict[str, Any]
    ) -> None:
        """``pending``: the value each limit with a change pending will take (the form shows
        what the player asked for, so sending it again asks for nothing new)."""
        initial: dict[str, Any] = {"reality_minutes": row.reality_minutes if row else 60}
        #: What each limit's field stood for when the page was drawn.
        self.shown: dict[str, int | None] = {}
        for name in (*LOSS_LIMITS, *BUY_IN_LIMITS, LimitName.SESSION):
            value = pending[name] if name in pending else getattr(row, name, None)
            self.shown[name] = value
            initial[name] = value if name == LimitName.SESSION else _dollars(value)
        super().__init__(data, initial=initial)
        for name in (*LOSS_LIMITS, *BUY_IN_LIMITS):
            self.fields[name] = forms.CharField(
                required=False,
                max_length=24,
                # Translators: %(limit)s is a limit's name, such as "Daily loss limit".
                label=_("%(limit)s ($)") % {"limit": str(LimitName(name).label).capitalize()},
            )
        # Money first, then the session and the reality check, as the page reads.
        order = [*LOSS_LIMITS, *BUY_IN_LIMITS, LimitName.SESSION, "reality_minutes"]
        self.order_fields([str(name) for name in order])

    def _money(self, name: str) -> int | None:
        text = (self.cleaned_data.get(name) or "").strip()
        if not text:
            return None
        try:
            cents = cents_from_dollars(text)
        except ValueError as error:
            raise forms.ValidationError(said(sentence_of(error)), code="dollars") from error
        if not 0 < cents <= MAX_LIMIT_CENTS:
            raise forms.ValidationError(
                _("a limit is more than %(least)s and at most %(most)s")
                % {"least": format_cents(0), "most": format_cents(MAX_LIMIT_CENTS)},
                code="range",
            )
        return cents

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for name in (*LOSS_LIMITS, *BUY_IN_LIMITS):
            try:
                cleaned[f"{name}_cents"] = self._money(name)
            except forms.ValidationError as error:
                self.add_error(name, error)
        return cleaned

    def requested(self) -> dict[str, int | None]:
        """The limits the player changed, with the value asked for (cents or minutes): "50"
        where "50.00" was shown is no change."""
        asked: dict[str, int | None] = {}
        for name, shown in self.shown.items():
            key = name if name == LimitName.SESSION else f"{name}_cents"
            if self.cleaned_data[key] != shown:
                asked[name] = self.cleaned_data[key]
        return asked


class ExclusionForm(forms.Form):
    """A time-out or a self-exclusion, asked for twice: the second time with ``confirmed``."""

    kind = forms.ChoiceField(
        choices=[
            ("time_out", gettext_lazy("time-out")),
            ("self_exclusion", gettext_lazy("self-exclusion")),
        ],
        widget=forms.HiddenInput,
    )
    days = forms.TypedChoiceField(
        coerce=int, choices=TIME_OUT_CHOICES + SELF_EXCLUSION_CHOICES, label=gettext_lazy("For")
    )
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        kind, days = cleaned.get("kind"), cleaned.get("days")
        allowed = TIME_OUT_CHOICES if kind == "time_out" else SELF_EXCLUSION_CHOICES
        if days is not None and days not in dict(allowed):
            self.add_error("days", _("choose one of the lengths offered"))
        return cleaned

    def length_words(self) -> str:
        return str(dict(TIME_OUT_CHOICES + SELF_EXCLUSION_CHOICES)[self.cleaned_data["days"]])


class LiftForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=500,
        help_text=gettext_lazy("Why: the player's request, and how it was checked."),
    )
