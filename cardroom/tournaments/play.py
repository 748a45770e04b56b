"""A sit-and-go in play: its start, the places taken hand by hand, the finish and its prizes.

``start`` opens the tournament's table (``plays_for_chips``: cardroom/tables/chips.py) and
seats every entrant through the runtime with the starting chips, in the order they registered
(seat 1 first; the game's own rule then gives the first button). The level clock starts with
it (cardroom/tournaments/levels.py).

:func:`at_rest` is the runtime's hook at a tournament's table (plugged in from
cardroom/apps.py): after every action that leaves the table between hands, in that action's
transaction, the players out of chips (the game's rule: a stack of 0 with nothing at stake in
the hand or round in play) take their places and leave the table; players out in the same hand
are placed by their chips when it began, and equal chips tie (games/tournament/places.py).
When one player is left, they win: the prize pool is paid out by the tournament's shares
(a tie shares the prizes of the places it spans: games/tournament/payouts.py), each entry gets
its place's leaderboard points, the table closes, and the tournament is finished. Nothing else
(the tournament's row, the ledger) is read at an action unless a player is out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from accounts.models import User
from cardroom.models import Entry, EntryStatus, Table, TableStatus, Tournament, TournamentStatus
from cardroom.tables.chips import Settling
from cardroom.tables.engines import TableState
from cardroom.tables.runtime import table_create, table_seat_chips
from cardroom.tournaments.money import pay_prizes
from cardroom.tournaments.templates import repeat_of, table_options
from games.engine import JSON, Event, IllegalAction
from games.tournament.busted import busted_seats
from games.tournament.payouts import award
from games.tournament.places import eliminations
from games.tournament.points import points

__all__ = ["at_rest", "level_stake", "start"]


def level_stake(tournament: Tournament, level: int) -> int:
    """The stake (chips) of ``level`` (0: the first)."""
    return int(tournament.levels[level]["ante"])


def level_minutes(tournament: Tournament, level: int) -> int:
    return int(tournament.levels[level]["minutes"])


def level_deadline(tournament: Tournament, level: int, since: datetime) -> datetime | None:
    """When ``level``, begun at ``since``, ends; None for the last level, which never does."""
    if level >= len(tournament.levels) - 1:
        return None
    return since + timedelta(minutes=level_minutes(tournament, level))


def start(*, tournament: Tournament, now: datetime | None = None) -> Table:
    """Start ``tournament`` (its row locked by the caller, every seat taken): its table, every
    entrant seated with the starting chips (entries PLAYING, with their seat), level 0 and its
    deadline; a repeating tournament opens its copy for registration now."""
    now = now or timezone.now()
    options = table_options(
        tournament.game, tournament.seats, level_stake(tournament, 0), tournament.options
    )
    table = table_create(
        game=tournament.game,
        preset=tournament.preset,
        options=options,
        name=f"{tournament.name} #{tournament.pk}"[:80],
        plays_for_chips=True,
    )
    entries = list(
        Entry.objects.filter(tournament=tournament, status=EntryStatus.REGISTERED)
        .select_related("user")
        .order_by("registered", "pk")
    )
    for number, entry in enumerate(entries):
        table_seat_chips(
            table_id=table.pk, user=entry.user, seat=number, stack=tournament.chips, now=now
        )
        entry.status = EntryStatus.PLAYING
        entry.seat = number
        entry.save(update_fields=["status", "seat"])
    tournament.status = TournamentStatus.RUNNING
    tournament.table = table
    tournament.started = now
    tournament.level = 0
    tournament.level_deadline = level_deadline(tournament, 0, now)
    tournament.save(update_fields=["status", "table", "started", "level", "level_deadline"])
    if tournament.repeat:
        repeat_of(tournament)
    return table


def _hand_over(settling: Settling) -> bool:
    """The action left the table between hands, or ended a hand."""
    return settling.engine.at_rest(settling.state) or any(
        event.type == "hand_ended" for event in settling.recorded
    )


def at_rest(settling: Settling, *, recorded: list[Event], journal: list[JSON]) -> TableState:
    """The runtime's hook at a tournament's table (see the module): the players out of chips
    leave with their places, and the last one left wins. Returns the table's new state."""
    state = settling.state
    if not _hand_over(settling):
        return state
    game = settling.engine.game
    view = game.view(state, None)
    seats = view["seats"]
    out = busted_seats(settling.table.game, view)
    left = [entry["seat"] for entry in seats if "player" in entry]
    if not out and len(left) > 1:
        return state
    tournament = (
        Tournament.objects.select_for_update()
        .filter(table_id=settling.table.pk, status=TournamentStatus.RUNNING)
        .first()
    )
    if tournament is None:  # still being seated, or over
        return state
    playing = {
        entry.seat: entry
        for entry in Entry.objects.filter(tournament=tournament, status=EntryStatus.PLAYING)
    }
    gone: list[int] = []
    for number in out:
        action: JSON = {"kind": "leave", "seat": number, "now": settling.stamp}
        try:
            state, events = game.apply(state, action)
        except IllegalAction:
            continue  # the game keeps them for now (the hand is not over for them)
        journal.append(action)
        recorded.extend(events)
        gone.append(number)
    _place(tournament, settling, [playing[n] for n in gone if n in playing], len(playing))
    remaining = [playing[n] for n in playing if n not in gone]
    if len(remaining) <= 1:
        _finish(tournament, settling, remaining)
    return state


