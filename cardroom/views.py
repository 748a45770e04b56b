"""The cardroom's pages: the front page, the lobby and the table."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import get_object_or_404, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from django.views.decorators.clickjacking import xframe_options_sameorigin

from accounts.models import User
from accounts.money import counting_chips
from cardroom.chat import chat_panel
from cardroom.history.history import hand_history, seat_names
from cardroom.history.past_hands import drawn
from cardroom.history.replayer import hand_replay
from cardroom.models import Game, Hand, Table, TableStatus
from cardroom.models.tournaments import Tournament
from cardroom.presentation.house_rules import house_rules
from cardroom.presentation.howto import GAME_PAGES
from cardroom.presentation.pages import table_page_context
from cardroom.presentation.payment_words import payment_words
from cardroom.storage.payments import hand_payments
from cardroom.tournaments.views import lobby_section
from cardroom.tournaments.views import panel_context as tournament_panel_context
from cardroom.waitlist.services import Place, places_by_table
from cardroom.waitlist.views import panel_context

#: The front page's games: name, blurb and the table game (``Game``) whose rules page the
#: tile opens (two of Guts' variants share one page).
GAMES = (
    (
        # Translators: a game's name: keep "Monte Carlo" and "Guts" as they are.
        _("Monte Carlo Guts"),
        # Translators: "In" and "Out" are the declares; keep "Guts" names as they are.
        _("Three cards, In or Out at once; every loser matches the pot."),
        Game.GUTS,
    ),
    (
        # Translators: a game's name: keep "Survivor" and "Guts" as they are.
        _("Survivor Guts"),
        # Translators: keep "Monte Carlo" as it is; "In" is the declare.
        _("As Monte Carlo, but only the lowest hand In pays."),
        Game.GUTS,
    ),
    (
        # Translators: a game's name: keep "Guts" as it is.
        _("Classic Guts"),
        # Translators: keep "Hi-Lo" and "3-5-7" as they are (house rules' names).
        _("The home game with its house rules: ghost hands, Hi-Lo, 3-5-7 and more."),
        Game.CLASSIC_GUTS,
    ),
    (
        _("Chinese Poker"),
        _("Thirteen cards set into three rows, scored pair by pair."),
        Game.CHINESE_POKER,
    ),
    (
        _("Three Card Poker"),
        # Translators: Ante, Play and Pair Plus are the bets' names: keep them as they are.
        _("Ante, Play and Pair Plus against the house."),
        Game.THREE_CARD_POKER,
    ),
)

#: Stakes filters of the lobby: name → (lowest, highest) headline stake in cents.
STAKES = {"micro": (0, 25), "low": (26, 100), "mid": (101, 500), "high": (501, 10**12)}
#: The filters as the lobby names them (the names above stay in its URLs).
STAKE_NAMES = {
    "micro": pgettext_lazy("stakes", "Micro"),
    "low": pgettext_lazy("stakes", "Low"),
    "mid": pgettext_lazy("stakes", "Mid"),
    "high": pgettext_lazy("stakes", "High"),
}


def home(request: HttpRequest) -> HttpResponse:
    """The front page: what the cardroom offers, and the lobby for players. Each game's tile
    opens its rules page (anyone may read the rules; the lobby asks for a login)."""
    games = [
        {"name": name, "blurb": blurb, "url": reverse("howto-page", args=[GAME_PAGES[game]])}
        for name, blurb, game in GAMES
    ]
    return render(request, "cardroom/home.html", {"games": games})


@login_required
def lobby(request: HttpRequest) -> HttpResponse:
    """Open tables with game, stakes, seats and pot; filtered by game and stakes (htmx); and
    the sit-and-go tournaments open or in play."""
    # A tournament's table is listed with its tournament (its stacks are chips), not here.
    tables = (
        Table.objects.exclude(status=TableStatus.CLOSED)
        .filter(plays_for_chips=False)
        .annotate(taken=Count("seats", filter=Q(seats__left__isnull=True)))
    )
    game = request.GET.get("game", "")
    if game in Game.values:
        tables = tables.filter(game=game)
    stakes = request.GET.get("stakes", "")
    if stakes in STAKES:
        low, high = STAKES[stakes]
        tables = tables.filter(stakes__gte=low, stakes__lte=high)
    listed = list(tables)
    user: User = request.user  # type: ignore[assignment]
    now = timezone.now()
    places = places_by_table(user=user, table_ids=[table.pk for table in listed], now=now)
    rows = [
        {
            "table": table,
            # The wait list: the player's Place in line, or how many wait (0: no line).
            "wait": places.get(table.pk, 0),
            "taken": table.taken,
            "seats": len(table.state.get("seats", ())),
            "pot": table.state.get("pot", 0),
            "house_rules": house_rules(table) if table.game == "classic_guts" else [],
            # A preview before joining: who sits there and with what. Only the name and the
            # stack are read from the stored state (it also holds cards, never shown here).
            "players": [
                {"name": seat["player"], "stack": seat.get("stack", 0)}
                for seat in table.state.get("seats", ())
                if isinstance(seat, dict) and seat.get("player")
            ],
        }
        for table in listed
    ]
    offers = [
        {"row": row, "seconds": int((row["wait"].offered_until - now).total_seconds())}
        for row in rows
        if isinstance(row["wait"], Place) and row["wait"].offered_until
    ]
    context = {
        "rows": rows,
        "offers": offers,
        "games": Game.choices,
        "stakes": STAKES,
        # (name, words) of each stakes filter: the option's value and what it shows.
        "stake_choices": [(name, STAKE_NAMES[name]) for name in STAKES],
        "game": game,
        "stake": stakes,
        # The sit-and-gos open or in play, of the game chosen (cardroom/tournaments/).
        **lobby_section(user, game),
    }
    partial = context["partial"] = request.headers.get("HX-Request") == "true"
    template = "cardroom/partials/_lobby_rows.html" if partial else "cardroom/lobby.html"
    return render(request, template, context)


@xframe_options_sameorigin  # a tile of the tiled view frames it, from this site only
@login_required
def table_page(request: HttpRequest, table_id: int) -> HttpResponse:
    """One table, drawn from the same partials the socket pushes."""
    table = get_object_or_404(Table, pk=table_id)
    user: User = request.user  # type: ignore[assignment]
    # A sit-and-go's table counts chips: every amount of the table is drawn as chips.
    with counting_chips(table.plays_for_chips):
        context = table_page_context(table=table, user=user)
        context["wait"] = panel_context(table, user)
        context["chat"] = chat_panel(table_id=table.pk, user_id=user.pk)
        context["viewer_id"] = user.pk
        # A sit-and-go's table shows its tournament: drawn here, then polled (not pushed: the
        # live path reads nothing more for it).
        tournament = (
            Tournament.objects.filter(table=table).first() if table.plays_for_chips else None
        )
        context["tournament_panel"] = tournament_panel_context(tournament) if tournament else None
        return render(request, "cardroom/table.html", context)


@login_required
def hand_page(request: HttpRequest, table_id: int, number: int) -> HttpResponse:
    """One hand's history as this user may read it, with the openings that prove its deck and
    every payment of the hand as the ledger recorded it (``payments``: money is public)."""
    hand = get_object_or_404(Hand.objects.select_related("table"), table_id=table_id, number=number)
    # A sit-and-go's hand counts chips: its amounts are drawn as chips.
    with counting_chips(hand.table.plays_for_chips):
        user: User = request.user  # type: ignore[assignment]
        names = seat_names(hand=hand)
        history = {
            **hand_history(hand=hand, user_id=user.pk, names=names),
            "payments": hand_payments(hand),
        }
        if request.GET.get("format") == "json":
            return JsonResponse(history)
        said = [payment_words(payment) for payment in history["payments"]]
        # The page leads with the hand's outcome: the replay's last step (who sat, the cards this
        # user may see, each seat's net), built from the same redacted history, so it shows no
        # card the events below would not.
        replay = hand_replay(
            hand=hand,
            user_id=user.pk,
            history=history,
            payments=history["payments"],
            names=names,
        )
        context = {
            "history": history,
            "table": hand.table,
            # A sit-and-go's hand names its tournament (one query, at its tables only).
            "tournament": (
                Tournament.objects.filter(table_id=table_id).first()
                if hand.table.plays_for_chips
                else None
            ),
            "payments_said": said,
            "outcome": drawn(replay.steps[-1]),
        }
        return render(request, "cardroom/hand.html", context)


def favicon(request: HttpRequest) -> HttpResponse:
    """The icon where browsers look for it; resolved per request, since the static files'
    manifest names it by its hash in production."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))
