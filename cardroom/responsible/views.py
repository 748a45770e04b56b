"""The player's limits page, the table's reality check, and the house's read-only overview.

``/accounts/limits/``: the limits in force with what is used of each, pending increases and
when they take effect, the reality-check interval, a time-out and a self-exclusion (each asked
twice, the second time after the page has said plainly what will happen), and every change.
``/operators/responsible/``: who is excluded or limited and every change, for operators and
auditors; operators lift a self-exclusion there once its period is over.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from accounts.language import said
from accounts.models import User
from accounts.money import format_cents
from cardroom.models.responsible import (
    BUY_IN_LIMITS,
    LIMITS,
    LOSS_LIMITS,
    Exclusion,
    ExclusionKind,
    LimitChange,
    LimitName,
    PlayerLimits,
)
from cardroom.responsible.forms import (
    SELF_EXCLUSION_CHOICES,
    TIME_OUT_CHOICES,
    ExclusionForm,
    LiftForm,
    LimitsForm,
)
from cardroom.responsible.limits import (
    apply_due_changes,
    limit_request,
    limits_locked,
    reality_interval_set,
)
from cardroom.responsible.services import (
    exclusion_lift,
    exclusion_record,
    reality_acknowledge,
    reality_check,
    tables_leave,
)
from cardroom.responsible.terms import (
    INCREASE_DELAY,
    date_words,
    duration_words,
    limit_value_words,
    moment_words,
)
from cardroom.responsible.usage import usage_of
from games.words import sentence_of

__all__ = [
    "exclusion_request",
    "leave_tables",
    "lift_exclusion",
    "limits_page",
    "reality_keep",
    "reality_status",
    "responsible_overview",
]

READ = "cardroom.view_exclusion"
OPERATE = "cardroom.operate_tables"


def _user(request: HttpRequest) -> User:
    user: User = request.user  # type: ignore[assignment]
    return user


def _row(user: User, now: datetime) -> PlayerLimits | None:
    """The player's row with every change that has come due applied."""
    row = PlayerLimits.objects.filter(user=user).first()
    if row is not None and row.pending_from is not None and row.pending_from <= now:
        with transaction.atomic():
            row = limits_locked(user)
            apply_due_changes(row, now)
    return row


def _pending(user: User) -> dict[str, LimitChange]:
    changes = LimitChange.objects.filter(user=user, applied__isnull=True, cancelled__isnull=True)
    return {change.limit: change for change in changes}


def _limit_rows(
    row: PlayerLimits | None, pending: dict[str, LimitChange], now: datetime
) -> list[dict[str, Any]]:
    usage = usage_of(user_id=row.user_id, now=now) if row is not None else None
    rows = []
    for name in LIMITS:
        value = getattr(row, name, None)
        used = None
        if usage is not None and name in (*LOSS_LIMITS, *BUY_IN_LIMITS):
            window = name.rsplit("_", 1)[1]
            amount = (usage.lost if name in LOSS_LIMITS else usage.bought)[window]
            if amount >= 0:
                used = format_cents(amount)
            else:
                # Translators: nothing used of a loss limit: the player is up %(amount)s.
                used = _("none (up %(amount)s)") % {"amount": format_cents(-amount)}
        change = pending.get(name)
        rows.append(
            {
                "name": name,
                "label": str(LimitName(name).label).capitalize(),
                "value": limit_value_words(name, value),
                "used": used,
                "pending": limit_value_words(name, change.after) if change else None,
                "pending_at": change.effective if change else None,
            }
        )
    return rows


def _change_rows(changes: Any) -> list[dict[str, Any]]:
    return [
        {
            "change": change,
            "before": limit_value_words(change.limit, change.before),
            "after": limit_value_words(change.limit, change.after),
        }
        for change in changes
    ]


def _exclusions_in_force(user: User, now: datetime) -> list[Exclusion]:
    return [e for e in Exclusion.objects.filter(user=user) if e.in_force(now)]


