"""The operators' tournament pages: the list with Cancel, and the new-tournament form.

Operators only (``cardroom.operate_tables``: a visitor is sent to log in, anyone else gets
403), like the rest of the console. The form is in words and money is typed in dollars,
cleaned to cents as the table form does (``DollarsField``); levels are lines "ante minutes"
and payouts percentages of the pool. The write side does the work and logs it as an operator
action (templates.py ``create_tournament``, cancel.py ``cancel_tournament``, both given the
operator as ``actor``); a refusal (``ConfigError`` or any ValueError in words) is shown on the
form or the list and changes nothing. A cancel is confirmed on a page that says what it
refunds first.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.contrib import messages
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from accounts.language import said
from accounts.models import User
from cardroom.models import Game
from cardroom.models.tournaments import Tournament, TournamentStatus
from cardroom.operators.forms import DollarsField
from cardroom.operators.views import operator_only
from cardroom.presentation.names import preset_name
from cardroom.tables.engines import engine_for
from cardroom.tournaments.cancel import PAID, cancel_tournament
from cardroom.tournaments.money import entry_fee
from cardroom.tournaments.registration import fill_with_bots
from cardroom.tournaments.selectors import ENTERED
from cardroom.tournaments.templates import create_tournament
from games.words import sentence_of

__all__ = [
    "TournamentForm",
    "parse_levels",
    "parse_payouts",
    "tournament_cancel",
    "tournament_new",
    "tournaments_console",
]

#: The presets offered per game (classic Guts and Three Card Poker are not sit-and-gos:
#: docs/tournaments.md, "Games").
GUTS_PRESETS = ("monte_carlo", "survivor")
#: Tournaments the console lists: every open or running one, then this many of the others.
DONE_SHOWN = 100
#: The most seats a sit-and-go table takes.
MOST_SEATS = 10


def preset_choices() -> list[tuple[str, str]]:
    """Every preset a sit-and-go may use, named with its game: ("survivor", "Survivor (Guts)")."""
    choices = [(name, f"{preset_name(name)} (Guts)") for name in GUTS_PRESETS]
    label = str(Game.CHINESE_POKER.label)
    choices += [
        (name, f"{preset_name(name)} ({label})") for name in engine_for(Game.CHINESE_POKER).presets
    ]
    return choices


def parse_levels(text: str) -> list[dict[str, int]] | None:
    """Levels typed one a line as "ante minutes" ("10 5"); blank: None (the default levels).
    ValueError in words for a line that is not two whole numbers above zero.

    >>> parse_levels("10 5\\n 20 5 \\n\\n40 10")
    [{'ante': 10, 'minutes': 5}, {'ante': 20, 'minutes': 5}, {'ante': 40, 'minutes': 10}]
    >>> parse_levels("  ") is None
    True
    """
    levels = []
    for number, line in enumerate(text.splitlines(), start=1):
        parts = line.replace(",", " ").replace(":", " ").split()
        if not parts:
            continue
        if len(parts) != 2 or not all(part.isdigit() and int(part) > 0 for part in parts):
            raise ValueError(
                # Translators: %(number)s is a line's number, %(line)s what was typed on it.
                _(
                    "Line %(number)s (%(line)s) is not a level: write the ante in chips and "
                    "its minutes, such as 20 5."
                )
                % {"number": number, "line": line.strip()}
            )
        levels.append({"ante": int(parts[0]), "minutes": int(parts[1])})
    return levels or None


def parse_payouts(text: str) -> list[int] | None:
    """Payout shares typed as percentages of the pool, best place first ("65 35", "50, 30,
    20"), as basis points; blank: None (the default). ValueError in words unless each is a
    number above zero with at most two decimals.

    >>> parse_payouts("65, 35")
    [6500, 3500]
    >>> parse_payouts("33.34 33.33 33.33")
    [3334, 3333, 3333]
    """
    shares = []
    for part in re.split(r"[\s,;/]+", text.strip()):
        if not part:
            continue
        try:
            value = Decimal(part.rstrip("%")) * 100
        except InvalidOperation:
            value = Decimal(0)
        if value <= 0 or value != value.to_integral_value():
            raise ValueError(
                # Translators: %(share)s is what was typed.
                _("%(share)s is not a share: write percentages such as 65 35.") % {"share": part}
            )
        shares.append(int(value))
    return shares or None


class TournamentForm(forms.Form):
    """A new sit-and-go, in words: the write side validates the whole (``ConfigError``)."""

    name = forms.CharField(label=gettext_lazy("Name"), max_length=80)
    game = forms.ChoiceField(label=gettext_lazy("Game"), choices=())
    preset = forms.ChoiceField(label=gettext_lazy("Preset"), choices=())
    seats = forms.IntegerField(label=gettext_lazy("Seats"), min_value=2, max_value=MOST_SEATS)
    buy_in = DollarsField(
        label=gettext_lazy("Buy-in ($)"), help_text=gettext_lazy("Into the prize pool.")
    )
    fee = DollarsField(label=gettext_lazy("Fee ($)"), help_text=gettext_lazy("To the house."))
    chips = forms.IntegerField(label=gettext_lazy("Starting chips"), min_value=1)
    levels = forms.CharField(
        label=gettext_lazy("Levels"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy(
            "One a line: the ante (Chinese Poker: the unit) in chips, then its minutes, such "
            "as 20 5. The last level lasts to the end. Blank: the default levels."
        ),
    )
    payouts = forms.CharField(
        label=gettext_lazy("Payouts (%)"),
        required=False,
        help_text=gettext_lazy(
            "The pool's shares by place in percent, such as 65 35; 100 is winner takes all. "
            "Blank: the default."
        ),
    )
    bots = forms.IntegerField(
        label=gettext_lazy("Bots allowed"),
        min_value=0,
        max_value=MOST_SEATS,
        initial=0,
        help_text=gettext_lazy("How many seats house bots may fill."),
    )
    repeat = forms.BooleanField(
        label=gettext_lazy("Repeat"),
        required=False,
        help_text=gettext_lazy("Open the same tournament again when this one starts."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        games = dict(Game.choices)
        self.fields["game"].choices = [  # type: ignore[attr-defined]
            (Game.GUTS, games[Game.GUTS]),
            (Game.CHINESE_POKER, games[Game.CHINESE_POKER]),
        ]
        self.fields["preset"].choices = preset_choices()  # type: ignore[attr-defined]

    def clean_buy_in(self) -> int:
        return self._amount("buy_in")

    def clean_fee(self) -> int:
        return self._amount("fee")

    def _amount(self, name: str) -> int:
        value = self.cleaned_data.get(name)
        if value is None or value < 0:
            raise forms.ValidationError(_("Type an amount of $0.00 or more."), code="amount")
        return int(value)

    def clean_levels(self) -> list[dict[str, int]] | None:
        try:
            return parse_levels(self.cleaned_data.get("levels") or "")
        except ValueError as error:
            raise forms.ValidationError(str(error), code="levels") from error

    def clean_payouts(self) -> list[int] | None:
        try:
            return parse_payouts(self.cleaned_data.get("payouts") or "")
        except ValueError as error:
            raise forms.ValidationError(str(error), code="payouts") from error

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        game, preset = data.get("game"), data.get("preset")
        if game and preset:
            offered = GUTS_PRESETS if game == Game.GUTS else engine_for(game).presets
            if preset not in offered:
                self.add_error(
                    "preset",
                    _("%(preset)s is not a preset of %(game)s.")
                    % {"preset": preset_name(preset), "game": dict(Game.choices)[game]},
                )
        return data


class CancelForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        max_length=200,
        help_text=gettext_lazy("Why: the players read it, and it goes in the operator log."),
        error_messages={
            "required": gettext_lazy("Give a reason: every operator action is logged with one.")
        },
    )


def _rows() -> list[Tournament]:
    counted = Tournament.objects.annotate(
        registered_count=Count("entries", filter=Q(entries__status__in=ENTERED)),
        bots_count=Count(
            "entries", filter=Q(entries__status__in=ENTERED, entries__user__is_bot=True)
        ),
    )
    live = counted.filter(status__in=(TournamentStatus.REGISTERING, TournamentStatus.RUNNING))
    done = counted.exclude(status__in=(TournamentStatus.REGISTERING, TournamentStatus.RUNNING))
    return [*live.order_by("id"), *done.order_by("-id")[:DONE_SHOWN]]


def _page(
    request: HttpRequest, form: TournamentForm | None = None, status: int = 200
) -> HttpResponse:
    context = {
        "rows": _rows(),
        "form": form or TournamentForm(initial={"bots": 0, "seats": 6}),
    }
    return render(request, "operators/tournaments.html", context, status=status)


@operator_only
def tournaments_console(request: HttpRequest) -> HttpResponse:
    """Every open or running tournament (Cancel beside each), the latest others, and the form."""
    return _page(request)


@operator_only
@require_POST
def tournament_new(request: HttpRequest) -> HttpResponse:
    """Create a tournament from the form; the write side validates it (and logs it)."""
    form = TournamentForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=400)
    data = form.cleaned_data
    actor: User = request.user  # type: ignore[assignment]
    try:
        tournament = create_tournament(
            name=data["name"],
            game=data["game"],
            preset=data["preset"],
            seats=data["seats"],
            buy_in=data["buy_in"],
            fee=data["fee"],
            chips=data["chips"],
            levels=data["levels"],
            payouts=data["payouts"],
            bots=data["bots"],
            repeat=data["repeat"],
            actor=actor,
        )
    except ValueError as error:  # ConfigError is one: a sentence in words
        form.add_error(None, said(sentence_of(error)))
        return _page(request, form, status=400)
    messages.success(
        request, _("Tournament %(name)s is open for registration.") % {"name": tournament.name}
    )
    return redirect("operators-tournaments")


@operator_only
@require_POST
def tournament_cancel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Cancel a tournament that has not finished: first a page saying what is refunded, then,
    confirmed, the cancel itself (every entrant's buy-in and fee back)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    form = CancelForm(request.POST, auto_id=f"cancel_{tournament.pk}_%s")
    if not form.is_valid():
        messages.error(request, _("Give a reason: every operator action is logged with one."))
        return redirect("operators-tournaments")
    if tournament.status not in (TournamentStatus.REGISTERING, TournamentStatus.RUNNING):
        messages.error(
            request,
            _("%(name)s has already ended: there is nothing to cancel.")
            % {"name": tournament.name},
        )
        return redirect("operators-tournaments")
    reason = form.cleaned_data["reason"]
    if request.POST.get("confirmed") != "yes":
        entries = tournament.entries.filter(status__in=PAID).select_related("user")
        # What each gets back is what it paid: a house bot paid no fee (money.py entry_fee).
        refunds = [(entry, tournament.buy_in + entry_fee(tournament, entry)) for entry in entries]
        context = {
            "tournament": tournament,
            "reason": reason,
            "refunds": refunds,
            "total": sum(amount for _, amount in refunds),
        }
        return render(request, "operators/tournament_cancel.html", context)
    actor: User = request.user  # type: ignore[assignment]
    try:
        cancel_tournament(tournament_id=tournament.pk, reason=reason, actor=actor)
    except ValueError as error:
        messages.error(request, said(sentence_of(error)))
    else:
        messages.success(
            request,
            _("%(name)s is cancelled; every entrant got their buy-in and fee back.")
            % {"name": tournament.name},
        )
    return redirect("operators-tournaments")


@operator_only
@require_POST
def tournament_bots(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Seat house bots in a registering tournament: as many as its template allows that the
    free seats hold (each bot pays its buy-in as a player does, and no fee)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    try:
        seated = fill_with_bots(tournament_id=tournament.pk, count=tournament.seats)
    except ValueError as error:
        messages.error(request, said(sentence_of(error)))
        return redirect("operators-tournaments")
    if seated:
        text = ngettext(
            "%(count)d house bot registered for %(name)s.",
            "%(count)d house bots registered for %(name)s.",
            len(seated),
        ) % {"count": len(seated), "name": tournament.name}
        messages.success(request, text)
    else:
        messages.error(
            request,
            _("%(name)s has no seat left for a house bot.") % {"name": tournament.name},
        )
    return redirect("operators-tournaments")
