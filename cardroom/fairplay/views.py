"""The console's fair play page: the signals, newest first, and each one's review.

Operators only (``cardroom.operate_tables``; anyone else 403, a visitor is sent to log in).
``?kind=`` and ``?day=YYYY-MM-DD`` filter the list; ``?page=`` pages it. The page costs a
bounded number of queries whatever the number of signals: a page of them, their players and
reviewers joined, and the tables they name in one more.
"""

from __future__ import annotations

from datetime import date
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.language import said
from accounts.models import User
from accounts.money import format_cents
from cardroom.fairplay.review import signal_review
from cardroom.models import FairPlayKind, FairPlaySignal, Table
from cardroom.models.notes import MAX_NOTE_CHARS
from games.words import sentence_of

__all__ = ["fair_play_page", "fair_play_review"]

OPERATE = "cardroom.operate_tables"
PER_PAGE = 50


class ReviewForm(forms.Form):
    note = forms.CharField(
        label=gettext_lazy("What you found"),
        max_length=MAX_NOTE_CHARS,
        widget=forms.Textarea(attrs={"rows": 2}),
    )


def _sentence(signal: FairPlaySignal) -> str:
    """What the signal says, in a plain sentence."""
    a, b = signal.player_a.public_name, signal.player_b.public_name
    if signal.kind == FairPlayKind.ONE_WAY_FLOW:
        days = int(signal.details.get("days", 7))
        return _(
            "Over the %(days)s days to this day, %(a)s lost %(net)s more to %(b)s than the "
            "other way round, in %(hands)s hands together (%(percent)s%% of %(gross)s between "
            "them went that way)."
        ) % {
            "days": days,
            "a": a,
            "b": b,
            "net": format_cents(signal.net),
            "hands": signal.hands,
            "percent": signal.details.get("one_way_percent", 0),
            "gross": format_cents(signal.gross),
        }
    strength = signal.details.get("strength")
    if strength == "address_and_agent":
        return _(
            "%(a)s and %(b)s sat at one table at the same time and logged in from the same "
            "address with the same browser."
        ) % {"a": a, "b": b}
    if strength == "address":
        return _(
            "%(a)s and %(b)s sat at one table at the same time and logged in from the same address."
        ) % {"a": a, "b": b}
    return _(
        "%(a)s and %(b)s sat at one table at the same time and logged in with the same "
        "browser (the same user agent), from different addresses."
    ) % {"a": a, "b": b}


def _rows(signals: list[FairPlaySignal]) -> list[dict[str, Any]]:
    table_ids = {table for signal in signals for table in signal.tables}
    tables = Table.objects.in_bulk(table_ids) if table_ids else {}
    return [
        {
            "signal": signal,
            "sentence": _sentence(signal),
            "tables": [tables[pk] for pk in signal.tables if pk in tables],
            "form": ReviewForm(initial={"note": signal.note}, auto_id=f"review_{signal.pk}_%s"),
        }
        for signal in signals
    ]


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


@login_required
@permission_required(OPERATE, raise_exception=True)
def fair_play_page(request: HttpRequest) -> HttpResponse:
    """The signals, newest first; ``?kind=`` and ``?day=`` filter them."""
    kind = request.GET.get("kind", "")
    kind = kind if kind in FairPlayKind.values else ""
    day = _day(request.GET.get("day", "").strip())
    signals = FairPlaySignal.objects.select_related("player_a", "player_b", "reviewed_by")
    if kind:
        signals = signals.filter(kind=kind)
    if day:
        signals = signals.filter(day=day)
    page = Paginator(signals, PER_PAGE).get_page(request.GET.get("page"))
    context = {
        "page": page,
        "rows": _rows(list(page.object_list)),
        "kinds": FairPlayKind.choices,
        "kind": kind,
        "day": day,
        "query": request.GET.urlencode(),
    }
    return render(request, "operators/fair_play.html", context)


@login_required
@permission_required(OPERATE, raise_exception=True)
@require_POST
def fair_play_review(request: HttpRequest, signal_id: int) -> HttpResponse:
    """Mark a signal reviewed with the operator's note; logged (OperatorAction)."""
    signal = get_object_or_404(
        FairPlaySignal.objects.select_related("player_a", "player_b"), pk=signal_id
    )
    form = ReviewForm(request.POST, auto_id=f"review_{signal.pk}_%s")
    if form.is_valid():
        actor: User = request.user  # type: ignore[assignment]
        try:
            signal_review(actor=actor, signal=signal, note=form.cleaned_data["note"])
        except ValueError as error:
            messages.error(request, said(sentence_of(error)))
        else:
            messages.success(request, _("Review recorded."))
    else:
        messages.error(request, _("A review needs a note saying what you found."))
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}):
        return redirect(back)
    return redirect("operators-fair-play")