def _start_stacks(settling: Settling) -> dict[int, int]:
    """Each seat's chips when the hand began: the table's last point between hands."""
    table = settling.table
    if table.rest_state is None:
        return {}
    game = settling.engine.game
    view = game.view(game.load(table.rest_state), None)
    return {
        entry["seat"]: int(entry.get("stack") or 0) for entry in view["seats"] if "player" in entry
    }


def _place(
    tournament: Tournament, settling: Settling, out: Sequence[Entry], field_left: int
) -> None:
    """The entries ``out`` in one hand take their places among the ``field_left`` players
    still in before it, with their points."""
    if not out:
        return
    stacks = _start_stacks(settling)
    by_key = {entry.pk: entry for entry in out}
    groups = eliminations([(entry.pk, stacks.get(entry.seat or 0, 0)) for entry in out], field_left)
    entrants = _entrants(tournament)
    hand = settling.hand if settling.hand is not None and settling.hand.pk else None
    for place, keys in groups:
        for key in keys:
            entry = by_key[key]
            entry.status = EntryStatus.ELIMINATED
            entry.place = place
            entry.points = points(place, entrants)
            entry.eliminated = settling.now
            entry.eliminated_in = hand
            entry.save(update_fields=["status", "place", "points", "eliminated", "eliminated_in"])


def _entrants(tournament: Tournament) -> int:
    return Entry.objects.filter(
        tournament=tournament,
        status__in=(EntryStatus.PLAYING, EntryStatus.ELIMINATED, EntryStatus.WON),
    ).count()


def _finish(tournament: Tournament, settling: Settling, remaining: Sequence[Entry]) -> None:
    """The last player left wins: the prizes are paid by the shares (ties share theirs), the
    entries get their prizes and points, the table closes (the runtime stands its last player
    up in this same action) and the tournament is finished."""
    entrants = _entrants(tournament)
    for entry in remaining:
        entry.status = EntryStatus.WON
        entry.place = 1
        entry.points = points(1, entrants)
        entry.save(update_fields=["status", "place", "points"])
    placed = list(
        Entry.objects.filter(
            tournament=tournament, status__in=(EntryStatus.WON, EntryStatus.ELIMINATED)
        ).order_by("place", "pk")
    )
    groups: dict[int, list[int]] = {}
    for entry in placed:
        groups.setdefault(entry.place or entrants, []).append(entry.pk)
    finishes = [groups[place] for place in sorted(groups)]
    pool = tournament.buy_in * entrants
    prizes: Mapping[Any, int] = award(pool, tuple(tournament.payouts), finishes)
    by_key = {entry.pk: entry for entry in placed}
    paid = {by_key[key]: int(amount) for key, amount in prizes.items() if int(amount) > 0}
    pay_prizes(tournament, paid)
    for entry, amount in paid.items():
        entry.prize = amount
        entry.save(update_fields=["prize"])
    tournament.status = TournamentStatus.FINISHED
    tournament.ended = settling.now
    tournament.level_deadline = None
    tournament.save(update_fields=["status", "ended", "level_deadline"])
    # The runtime stops a closing table at once between hands: its last player stands up
    # (their chips go nowhere: they are not money) and the table is closed.
    settling.table.status = TableStatus.CLOSING


def winner(tournament: Tournament) -> User | None:
    """The tournament's winner, if it is over."""
    entry = Entry.objects.filter(tournament=tournament, status=EntryStatus.WON).first()
    return entry.user if entry else None
