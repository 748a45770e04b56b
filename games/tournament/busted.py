"""Who is out of a tournament: a player whose stack is 0 and who has nothing at stake in the
hand or round in play, read from the game's spectator view (``GAME.view(state, None)``).

The cardroom calls it at rest (after a hand ends); it may be called at any time, since a seat
with chips in play is never counted out:

- Guts (online): a seat with stack 0 is still in play while its status is ``in_round`` (all in:
  its chips are in the round's pot), ``in_hand``, ``owes`` (a loss not yet settled) or
  ``leaving`` (a hand it is dealt into is not over); ``waiting`` or ``sitting_out`` with no
  chips is out. A pot carried to the next round belongs to that round's players.
- Chinese Poker: a seat with stack 0 is never dealt in; one whose hand is being played (phase
  ``setting`` and a hand) is still in play.

>>> view = {"game": "guts", "phase": "pause", "seats": [
...     {"seat": 0, "stack": 0, "status": "waiting"},
...     {"seat": 1, "stack": 0, "status": "in_round"},
...     {"seat": 2, "status": "empty"},
...     {"seat": 3, "stack": 900, "status": "waiting"}]}
>>> busted_seats("guts", view)
[0]
>>> busted_seats("chinese_poker", {"phase": "pause", "seats": [
...     {"seat": 0, "stack": 0, "status": "seated", "hand_status": "submitted"},
...     {"seat": 1, "stack": 40, "status": "seated", "hand_status": "submitted"}]})
[0]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["GAME_NAMES", "busted_seats"]

#: The game names accepted (the table's ``game`` and the Game objects' ``name``).
GAME_NAMES: tuple[str, ...] = ("guts", "chinese_poker", "chinese-poker")

#: Guts statuses of a seat that has chips in play even with an empty stack.
_GUTS_AT_STAKE = frozenset({"in_round", "in_hand", "owes", "leaving"})


def busted_seats(game_name: str, view: Mapping[str, Any]) -> list[int]:
    """The seat numbers, in order, whose player is out of chips with nothing at stake.

    ``view`` is the game's spectator view. A game not played as a tournament is an error.
    """
    if game_name not in GAME_NAMES:
        raise ValueError(f"no tournament rule for the game {game_name!r}")
    busted: list[int] = []
    for seat in view.get("seats", ()):
        if seat.get("status") == "empty" or seat.get("stack", 0) != 0:
            continue
        if game_name == "guts":
            at_stake = seat.get("status") in _GUTS_AT_STAKE
        else:
            at_stake = view.get("phase") == "setting" and seat.get("hand_status") is not None
        if not at_stake:
            busted.append(int(seat["seat"]))
    return busted
