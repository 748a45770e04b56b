"""The time bank on the table page: each seat's reserve, and the countdown while a bank runs.

The game's view gives each seat at a table with a time bank its ``time_bank`` (seconds left),
``on_time_bank`` and, while it runs, ``time_bank_ends`` (games/time_bank.py). The page's ring
counts down to the viewer's own bank when they are on it (several players may be at once),
else to the table's deadline, and is drawn as a time bank when that deadline is a bank's.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from django.utils.translation import gettext

__all__ = ["seat_time_bank", "time_bank_ring"]


def seat_time_bank(entry: Mapping[str, Any]) -> dict[str, Any]:
    """A seat's reserve in words ("time bank 30 s"); nothing at a table without a bank."""
    left = entry.get("time_bank")
    if isinstance(left, bool) or not isinstance(left, (int, float)):
        return {}
    # Translators: a player's reserve of seconds once their decision timer runs out.
    text = gettext("time bank %(seconds)s s") % {"seconds": math.ceil(left)}
    return {"time_bank_text": text}


def _moment(timestamp: Any) -> str | None:
    if isinstance(timestamp, bool) or not isinstance(timestamp, (int, float)):
        return None
    return datetime.fromtimestamp(timestamp, tz=UTC).isoformat()


def time_bank_ring(
    seats: Sequence[Mapping[str, Any]], mine: Mapping[str, Any] | None, deadline: Any
) -> dict[str, Any]:
    """The ring's ``deadline`` (the viewer's own bank's end when they are on it) and whether
    it is a time bank that runs (``time_bank``)."""
    if deadline is None:
        return {"deadline": None, "time_bank": False}
    if mine is not None and mine.get("on_time_bank"):
        own = _moment(mine.get("time_bank_ends"))
        return {"deadline": own or deadline, "time_bank": True}
    return {"deadline": deadline, "time_bank": any(seat.get("on_time_bank") for seat in seats)}
