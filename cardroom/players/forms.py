"""The player page's forms: a staff note, an exclusion recorded at the player's request, and
the lifting of a self-exclusion whose period is over."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from cardroom.models.notes import MAX_NOTE_CHARS
from cardroom.responsible.forms import SELF_EXCLUSION_CHOICES, TIME_OUT_CHOICES

__all__ = ["ExcludeForm", "LiftForm", "NoteForm"]


class NoteForm(forms.Form):
    text = forms.CharField(
        label=gettext_lazy("Note"),
        max_length=MAX_NOTE_CHARS,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class ExcludeForm(forms.Form):
    """The lengths the player may choose for themselves: a time-out up to six weeks, a
    self-exclusion from six months (the service decides which one the days make)."""

    days = forms.TypedChoiceField(
        label=gettext_lazy("For"),
        coerce=int,
        choices=[
            (gettext_lazy("Time-out"), TIME_OUT_CHOICES),
            (gettext_lazy("Self-exclusion"), SELF_EXCLUSION_CHOICES),
        ],
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=gettext_lazy("Why: the player's request, and how it was checked."),
    )


class LiftForm(forms.Form):
    reason = forms.CharField(label=gettext_lazy("Why lift it"), max_length=500)
