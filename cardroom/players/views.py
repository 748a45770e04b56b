"""The console's player pages: the search, and one player's page with the operators' actions.

Operators (``cardroom.operate_tables``) read and act; auditors (``cardroom.read_audit``) read
only; everyone else is refused (403; a visitor is sent to log in). The player page costs a
bounded number of queries whatever the player's history: every list on it is cut to its
newest rows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from axes.models import AccessAttempt
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.language import said
from accounts.lockouts import lockout_of
from accounts.models import LoginSession, User
from accounts.selectors import bankroll_balance, bankroll_statement
from cardroom.chat.bans import ban_in_force
from cardroom.history.export import player_hands
from cardroom.models import Exclusion, OperatorAction, PlayerLimits, PlayerNote, Seat
from cardroom.models.responsible import LimitName
from cardroom.operators.log_words import action_words
from cardroom.players import player_note_add, player_search
from cardroom.players.forms import ExcludeForm, LiftForm, NoteForm
from cardroom.responsible.services import exclusion_kind_for, exclusion_lift, exclusion_record
from cardroom.responsible.terms import limit_value_words
from games.words import sentence_of

__all__ = ["player_exclude", "player_lift", "player_note", "player_page", "players_page"]

OPERATE = "cardroom.operate_tables"
READ = "cardroom.read_audit"
#: Players on one page of the search; rows of each list on the player page.
PER_PAGE = 50
RECENT = 20

View = Callable[..., HttpResponse]


def _reader(view: View) -> View:
    """A login (else the login page), then operators' or auditors' permission (else 403)."""

    def check(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not (request.user.has_perm(OPERATE) or request.user.has_perm(READ)):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    check.__doc__, check.__name__ = view.__doc__, view.__name__
    return login_required(check)


def _operator(view: View) -> View:
    """A login, then the operators' permission: auditors read the page but do not act."""

    def check(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.has_perm(OPERATE):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    check.__doc__, check.__name__ = view.__doc__, view.__name__
    return login_required(require_POST(check))


@_reader
def players_page(request: HttpRequest) -> HttpResponse:
    """``?q=`` finds players by name or e-mail (any case, any part); ``?page=`` pages them."""
    query = request.GET.get("q", "").strip()[:150]
    page = Paginator(player_search(query), PER_PAGE).get_page(request.GET.get("page"))
    return render(request, "operators/players.html", {"page": page, "query": query})


def _context(request: HttpRequest, user: User, **forms: Any) -> dict[str, Any]:
    now = timezone.now()
    limits = PlayerLimits.objects.filter(user=user).first()
    exclusions = Exclusion.objects.filter(user=user).select_related("recorded_by", "lifted_by")
    statement = bankroll_statement(user=user, limit=RECENT)
    hands = player_hands(user.pk).select_related("table").reverse()[:RECENT]
    actions = OperatorAction.objects.filter(details__player=user.username)
    return {
        "player": user,
        "may_act": request.user.has_perm(OPERATE),
        "balance": bankroll_balance(user=user),
        "statement": statement,
        "hands": list(hands),
        "seats": Seat.objects.filter(user=user, left__isnull=True).select_related("table"),
        "limits": [
            (str(LimitName(name).label), limit_value_words(name, value))
            for name, value in (limits.limits_in_force().items() if limits else ())
        ],
        "pending_from": limits.pending_from if limits else None,
        "exclusions": [
            {"row": e, "in_force": e.in_force(now), "liftable": e.liftable(now)}
            for e in exclusions[:RECENT]
        ],
        "sessions": LoginSession.objects.filter(user=user, ended=None).order_by("-last_seen")[
            :RECENT
        ],
        "lockout": lockout_of(username=user.username, address=None),
        "attempts": AccessAttempt.objects.filter(username=user.username).order_by("-attempt_time")[
            :RECENT
        ],
        "chat_ban": ban_in_force(user_id=user.pk, now=now),
        "notes": PlayerNote.objects.filter(user=user).select_related("by")[:RECENT],
        "actions": [
            (action, action_words(action))
            for action in actions.select_related("actor", "table")[:RECENT]
        ],
        "note_form": forms.get("note_form") or NoteForm(auto_id="note_%s"),
        "exclude_form": forms.get("exclude_form") or ExcludeForm(auto_id="exclude_%s"),
    }


@_reader
def player_page(request: HttpRequest, user_id: int) -> HttpResponse:
    """One player: money, hands, seats, limits and exclusions, logins, chat and staff notes."""
    user = get_object_or_404(User, pk=user_id)
    return render(request, "operators/player.html", _context(request, user))


def _actor(request: HttpRequest) -> User:
    actor: User = request.user  # type: ignore[assignment]
    return actor


@_operator
def player_note(request: HttpRequest, user_id: int) -> HttpResponse:
    """Add a staff note about the player; logged."""
    user = get_object_or_404(User, pk=user_id)
    form = NoteForm(request.POST, auto_id="note_%s")
    if form.is_valid():
        try:
            player_note_add(actor=_actor(request), user=user, text=form.cleaned_data["text"])
        except ValueError as error:
            form.add_error("text", said(sentence_of(error)))
        else:
            messages.success(request, _("Note added."))
            return redirect("operators-player", user_id=user.pk)
    context = _context(request, user, note_form=form)
    return render(request, "operators/player.html", context, status=400)


@_operator
def player_exclude(request: HttpRequest, user_id: int) -> HttpResponse:
    """Record a time-out or a self-exclusion at the player's request, as ``manage.py exclude``
    does (the same service: the same checks, the player stood up, the operator log)."""
    user = get_object_or_404(User, pk=user_id)
    form = ExcludeForm(request.POST, auto_id="exclude_%s")
    if form.is_valid():
        days = form.cleaned_data["days"]
        try:
            exclusion_record(
                user=user,
                days=days,
                kind=exclusion_kind_for(days),
                reason=form.cleaned_data["reason"],
                by=_actor(request),
                now=timezone.now(),
                support=True,
            )
        except ValueError as error:
            form.add_error(None, said(sentence_of(error)))
        else:
            messages.success(
                request, _("Exclusion recorded for %(player)s.") % {"player": user.public_name}
            )
            return redirect("operators-player", user_id=user.pk)
    context = _context(request, user, exclude_form=form)
    return render(request, "operators/player.html", context, status=400)


@_operator
def player_lift(request: HttpRequest, user_id: int, exclusion_id: int) -> HttpResponse:
    """Lift the player's self-exclusion once its period is over (the service refuses sooner)."""
    user = get_object_or_404(User, pk=user_id)
    get_object_or_404(Exclusion, pk=exclusion_id, user=user)
    form = LiftForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say why the self-exclusion is lifted."))
        return redirect("operators-player", user_id=user.pk)
    try:
        exclusion_lift(
            exclusion_id=exclusion_id,
            by=_actor(request),
            reason=form.cleaned_data["reason"],
            now=timezone.now(),
        )
    except ValueError as error:
        messages.error(request, said(sentence_of(error)).capitalize() + ".")
    else:
        lifted = _("The self-exclusion of %(player)s is lifted.")
        messages.success(request, lifted % {"player": user.public_name})
    return redirect("operators-player", user_id=user.pk)
