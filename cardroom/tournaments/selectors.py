"""What the pages and the JSON read of tournaments (docs/tournaments.md, "The JSON").

``tournament_summary`` is the API's shape of one tournament, which the sockets of its table
carry too (``table_tournament``, plugged into cardroom/tables/chips.py); ``lobby_tournaments``
the lobby's list. Both read a bounded number of queries whatever the number of tournaments or
entrants: the tournament, its entries with their players joined, and (for the lobby) one query
for the list with its counts and the viewer's entry annotated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet

from accounts.models import User
from cardroom.models.tournaments import Entry, EntryStatus, Tournament, TournamentStatus
from games.tournament.payouts import prize_table

__all__ = [
    "LobbyTournament",
    "entrant_count",
    "level_stakes",
    "lobby_tournaments",
    "prize_pool",
    "prizes_by_place",
    "table_tournament",
    "tournament_summary",
]

#: Entries that count as entrants: everyone who registered and did not take it back (a
#: cancelled tournament's refunded entries still name who was in it).
ENTERED = (
    EntryStatus.REGISTERED,
    EntryStatus.PLAYING,
    EntryStatus.ELIMINATED,
    EntryStatus.WON,
    EntryStatus.REFUNDED,
)
#: The tournaments the lobby lists: open for registration, or in play.
LISTED = (TournamentStatus.REGISTERING, TournamentStatus.RUNNING)


def entrant_count(tournament: Tournament) -> int:
    """How many registered (one query, unless annotated as ``registered_count``)."""
    annotated = getattr(tournament, "registered_count", None)
    if annotated is not None:
        return int(annotated)
    return tournament.entries.filter(status__in=ENTERED).count()


def prize_pool(tournament: Tournament, entrants: int) -> int:
    """The prize pool in cents: every entrant's buy-in (the fees are the house's); none
    once cancelled (every buy-in went back)."""
    if tournament.status == TournamentStatus.CANCELLED:
        return 0
    return tournament.buy_in * entrants


def prizes_by_place(pool: int, shares: Sequence[int]) -> list[int]:
    """The pool split by the shares (basis points), in cents by place: the prize table the
    finish pays by (``games.tournament.payouts.prize_table``), shown before it ends.

    >>> prizes_by_place(6000, [6500, 3500])
    [3900, 2100]
    """
    return list(prize_table(pool, [int(share) for share in shares])) if shares else []


def level_stakes(tournament: Tournament) -> tuple[int, int | None, int | None]:
    """(the level shown, 1-based; its stake; the next level's stake or None at the last)."""
    levels = list(tournament.levels or [])
    index = min(tournament.level, max(len(levels) - 1, 0))
    stake = int(levels[index]["ante"]) if levels else None
    following = int(levels[index + 1]["ante"]) if index + 1 < len(levels) else None
    return index + 1, stake, following


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def level_ends(tournament: Tournament) -> datetime | None:
    """When the level in play ends: only while running, and never for the last level."""
    if tournament.status != TournamentStatus.RUNNING:
        return None
    following = level_stakes(tournament)[2]
    return tournament.level_deadline if following is not None else None


def _entrant_order(entry: Entry) -> tuple[int, int, datetime]:
    # Players still in first, then by finishing place; the earlier registered first.
    place = entry.place
    return (0 if place is None else 1, place or 0, entry.registered)


def entrants(tournament: Tournament) -> list[Entry]:
    """The tournament's entries (not those taken back), players joined, in the order shown:
    those still in, then by place (one query)."""
    rows = tournament.entries.filter(status__in=ENTERED).select_related("user")
    return sorted(rows, key=_entrant_order)


def tournament_summary(tournament: Tournament) -> dict[str, Any]:
    """One tournament as the JSON gives it (docs/tournaments.md, "The JSON"): two queries.

    ``buy_in``, ``fee``, ``prize_pool``, ``prizes`` and each entrant's ``prize`` are cents;
    ``chips``, ``stake`` and ``next_stake`` are chips; ``level`` counts from 1;
    ``level_ends`` is ISO 8601 (UTC) while a level with a next one is in play, else null.
    """
    rows = entrants(tournament)
    pool = prize_pool(tournament, len(rows))
    level, stake, following = level_stakes(tournament)
    shares = list(tournament.payouts or [])
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "game": tournament.game,
        "preset": tournament.preset,
        "status": tournament.status,
        "seats": tournament.seats,
        "registered": len(rows),
        "buy_in": tournament.buy_in,
        "fee": tournament.fee,
        "prize_pool": pool,
        "chips": tournament.chips,
        "level": level,
        "stake": stake,
        "next_stake": following,
        "level_ends": _iso(level_ends(tournament)),
        "places_paid": len(shares),
        "prizes": prizes_by_place(pool, shares),
        "entrants": [
            {
                "player": entry.user.public_name,
                "status": entry.status,
                "place": entry.place,
                "prize": entry.prize,
                "points": entry.points,
            }
            for entry in rows
        ],
        "table": tournament.table_id,
    }


def table_tournament(table_id: int) -> dict[str, Any] | None:
    """``tournament_summary`` of the tournament played at table ``table_id``, None if none is:
    what its socket frames carry under ``tournament`` (cardroom/tables/chips.py). Two
    queries."""
    tournament = Tournament.objects.filter(table_id=table_id).first()
    return None if tournament is None else tournament_summary(tournament)


@dataclass(frozen=True, slots=True)
class LobbyTournament:
    """A lobby row: the tournament, how many registered, and whether the viewer is in."""

    tournament: Tournament
    registered: int
    entered: bool

    @property
    def full(self) -> bool:
        return self.registered >= self.tournament.seats


def lobby_tournaments(*, user: User | None = None, game: str = "") -> list[LobbyTournament]:
    """The tournaments open for registration or in play (of ``game``, if named), the ones
    registering first, oldest first: one query, whatever their number."""
    listed: QuerySet[Tournament] = Tournament.objects.filter(status__in=LISTED)
    if game:
        listed = listed.filter(game=game)
    listed = listed.annotate(
        registered_count=Count("entries", filter=Q(entries__status__in=ENTERED))
    )
    if user is not None:
        mine = Entry.objects.filter(tournament=OuterRef("pk"), user=user, status__in=ENTERED)
        listed = listed.annotate(entered=Exists(mine))
    rows = sorted(
        listed,
        key=lambda t: (t.status != TournamentStatus.REGISTERING, t.pk),
    )
    return [
        LobbyTournament(
            tournament=row,
            registered=int(row.registered_count),
            entered=bool(getattr(row, "entered", False)),
        )
        for row in rows
    ]
