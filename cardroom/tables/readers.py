"""Who may read a hand's event, fixed when the runtime records it (``HandEvent.readers``;
the history reads it back, cardroom/history/history.py)."""

from __future__ import annotations

from collections.abc import Collection, Mapping

__all__ = ["event_readers"]


def event_readers(
    *, private_to: int | None, audience: Collection[int] | None, users: Mapping[int, int]
) -> list[int] | None:
    """The ids of the users who may read an event, ``None`` when everyone may.

    ``users`` maps each seat to its player's id when the event is recorded. An event for a
    group (``audience``) is for the players of those seats; one private to a seat, for that
    seat's player; one private to nobody yet (``HIDDEN``), for no one.

    >>> event_readers(private_to=None, audience=None, users={0: 7}) is None
    True
    >>> event_readers(private_to=1, audience=None, users={0: 7, 1: 8})
    [8]
    >>> event_readers(private_to=-1, audience=[1, 0], users={0: 7, 1: 8})
    [7, 8]
    >>> event_readers(private_to=-1, audience=None, users={0: 7})
    []
    """
    if audience is not None:
        seats = set(audience)
    elif private_to is not None:
        seats = {private_to}
    else:
        return None
    return sorted({users[seat] for seat in seats if seat in users})
