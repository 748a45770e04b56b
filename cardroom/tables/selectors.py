"""Reads of tables: what one viewer may see, in the JSON protocol's shape."""

from __future__ import annotations

from cardroom.models import Seat, Table
from cardroom.tables.snapshots import Frame, snapshot_from_db, state_frame

__all__ = ["seat_of", "table_state"]


def seat_of(*, table: Table, user_id: int | None) -> int | None:
    """The seat number ``user_id`` holds at ``table``, if any."""
    if user_id is None:
        return None
    return (
        Seat.objects.filter(table=table, user_id=user_id, left__isnull=True)
        .values_list("number", flat=True)
        .first()
    )


def table_state(*, table: Table, user_id: int | None) -> Frame:
    """The ``state`` message for one viewer, read from the database (see cardroom.tables.snapshots).

    The game's view is the only source of cards, so nothing hidden can reach the viewer.
    """
    return state_frame(snapshot_from_db(table), user_id)
