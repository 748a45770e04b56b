"""The operator console: live tables, new tables, timers, seats, bots, and the operator log.

Every page needs a login and the ``cardroom.operate_tables`` permission (the Operators group);
the log also opens to anyone who may view it (Auditors). Views validate and call the
services in :mod:`cardroom.operators`; they never change a table themselves.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.language import said
from accounts.models import User
from cardroom.models import Game, OperatorAction, Seat, Table, TableStatus
from cardroom.models.waitlist import WaitingPlayer
from cardroom.operators import (
    operator_table_create,
    seat_remove,
    seat_sit_out,
    table_bots_change,
    table_play_change,
    table_timer_names,
    table_timers_change,
)
from cardroom.operators.forms import (
    BotsForm,
    PlayForm,
    SeatForm,
    TableCreateForm,
    TimersForm,
    house_edge,
)
from cardroom.operators.previews import play_preview
from cardroom.presentation import describe_table
from cardroom.tables.engines import PACKAGES, engine_for
from cardroom.tables.selectors import table_state
from games.engine import ConfigError
from games.words import sentence_of

__all__ = [
    "operator_log_page",
    "operators_home",
    "operators_rows",
    "table_bots",
    "table_console",
    "table_new",
    "table_play",
    "table_seat",
    "table_timers",
]

OPERATE = "cardroom.operate_tables"
View = Callable[..., HttpResponse]
#: The console's three forms share a page: each gets its own element ids.
TIMERS_ID, SEAT_ID, BOTS_ID, PLAY_ID = "timers_%s", "seat_%s", "bots_%s", "play_%s"


def operator_only(view: View) -> View:
    """A login (else the login page), then the operators' permission (else 403)."""
    return login_required(permission_required(OPERATE, raise_exception=True)(view))


def _live_row(table: Table) -> dict[str, Any]:
    """One table as the console lists it: the spectator's view, so no hidden card."""
    state = table_state(table=table, user_id=None)
    view = state["table"]
    # The table page's own words for the phase and each seat's status (a paused or closed
    # table says so in place of the phase), so the console never shows a code.
    described = describe_table(state)
    status_words = {entry["seat"]: entry.get("status_text", "") for entry in described["seats"]}
    bots = set(
        Seat.objects.filter(table=table, left__isnull=True, user__is_bot=True).values_list(
            "number", flat=True
        )
    )
    players = [
        {
            "seat": entry["seat"],
            "player": entry["player"],
            "stack": entry.get("stack", 0),
            "status": status_words.get(entry["seat"], ""),
            "online": entry.get("online", False),
            "bot": entry["seat"] in bots,
        }
        for entry in view.get("seats", [])
        if "player" in entry
    ]
    return {
        "table": table,
        "players": players,
        "seats": len(view.get("seats", [])),
        "pot": view.get("pot", 0),
        "phase": described["phase_words"],
        "bots_seated": len(bots),
    }


@operator_only
def operators_home(request: HttpRequest) -> HttpResponse:
    """The live tables: players, stacks, pot, phase, version, last activity and bots."""
    tables = Table.objects.exclude(status=TableStatus.CLOSED).order_by("id")
    rows = [_live_row(table) for table in tables]
    return render(request, "operators/home.html", {"rows": rows})


@operator_only
def operators_rows(request: HttpRequest) -> HttpResponse:
    """The live tables' rows alone: the home page polls them (htmx) to stay current."""
    tables = Table.objects.exclude(status=TableStatus.CLOSED).order_by("id")
    rows = [_live_row(table) for table in tables]
    return render(request, "operators/_live_rows.html", {"rows": rows})


@operator_only
def table_new(request: HttpRequest) -> HttpResponse:
    """A new table: first the game and preset, then every option, validated by the game."""
    game = request.GET.get("game", "")
    preset = request.GET.get("preset", "")
    if game not in PACKAGES or preset not in engine_for(game).presets:
        labels = dict(Game.choices)
        choices = [
            {"game": name, "label": labels.get(name, name), "presets": engine_for(name).presets}
            for name in PACKAGES
        ]
        return render(request, "operators/table_choose.html", {"choices": choices})
    # A preset changed on the page keeps what was typed in the fields every preset has.
    kept = {key: request.GET[key] for key in ("name", "bots", "reason") if key in request.GET}
    form = TableCreateForm(request.POST or None, game=game, preset=preset, initial=kept)
    presets = engine_for(game).presets
    context: dict[str, Any] = {"form": form, "game": game, "preset": preset, "presets": presets}
    if game == "three_card_poker":
        context["edge"] = house_edge(engine_for(game).make_config(preset, {}))
    if request.method != "POST":
        return render(request, "operators/table_new.html", context)
    if not form.is_valid():
        return render(request, "operators/table_new.html", context, status=400)
    edge = house_edge(form.config)
    if edge is not None:
        context["edge"] = edge
        shown = f"{edge['ante_bonus']}/{edge['pair_plus']}"
        # The house edge of the exact pay tables saved must have been on the page first.
        if request.POST.get("confirmed_edge") != shown:
            context["confirm_edge"] = shown
            return render(request, "operators/table_new.html", context)
    user: User = request.user  # type: ignore[assignment]
    try:
        table = operator_table_create(
            actor=user,
            game=game,
            preset=preset,
            options=form.option_values(),
            name=form.cleaned_data["name"],
            bots=form.cleaned_data["bots"],
            reason=form.cleaned_data["reason"],
        )
    except ConfigError as error:  # pragma: no cover (the form built the same config)
        form.add_error(None, said(sentence_of(error)))
        return render(request, "operators/table_new.html", context, status=400)
    messages.success(request, _("Table %(name)s is open.") % {"name": table.name})
    return redirect("operators-table", table_id=table.pk)


