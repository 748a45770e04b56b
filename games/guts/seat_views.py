"""What every Guts table shows of a seat: its entry in the view and the seat's own actions.

>>> from types import SimpleNamespace
>>> from games.guts.table import Seat
>>> limits = SimpleNamespace(min_buy_in=10000, max_buy_in=20000)
>>> sit_actions(limits)
[{'kind': 'sit', 'min': 10000, 'max': 20000}]
>>> seat_actions(limits, Seat("ann", 15000), in_hand=False)
[{'kind': 'top_up', 'min': 1, 'max': 5000}, {'kind': 'sit_out'}, {'kind': 'leave'}]
>>> seat_entry(2, Seat("ann", 15000), "waiting", card_count=0)["status"]
'waiting'
"""

from __future__ import annotations

from typing import Any

from games.guts.checks import BuyInLimits
from games.guts.table import Seat

__all__ = ["seat_actions", "seat_entry", "sit_actions"]

JSON = dict[str, Any]


def sit_actions(config: BuyInLimits) -> list[JSON]:
    """The legal actions at an empty seat: sitting down, within the buy-in limits."""
    return [{"kind": "sit", "min": config.min_buy_in, "max": config.max_buy_in}]


def seat_actions(config: BuyInLimits, player: Seat, *, in_hand: bool) -> list[JSON]:
    """A seated player's own actions, after the game's: top up (between hands, below the
    limit), sit out or in, leave (unless already leaving)."""
    actions: list[JSON] = []
    if not in_hand:
        room = None if config.max_buy_in is None else config.max_buy_in - player.stack
        if room is None or room > 0:
            actions.append({"kind": "top_up", "min": 1, "max": room})
    actions.append({"kind": "sit_in" if player.sitting_out else "sit_out"})
    if not player.leaving:
        actions.append({"kind": "leave"})
    return actions


def seat_entry(index: int, player: Seat, status: str, *, card_count: int) -> JSON:
    """The public part of an occupied seat's entry in the view; each table adds its own keys."""
    return {
        "seat": index,
        "player": player.player,
        "stack": player.stack,
        "status": status,
        "sitting_out": player.sitting_out,
        "connected": player.connected,
        "card_count": card_count,
    }
