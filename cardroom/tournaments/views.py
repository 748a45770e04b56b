"""The players' tournament pages: the list, one tournament (page and JSON), registering and
unregistering, and the leaderboards (page and JSON).

The pages only read (selectors.py, leaderboard.py); registering calls the write side
(registration.py: ``register``, ``unregister``), whose refusals are sentences in words shown
to the player, inline in the lobby (htmx) or as a message after a plain form's redirect. The
results (lists, a tournament, leaderboards) are public: they name players by their public
names only, and a hand's replay still asks for a login.
"""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.language import said
from accounts.models import User
from cardroom.models import Game, Hand
from cardroom.models.tournaments import Tournament, TournamentStatus
from cardroom.tournaments.leaderboard import PERIODS, leaderboard, period_bounds
from cardroom.tournaments.registration import register, unregister
from cardroom.tournaments.selectors import (
    entrant_count,
    entrants,
    level_ends,
    level_stakes,
    lobby_tournaments,
    prize_pool,
    prizes_by_place,
    tournament_summary,
)
from games.words import sentence_of

__all__ = [
    "TOURNAMENT_GAMES",
    "leaderboards_json",
    "leaderboards_page",
    "lobby_section",
    "panel_context",
    "tournament_json",
    "tournament_page",
    "tournament_panel",
    "tournament_register",
    "tournament_rows",
    "tournament_unregister",
    "tournaments_page",
]

#: The games played as sit-and-gos (docs/tournaments.md says why the others are not).
TOURNAMENT_GAMES = (Game.GUTS, Game.CHINESE_POKER)
#: Finished and cancelled tournaments the list shows, newest first.
RECENT = 50
#: Hands a tournament's page lists, newest first.
HANDS_SHOWN = 500


