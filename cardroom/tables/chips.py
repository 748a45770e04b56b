"""A table that plays for a tournament's chips (``Table.plays_for_chips``): the runtime's rules
there, and the port the tournaments plug into.

Chips are not money: the runtime posts none of such a table's moves to the ledger (the money
moved when the players registered, and moves again when the tournament pays its places), and
keeps every other record of them (journal, history, events) as at any table. A player there was
seated by the tournament with its starting chips and stays until out of chips: they may not sit
down, top up or leave by themselves (:func:`chips_refusal`), and nothing of the house stands
them up either (the presence sweep, the responsible gaming flags): an away, excluded or
limited player sits out, their chips stay in play and the game keeps anteing them.

What happens when a hand is over (players out of chips take their places, the last one left
wins) is the tournaments' rule (cardroom/tournaments/play.py). That context sits above the
tables, so it plugs its hook in here once, from the app's ``ready`` (cardroom/apps.py), and the
runtime calls it through this module: the tables never import it. A chips table never plays
without it: until it is plugged in, the call raises RuntimeError.

The tournament's state (its level, stakes, places paid, prizes: docs/tournaments.md, "The JSON")
rides in a chips table's snapshots under ``tournament``, so a socket's frames carry it. The
tournaments plug in the one reader of it (``plug_tournament_of``); a snapshot read from the
database asks it (``tournament_of``), and the runtime asks it only for the versions that change
the tournament (``changes_tournament``: players seated at the start, placed as they leave, a
level raised, the table closed), once their transaction has committed
(``tournament_on_commit``): the tournament's row is written after the table's action in the
same transaction (a level: the table's lock first, then the tournament's), and at the start
before it is linked to its table at all. Every other action reads nothing more.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from django.db import transaction

from accounts.models import User
from cardroom.models import Hand, Seat, Table
from cardroom.tables.engines import Engine, TableState
from games.engine import JSON, Event
from games.words import Sentence, words

__all__ = [
    "CHIPS_REFUSED",
    "AtRest",
    "Settling",
    "TournamentOf",
    "changes_tournament",
    "chips_at_rest",
    "chips_refusal",
    "plug_at_rest",
    "plug_tournament_of",
    "tournament_of",
    "tournament_on_commit",
]

log = logging.getLogger(__name__)

#: The actions refused at a chips table, from anyone but the tournament itself.
CHIPS_REFUSED = frozenset({"sit", "top_up", "leave"})


def chips_refusal(kind: str) -> Sentence | None:
    """Why ``kind`` is refused at a chips table, in words; None for the actions allowed."""
    if kind == "sit":
        return words(
            "this is a tournament's table: register for the tournament in the lobby, and it"
            " seats its players itself when it starts"
        )
    if kind == "top_up":
        return words(
            "tournament chips cannot be topped up: every player started with the same chips"
        )
    if kind == "leave":
        return words(
            "a tournament's players stay until they are out of chips: sit out instead, and"
            " your chips stay in play"
        )
    return None


@dataclass(frozen=True, slots=True)
class Settling:
    """What the at-rest hook is given: the settling action's locked ``table``, its rules, the
    state it reached, its held ``seats`` and who sits where (``users``), the ``hand`` in play
    when the action came (the one that just ended, if it did: its row is not ended yet), the
    events recorded so far, and the action's moment (``now``; ``stamp`` as the rules read it)."""

    table: Table
    engine: Engine
    state: TableState
    seats: Mapping[int, Seat]
    users: Mapping[int, User]
    hand: Hand | None
    recorded: tuple[Event, ...]
    now: datetime
    stamp: float


class AtRest(Protocol):
    """The tournaments' hook: called by ``settle`` at a chips table after every action, before
    any deal. It may apply more actions (the busted players' ``leave``), appending each to
    ``journal`` and its events to ``recorded``, and returns the new state; to end the
    tournament it sets the table's status to closing, and the same settle stands everyone up
    and closes the table."""

    def __call__(
        self, settling: Settling, *, recorded: list[Event], journal: list[JSON]
    ) -> TableState: ...


class TournamentOf(Protocol):
    """The tournaments' reader: the state of the tournament that plays at table ``table_id``,
    as its JSON gives it (plain JSON), or None if none does."""

    def __call__(self, table_id: int) -> JSON | None: ...


#: The events after which a chips table's tournament is not as it was: its players seated
#: (the start), a player placed or the last one standing up (their leave), a level raised.
TOURNAMENT_EVENTS = frozenset({"player_sat", "player_left", "level_raised"})


class _Plugged:
    at_rest: AtRest | None = None
    tournament_of: TournamentOf | None = None


_plugged = _Plugged()


def plug_at_rest(hook: AtRest) -> None:
    """Plug the tournaments' hook in (once per process; a second call replaces it)."""
    _plugged.at_rest = hook


def chips_at_rest(settling: Settling, *, recorded: list[Event], journal: list[JSON]) -> TableState:
    hook = _plugged.at_rest
    if hook is None:
        raise RuntimeError("the tournaments' hook is not plugged in (cardroom/apps.py)")
    return hook(settling, recorded=recorded, journal=journal)


def plug_tournament_of(reader: TournamentOf) -> None:
    """Plug the tournaments' reader in (once per process; a second call replaces it)."""
    _plugged.tournament_of = reader


def tournament_of(table_id: int) -> JSON | None:
    """The state of the tournament that plays at ``table_id`` (None: none does)."""
    reader = _plugged.tournament_of
    if reader is None:
        raise RuntimeError("the tournaments' reader is not plugged in (cardroom/apps.py)")
    return reader(table_id)


def changes_tournament(events: Iterable[Event]) -> bool:
    """Whether a chips table's version of these events changed its tournament's state."""
    return any(event.type in TOURNAMENT_EVENTS for event in events)


def tournament_on_commit(table_id: int, snapshot: JSON) -> None:
    """Give ``snapshot`` its ``tournament`` once the transaction commits, before it is
    announced (the runtime asks for this before it asks for the announcement, and callbacks
    run in that order), and before anyone else holds it. A failed read is logged and leaves it
    out: every socket then keeps the tournament it had, and its next sync reads it again."""

    def fill() -> None:
        try:
            tournament = tournament_of(table_id)
        except Exception:
            log.exception("could not read the tournament of table %s", table_id)
            return
        if tournament is not None:
            snapshot["tournament"] = tournament

    transaction.on_commit(fill)