def _console(request: HttpRequest, table: Table, status: int = 200, **forms: Any) -> HttpResponse:
    timers = table_timer_names(table=table)
    context = {
        "row": _live_row(table),
        "table": table,
        "timers_form": forms.get("timers_form") or TimersForm(timers=timers, auto_id=TIMERS_ID),
        "seat_form": forms.get("seat_form") or SeatForm(auto_id=SEAT_ID),
        "play_form": forms.get("play_form") or PlayForm(auto_id=PLAY_ID),
        "bots_form": forms.get("bots_form")
        or BotsForm(initial={"bots": table.bots}, auto_id=BOTS_ID),
        "actions": OperatorAction.objects.filter(table=table).select_related("actor")[:20],
        # Who waits for a seat (cardroom/waitlist/): the demand for a full table, in order.
        "waiting": WaitingPlayer.objects.filter(table=table).select_related("user"),
        "now": timezone.now(),
    }
    return render(request, "operators/table.html", context, status=status)


@operator_only
def table_console(request: HttpRequest, table_id: int) -> HttpResponse:
    """One table: its live state, the operator's forms, and what operators did to it."""
    return _console(request, get_object_or_404(Table, pk=table_id))


def _operate(
    request: HttpRequest,
    table: Table,
    form: Any,
    form_key: str,
    act: Callable[[User, dict[str, Any]], str],
) -> HttpResponse:
    """The console's forms all go the same way: a valid form runs its service; a refusal
    (rules, ledger or runtime: each a ValueError with a reason) shows on the form; success
    says so and returns to the console."""
    if form.is_valid():
        try:
            done = act(_user(request), form.cleaned_data)
        except ValueError as error:
            # The refusal in the reader's language (the rules' sentences, games.words).
            form.add_error(None, said(sentence_of(error)))
        else:
            messages.success(request, done)
            return redirect("operators-table", table_id=table.pk)
    return _console(request, table, status=400, **{form_key: form})


@operator_only
@require_POST
def table_timers(request: HttpRequest, table_id: int) -> HttpResponse:
    """Change the table's timers (between hands only)."""
    table = get_object_or_404(Table, pk=table_id)
    form = TimersForm(request.POST, timers=table_timer_names(table=table), auto_id=TIMERS_ID)

    def act(actor: User, data: dict[str, Any]) -> str:
        timers = form.changed_timers()
        table_timers_change(actor=actor, table_id=table.pk, timers=timers, reason=data["reason"])
        return _("Timers changed.")

    return _operate(request, table, form, "timers_form", act)


@operator_only
@require_POST
def table_seat(request: HttpRequest, table_id: int) -> HttpResponse:
    """Sit a player out or remove them (the game decides when)."""
    table = get_object_or_404(Table, pk=table_id)

    def act(actor: User, data: dict[str, Any]) -> str:
        service = seat_sit_out if data["action"] == "sit_out" else seat_remove
        done = service(actor=actor, table_id=table.pk, seat=data["seat"], reason=data["reason"])
        # Translators: %(action)s is what was done, such as "Player sat out".
        done_words = _("%(action)s: seat %(seat)s.")
        return done_words % {"action": done.get_kind_display(), "seat": done.details["seat"]}

    form = SeatForm(request.POST, auto_id=SEAT_ID)
    return _operate(request, table, form, "seat_form", act)


@operator_only
@require_POST
def table_bots(request: HttpRequest, table_id: int) -> HttpResponse:
    """Change how many seats house bots keep filled."""
    table = get_object_or_404(Table, pk=table_id)

    def act(actor: User, data: dict[str, Any]) -> str:
        table_bots_change(actor=actor, table_id=table.pk, bots=data["bots"], reason=data["reason"])
        return _("Bots: %(bots)s.") % {"bots": data["bots"]}

    form = BotsForm(request.POST, auto_id=BOTS_ID)
    return _operate(request, table, form, "bots_form", act)


@operator_only
@require_POST
def table_play(request: HttpRequest, table_id: int) -> HttpResponse:
    """Pause, resume or close the table, or void the hand in play."""
    table = get_object_or_404(Table, pk=table_id)
    form = PlayForm(request.POST, auto_id=PLAY_ID)
    if form.is_valid() and form.cleaned_data["action"] in CONFIRMED:
        # Close and void move money: first a page that says exactly what moves (a dry run of
        # the same change), then the change itself, only if it would still move just that.
        seen = request.POST.get("confirmed_preview", "")
        what, reason = form.cleaned_data["action"], form.cleaned_data["reason"]
        try:
            preview = play_preview(table_id=table.pk, what=what, reason=reason)
        except ValueError as error:
            form.add_error(None, said(sentence_of(error)))
            return _console(request, table, status=400, play_form=form)
        if seen != preview.key:
            context = {"table": table, "what": what, "reason": reason, "preview": preview}
            context["changed"] = bool(seen)
            return render(request, "operators/table_confirm.html", context)

    def act(actor: User, data: dict[str, Any]) -> str:
        what, reason = data["action"], data["reason"]
        done = table_play_change(actor=actor, table_id=table.pk, what=what, reason=reason)
        return f"{done.get_kind_display()}."

    return _operate(request, table, form, "play_form", act)


#: The changes that move money, confirmed on a page that previews every movement first.
CONFIRMED = frozenset({"close", "void"})


def _user(request: HttpRequest) -> User:
    user: User = request.user  # type: ignore[assignment]
    return user


@login_required
def operator_log_page(request: HttpRequest) -> HttpResponse:
    """Every operator action, newest first: for operators and auditors."""
    if not request.user.has_perm("cardroom.view_operatoraction"):
        raise PermissionDenied
    actions = OperatorAction.objects.select_related("actor", "table")[:500]
    return render(request, "operators/log.html", {"actions": actions})
