"""The wait list from the lobby and the table page: join, leave, and see one's place."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from cardroom.models import Seat, Table
from cardroom.waitlist.services import (
    WaitListError,
    free_seats,
    places_by_table,
    wait_list_join,
    wait_list_leave,
)


def panel_context(table: Table, user: User, error: str = "") -> dict[str, object]:
    """What the table page's wait-list panel shows this player (two queries)."""
    now = timezone.now()
    place = places_by_table(user=user, table_ids=[table.pk], now=now).get(table.pk, 0)
    seated = Seat.objects.filter(table=table, user=user, left__isnull=True).exists()
    waiting = place if isinstance(place, int) else place.waiting
    offer = None if isinstance(place, int) else place.offered_until
    return {
        "place": None if isinstance(place, int) else place,
        "waiting": waiting,
        "full": not free_seats(table),
        "seated": seated,
        "error": error,
        # Whole seconds left to take an offered seat (the panel is drawn again every 5 s).
        "seconds": int((offer - now).total_seconds()) if offer else 0,
    }


def _panel(request: HttpRequest, table: Table, user: User, error: str = "") -> HttpResponse:
    context = {"table": table, "wait": panel_context(table, user, error)}
    return render(request, "cardroom/partials/_wait_list.html", context)


@login_required
def wait_list_panel(request: HttpRequest, table_id: int) -> HttpResponse:
    """The panel alone, polled by the table page while the player watches a full table."""
    table = get_object_or_404(Table, pk=table_id)
    user: User = request.user  # type: ignore[assignment]
    return _panel(request, table, user)


def _back(request: HttpRequest, table: Table) -> HttpResponse:
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = ""
    return redirect(target or "table", *([] if target else [table.pk]))


@login_required
@require_POST
def wait_list_join_view(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    user: User = request.user  # type: ignore[assignment]
    error = ""
    try:
        place = wait_list_join(table_id=table.pk, user=user)
        # Translators: %(position)s is the player's place in line, %(table)s a table's name.
        done = _("You are number %(position)s in line for %(table)s.") % {
            "position": place.position,
            "table": table.name,
        }
    except WaitListError as refusal:
        error = done = str(refusal)
    if request.headers.get("HX-Request") == "true":
        table.refresh_from_db()
        return _panel(request, table, user, error)
    (messages.error if error else messages.success)(request, done)
    return _back(request, table)


@login_required
@require_POST
def wait_list_leave_view(request: HttpRequest, table_id: int) -> HttpResponse:
    table = get_object_or_404(Table, pk=table_id)
    user: User = request.user  # type: ignore[assignment]
    left = wait_list_leave(table_id=table.pk, user=user)
    if request.headers.get("HX-Request") == "true":
        return _panel(request, table, user)
    if left:
        left_words = _("You left the wait list of %(table)s.")
        messages.success(request, left_words % {"table": table.name})
    return _back(request, table)
