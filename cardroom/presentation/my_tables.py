"""The tables a player sits at, and where a decision of theirs is awaited: the "my tables"
strip of every page, its JSON (``/my-tables.json``) and the tiled view of several tables.

Read from the stored state with one query (the player's seats with their tables), never on a
table's push path. Only what the strip shows leaves here: each table's id, name, game, address,
whether it is the player's turn and the seconds left for it. No card, stack or other player's
data: the game's state is read only to ask its ``legal_actions`` for the player's own seat.

Contract: ``turn`` is true exactly when the table's clock runs (the game has a deadline and the
house has not paused or closed the table) and the player's seat has a decision among its legal
actions (not a control of the seat such as sitting out or leaving, nor sitting down): what the
table page shows as its countdown with a decision form of the player's (a Guts ante or declare,
a Three Card Poker bet or Play, a Chinese Poker hand to set).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from cardroom.models import Seat, Table, TableStatus
from cardroom.presentation import SEAT_CONTROLS
from cardroom.tables.engines import engine_for

__all__ = ["TILES", "MyTable", "my_tables", "tables_json"]

#: The most tables the tiled view shows at once: a 2×2 grid on a desktop.
TILES = 4

#: Actions that are no decision of a hand: the seat's own controls, and sitting down.
NOT_DECISIONS = SEAT_CONTROLS | {"sit"}

#: Table statuses whose clocks run (a paused or closed table awaits nobody).
CLOCK_RUNS = frozenset({TableStatus.OPEN, TableStatus.CLOSING})


@dataclass(frozen=True, slots=True)
class MyTable:
    """One table the player sits at, as the strip shows it."""

    id: int
    name: str
    game: str
    url: str
    #: A decision of the player's is awaited there now.
    turn: bool
    #: Whole seconds left for that decision (``None``: not their turn).
    seconds: int | None

    @property
    def time_left(self) -> str:
        """The seconds left as a clock shows them ("1:05"), or "" when none are counted."""
        if self.seconds is None:
            return ""
        return f"{self.seconds // 60}:{self.seconds % 60:02d}"

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "game": self.game,
            "url": self.url,
            "turn": self.turn,
            "seconds": self.seconds,
        }


def my_tables(user: User, *, now: datetime | None = None) -> list[MyTable]:
    """The tables ``user`` is seated at, the first joined first, each with its turn; one query."""
    if not user.is_authenticated:
        return []
    moment = (now or timezone.now()).timestamp()
    seats = (
        Seat.objects.filter(user=user, left__isnull=True)
        .select_related("table")
        .only("number", "table", "table__name", "table__game", "table__status", "table__state")
        .order_by("joined", "pk")
    )
    return [_my_table(seat.table, seat.number, moment) for seat in seats]


def _my_table(table: Table, number: int, moment: float) -> MyTable:
    seconds = _seconds_for_decision(table, number, moment)
    return MyTable(
        id=table.pk,
        name=table.name,
        game=str(table.get_game_display()),
        url=reverse("table", args=[table.pk]),
        turn=seconds is not None,
        seconds=seconds,
    )


def _seconds_for_decision(table: Table, number: int, moment: float) -> int | None:
    """The seconds left for the seat's decision, or ``None`` if none is awaited of it."""
    if table.status not in CLOCK_RUNS:
        return None
    game = engine_for(table.game).game
    state = game.load(table.state)
    deadline = game.deadline(state)
    if deadline is None:
        return None
    legal = game.legal_actions(state, number)
    if not any(action.get("kind") not in NOT_DECISIONS for action in legal):
        return None
    return max(0, math.ceil(deadline - moment))


def tables_json(user: User, *, now: datetime | None = None) -> dict[str, Any]:
    """``{"tables": [...]}``: each of :func:`my_tables` as its JSON, and ``tiled`` (the
    tiled view's address, or ``None`` while the player sits at fewer than two tables)."""
    tables = my_tables(user, now=now)
    return {
        "tables": [table.as_json() for table in tables],
        "tiled": reverse("tables-tiled") if len(tables) > 1 else None,
    }