def _page(request: HttpRequest, status: int = 200, **extra: Any) -> HttpResponse:
    user, now = _user(request), timezone.now()
    row = _row(user, now)
    pending = _pending(user)
    context = {
        "limits": _limit_rows(row, pending, now),
        "form": extra.pop("form", None)
        or LimitsForm(row=row, pending={name: c.after for name, c in pending.items()}),
        "time_out_choices": TIME_OUT_CHOICES,
        "self_exclusion_choices": SELF_EXCLUSION_CHOICES,
        "excluded": _exclusions_in_force(user, now),
        "changes": _change_rows(LimitChange.objects.filter(user=user)[:50]),
        "history": Exclusion.objects.filter(user=user)[:20],
        "reality_minutes": row.reality_minutes if row else 60,
        "delay_hours": int(INCREASE_DELAY.total_seconds() // 3600),
        **extra,
    }
    return render(request, "accounts/limits.html", context, status=status)


@login_required
def limits_page(request: HttpRequest) -> HttpResponse:
    """The limits, reality check and exclusions; a POST changes the limits."""
    if request.method != "POST":
        return _page(request)
    user, now = _user(request), timezone.now()
    row = _row(user, now)
    pending = {name: change.after for name, change in _pending(user).items()}
    form = LimitsForm(request.POST, row=row, pending=pending)
    if not form.is_valid():
        return _page(request, status=400, form=form)
    lines = []
    for name, value in form.requested().items():
        change = limit_request(user=user, limit=name, value=value, now=now)
        label = str(LimitName(name).label).capitalize()
        if change is None:
            if name in pending:
                # Translators: %(limit)s is a limit's name, such as "Daily loss limit".
                cancelled = _("%(limit)s: the change waiting is cancelled.")
                lines.append(cancelled % {"limit": label})
        elif change.applied is not None:
            # Translators: %(limit)s is a limit's name, %(value)s its new value.
            at_once = _("%(limit)s: %(value)s, from now.")
            lines.append(at_once % {"limit": label, "value": limit_value_words(name, value)})
        else:
            later = _(
                # Translators: %(limit)s is a limit's name, %(value)s its new value, %(moment)s
                # a date and time such as "2026-12-02 14:05 UTC".
                "%(limit)s: %(value)s from %(moment)s (a higher limit, or none, waits 24 hours)."
            )
            lines.append(
                later
                % {
                    "limit": label,
                    "value": limit_value_words(name, value),
                    "moment": moment_words(change.effective),
                }
            )
    minutes = form.cleaned_data["reality_minutes"]
    if "reality_minutes" in form.changed_data and reality_interval_set(
        user=user, minutes=minutes, now=now
    ):
        # Translators: %(duration)s is a duration such as "1 hour 30 minutes".
        every = _("A reality check every %(duration)s.")
        lines.append(every % {"duration": said(duration_words(minutes))})
    for line in lines or [_("Nothing changed.")]:
        messages.success(request, line)
    return redirect("limits")


@login_required
@require_POST
def exclusion_request(request: HttpRequest) -> HttpResponse:
    """A time-out or a self-exclusion: first the page says what will happen, then, confirmed,
    it is recorded."""
    form = ExclusionForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose one of the lengths offered."))
        return redirect("limits")
    user, now = _user(request), timezone.now()
    kind, days = form.cleaned_data["kind"], form.cleaned_data["days"]
    if not form.cleaned_data["confirmed"]:
        end = now + timedelta(days=days)
        return _page(
            request,
            confirm={
                "kind": kind,
                "days": days,
                "length": form.length_words(),
                "self": kind == ExclusionKind.SELF_EXCLUSION,
                # A moment: the page writes it as every moment (the |moment filter).
                "until": end,
                "until_date": date_words(end),
            },
        )
    try:
        done = exclusion_record(
            user=user, days=days, kind=kind, reason="asked for on the limits page", by=user, now=now
        )
    except ValueError as error:
        messages.error(request, said(sentence_of(error)).capitalize() + ".")
        return redirect("limits")
    until = moment_words(done.exclusion.end)
    if kind == ExclusionKind.SELF_EXCLUSION:
        # Translators: %(until)s is a date and time such as "2026-12-02 14:05 UTC".
        in_force = _("Your self-exclusion is in force until %(until)s.")
    else:
        # Translators: %(until)s is a date and time such as "2026-12-02 14:05 UTC".
        in_force = _("Your time-out is in force until %(until)s.")
    messages.success(request, in_force % {"until": until})
    return redirect("limits")


def _next(request: HttpRequest) -> str:
    wanted = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()}):
        return wanted
    return "/accounts/limits/"


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@login_required
@require_POST
def leave_tables(request: HttpRequest) -> HttpResponse:
    """ "Leave my tables": stood up at the end of each hand in play (at once where none is)."""
    now_up, later = tables_leave(user=_user(request), now=timezone.now())
    if later:
        words = ngettext(
            # Translators: %(later)s is how many more tables the player leaves when their hand
            # ends.
            "You left %(count)s table now and leave %(later)s more at the end of the hand in play.",
            "You left %(count)s tables now and leave %(later)s more at the end of the hand in"
            " play.",
            now_up,
        )
    else:
        words = ngettext("You left %(count)s table now.", "You left %(count)s tables now.", now_up)
    words = words % {"count": now_up, "later": later}
    if _wants_json(request):
        return JsonResponse({"left_now": now_up, "leaving": later, "message": words})
    messages.success(request, words)
    return redirect(_next(request))


