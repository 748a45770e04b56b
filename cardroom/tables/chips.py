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
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from accounts.models import User
from cardroom.models import Hand, Seat, Table
from cardroom.tables.engines import Engine, TableState
from games.engine import JSON, Event
from games.words import Sentence, words

__all__ = [
    "CHIPS_REFUSED",
    "AtRest",
    "Settling",
    "chips_at_rest",
    "chips_refusal",
    "plug_at_rest",
]

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


class _Plugged:
    at_rest: AtRest | None = None


_plugged = _Plugged()


def plug_at_rest(hook: AtRest) -> None:
    """Plug the tournaments' hook in (once per process; a second call replaces it)."""
    _plugged.at_rest = hook


def chips_at_rest(settling: Settling, *, recorded: list[Event], journal: list[JSON]) -> TableState:
    hook = _plugged.at_rest
    if hook is None:
        raise RuntimeError("the tournaments' hook is not plugged in (cardroom/apps.py)")
    return hook(settling, recorded=recorded, journal=journal)