def lobby_section(
    user: User | None, game: str = "", note: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The lobby's tournaments section: its rows and, after a register or unregister from the
    lobby, what came of it (``note``: the tournament's id, the words, and whether refused)."""
    # A game played at no sit-and-go lists none.
    shown = not game or game in TOURNAMENT_GAMES
    rows = lobby_tournaments(user=user, game=game) if shown else []
    return {"tournament_rows": rows, "tournament_note": note}


def tournaments_page(request: HttpRequest) -> HttpResponse:
    """The tournaments open or in play, then the latest finished or cancelled."""
    user = request.user if isinstance(request.user, User) else None
    done = Tournament.objects.filter(
        status__in=(TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
    ).order_by("-ended", "-id")[:RECENT]
    context = {**lobby_section(user), "done": list(done)}
    return render(request, "cardroom/tournaments.html", context)


def share_text(basis_points: int) -> str:
    """A payout share in percent, in the reader's language: 6500 → "65%", 3333 → "33.33%"."""
    return _("%(percent)s%%") % {"percent": number_format(Decimal(basis_points) / 100)}


def clock_text(deadline: datetime | None, now: datetime) -> str:
    """Time left to ``deadline`` as a clock shows it, "4:05" (minutes and seconds); static/
    js/tournament.js counts it down on the page."""
    if deadline is None:
        return ""
    seconds = max(0, int((deadline - now).total_seconds()))
    return f"{seconds // 60}:{seconds % 60:02d}"


def tournament_rows(request: HttpRequest) -> HttpResponse:
    """The lobby's tournament rows alone (``?game=``): the lobby and the list poll them."""
    user = request.user if isinstance(request.user, User) else None
    game = request.GET.get("game", "")
    context = {**lobby_section(user, game), "game": game, "back": request.GET.get("next", "")}
    return render(request, "cardroom/partials/_lobby_tournament_rows.html", context)


def _tournament(tournament_id: int) -> Tournament:
    return get_object_or_404(Tournament.objects.select_related("table"), pk=tournament_id)


def tournament_page(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """One tournament: its entrants and places, prizes, level and time left, table, hands."""
    tournament = _tournament(tournament_id)
    rows = entrants(tournament)
    pool = prize_pool(tournament, len(rows))
    level, stake, following = level_stakes(tournament)
    ends = level_ends(tournament)
    shares = [int(share) for share in tournament.payouts or []]
    hands: list[Hand] = []
    if tournament.table_id is not None:
        hands = list(
            Hand.objects.filter(table_id=tournament.table_id, ended__isnull=False)
            .only("number", "started", "ended", "table_id", "void_reason")
            .order_by("-number")[:HANDS_SHOWN]
        )
    entered = request.user.is_authenticated and any(
        entry.user_id == request.user.pk for entry in rows
    )
    context = {
        "tournament": tournament,
        "entrants": rows,
        "registered": len(rows),
        "pool": pool,
        "prizes": [
            (place, share_text(share), prize)
            for place, (share, prize) in enumerate(
                zip(shares, prizes_by_place(pool, shares), strict=True), start=1
            )
        ],
        "level": level,
        "stake": stake,
        "next_stake": following,
        "level_ends": ends,
        "left_text": clock_text(ends, timezone.now()),
        "hands": hands,
        "entered": entered,
        "running": tournament.status == TournamentStatus.RUNNING,
        "registering": tournament.status == TournamentStatus.REGISTERING,
    }
    return render(request, "cardroom/tournament.html", context)


def panel_context(tournament: Tournament) -> dict[str, Any]:
    """The table page's tournament panel: name, level and its stake, the next level's stake
    and the time left to it, places paid and their prizes (one query: the entrants' count)."""
    pool = prize_pool(tournament, entrant_count(tournament))
    level, stake, following = level_stakes(tournament)
    ends = level_ends(tournament)
    shares = [int(share) for share in tournament.payouts or []]
    return {
        "tournament": tournament,
        "level": level,
        "stake": stake,
        "next_stake": following,
        "level_ends": ends,
        "left_text": clock_text(ends, timezone.now()),
        "running": tournament.status == TournamentStatus.RUNNING,
        "places_paid": len(shares),
        "prizes": list(enumerate(prizes_by_place(pool, shares), start=1)),
    }


def tournament_panel(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """The panel alone: the table page polls it (htmx) to follow the levels."""
    tournament = _tournament(tournament_id)
    context = {"panel": panel_context(tournament)}
    return render(request, "cardroom/partials/_tournament_panel.html", context)


def tournament_json(request: HttpRequest, tournament_id: int) -> JsonResponse:
    """``tournament_summary`` of one tournament (docs/tournaments.md, "The JSON")."""
    return JsonResponse(tournament_summary(_tournament(tournament_id)))


def _registering(request: HttpRequest, tournament_id: int, *, join: bool) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    user: User = request.user  # type: ignore[assignment]
    service = register if join else unregister
    refused = False
    try:
        service(tournament_id=tournament.pk, user=user)
    except ValueError as refusal:
        refused = True
        text = said(sentence_of(refusal))
    else:
        if join:
            text = _("You are registered for %(name)s.") % {"name": tournament.name}
        else:
            text = _("You are no longer registered for %(name)s; your buy-in and fee are back.")
            text %= {"name": tournament.name}
    if request.headers.get("HX-Request") == "true":
        note = {"id": tournament.pk, "text": text, "refused": refused}
        context = lobby_section(user, request.POST.get("game", ""), note)
        context["back"] = request.POST.get("next", "")
        return render(request, "cardroom/partials/_tournament_answer.html", context)
    (messages.error if refused else messages.success)(request, text)
    target = request.POST.get("next", "")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = reverse("tournament", args=[tournament.pk])
    return redirect(target)


@login_required
@require_POST
def tournament_register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Register the player (their buy-in and fee leave their bankroll) or say why not."""
    return _registering(request, tournament_id, join=True)


@login_required
@require_POST
def tournament_unregister(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Take the player's registration back before the start (buy-in and fee refunded)."""
    return _registering(request, tournament_id, join=False)


def _board_query(request: HttpRequest) -> tuple[str, str, date, str]:
    """(game, period, day, error) from ``?game=&period=&at=``; bad values fall back to Guts,
    the week and today, with the error in words."""
    game = request.GET.get("game") or Game.GUTS
    period = request.GET.get("period") or "week"
    text = (request.GET.get("at") or "").strip()
    error = ""
    if game not in TOURNAMENT_GAMES:
        error = _("There is no leaderboard for that game; here is Guts'.")
        game = Game.GUTS
    if period not in PERIODS:
        error = _("A leaderboard covers a week or a month; here is this week's.")
        period = "week"
    day = timezone.now().date()
    if text:
        try:
            day = date.fromisoformat(text)
        except ValueError:
            # Translators: %(text)s is what was typed for the day.
            error = _("%(text)s is not a day: write YYYY-MM-DD, such as 2026-12-01.") % {
                "text": text
            }
    return game, period, day, error


def leaderboards_page(request: HttpRequest) -> HttpResponse:
    """A game's leaderboard for a week or a month, with the periods either side."""
    game, period, day, error = _board_query(request)
    bounds = period_bounds(period, day)
    context = {
        "rows": leaderboard(game=game, period=period, at=day),
        "game": game,
        "period": period,
        "bounds": bounds,
        "error": error,
        "games": [(value, label) for value, label in Game.choices if value in TOURNAMENT_GAMES],
    }
    return render(request, "cardroom/leaderboards.html", context)


def leaderboards_json(request: HttpRequest) -> JsonResponse:
    """The leaderboard as JSON: ``game``, ``period``, ``start``, ``end`` (the days, ``end``
    the last one included) and ``rows`` (``rank``, ``player``, ``points``, ``tournaments``,
    ``wins``, ``prizes`` in cents); a bad query is a 400 with ``error`` in words."""
    game, period, day, error = _board_query(request)
    if error:
        return JsonResponse({"error": error}, status=400)
    bounds = period_bounds(period, day)
    rows = leaderboard(game=game, period=period, at=day)
    return JsonResponse(
        {
            "game": game,
            "period": period,
            "start": bounds.start.date().isoformat(),
            "end": bounds.last_day.isoformat(),
            "rows": [
                {
                    "rank": row.rank,
                    "player": row.player,
                    "points": row.points,
                    "tournaments": row.tournaments,
                    "wins": row.wins,
                    "prizes": row.prizes,
                }
                for row in rows
            ],
        }
    )