@login_required
@require_GET
def reality_status(request: HttpRequest) -> JsonResponse:
    """The reality check as the table's dialog shows it (static/js/reality.js)."""
    now = timezone.now()
    check = reality_check(user=_user(request), now=now)
    data: dict[str, Any] = {
        "in_session": check.in_session,
        "due": check.due,
        "interval_minutes": check.interval_minutes,
    }
    if check.in_session and check.next_check is not None:
        data.update(
            {
                "started": check.started.isoformat() if check.started else None,
                "played": said(duration_words(check.played_seconds // 60)),
                "played_seconds": check.played_seconds,
                "net_cents": check.net_cents,
                "net": ("+" if check.net_cents > 0 else "") + format_cents(check.net_cents),
                "next_check": check.next_check.isoformat(),
                "next_check_in_seconds": max(0, int((check.next_check - now).total_seconds())),
            }
        )
    return JsonResponse(data)


@login_required
@require_POST
def reality_keep(request: HttpRequest) -> HttpResponse:
    """ "Keep playing": the next check comes a full interval from now."""
    reality_acknowledge(user=_user(request), now=timezone.now())
    if _wants_json(request):
        return JsonResponse({"ok": True})
    return redirect(_next(request))


@login_required
def responsible_overview(request: HttpRequest) -> HttpResponse:
    """Who is excluded or limited, and every change with its time (read-only; operators may
    lift a self-exclusion whose period is over)."""
    if not request.user.has_perm(READ):
        raise PermissionDenied
    now = timezone.now()
    exclusions = list(Exclusion.objects.select_related("user", "recorded_by", "lifted_by")[:500])
    limited = [
        row
        for row in PlayerLimits.objects.select_related("user").order_by("user__username")
        if row.limits_in_force() or row.pending_from
    ]
    context = {
        "exclusions": [
            {"row": e, "in_force": e.in_force(now), "liftable": e.liftable(now)} for e in exclusions
        ],
        "limited": [
            {
                "row": row,
                "limits": [
                    (str(LimitName(name).label), limit_value_words(name, value))
                    for name, value in row.limits_in_force().items()
                ],
            }
            for row in limited
        ],
        "changes": _change_rows(LimitChange.objects.select_related("user", "by")[:500]),
        "may_lift": request.user.has_perm(OPERATE),
        "lift_form": LiftForm(),
    }
    return render(request, "operators/responsible.html", context)


@login_required
@require_POST
def lift_exclusion(request: HttpRequest, exclusion_id: int) -> HttpResponse:
    """The house lifts a self-exclusion whose period is over (logged with its reason)."""
    if not request.user.has_perm(OPERATE):
        raise PermissionDenied
    form = LiftForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Say why the self-exclusion is lifted."))
        return redirect("operators-responsible")
    try:
        exclusion = exclusion_lift(
            exclusion_id=exclusion_id,
            by=_user(request),
            reason=form.cleaned_data["reason"],
            now=timezone.now(),
        )
    except Exclusion.DoesNotExist:
        messages.error(request, _("There is no such exclusion."))
    except ValueError as error:
        messages.error(request, said(sentence_of(error)).capitalize() + ".")
    else:
        lifted = _("The self-exclusion of %(player)s is lifted.")
        messages.success(request, lifted % {"player": exclusion.user})
    return redirect("operators-responsible")
