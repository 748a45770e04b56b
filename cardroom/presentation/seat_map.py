"""Every seat of a table placed around the felt, as the table page draws it (the seat map).

The felt is a grid of three columns; the seats go round its edge clockwise, in seat order,
from the bottom middle, where the viewer's own seat is drawn (seat 0 when the viewer is not
seated), as players see themselves at a real table. The middle cells are left to the pot.
A grid rather than points on an ellipse: a seat's box grows with its cards and notes without
covering its neighbours, on a phone as on a desk.
"""

from __future__ import annotations

from typing import Any

from accounts.money import format_cents

__all__ = ["initials", "seat_map"]

#: The grid cells (row, column) of n seats, clockwise from the bottom middle. Rows are counted
#: from the top; three rows up to eight seats, four for nine and ten.
CELLS: dict[int, list[tuple[int, int]]] = {
    1: [(3, 2)],
    2: [(3, 2), (1, 2)],
    3: [(3, 2), (1, 1), (1, 3)],
    4: [(3, 2), (2, 1), (1, 2), (2, 3)],
    5: [(3, 2), (2, 1), (1, 1), (1, 3), (2, 3)],
    6: [(3, 2), (2, 1), (1, 1), (1, 2), (1, 3), (2, 3)],
    7: [(3, 2), (3, 1), (2, 1), (1, 1), (1, 3), (2, 3), (3, 3)],
    8: [(3, 2), (3, 1), (2, 1), (1, 1), (1, 2), (1, 3), (2, 3), (3, 3)],
    9: [(4, 2), (4, 1), (3, 1), (2, 1), (1, 1), (1, 3), (2, 3), (3, 3), (4, 3)],
    10: [(4, 2), (4, 1), (3, 1), (2, 1), (1, 1), (1, 2), (1, 3), (2, 3), (3, 3), (4, 3)],
}

#: A seat's chips on the table (Three Card Poker's bets; any game's ``bet`` or ``committed``).
COMMITTED_FIELDS = ("ante", "pair_plus", "play", "bet", "committed")


def initials(name: str) -> str:
    """The avatar's letters: the first of the first two words ("Ann Lee" → "AL"), else the
    first two letters ("ann" → "AN")."""
    words = [word for word in name.replace("_", " ").replace(".", " ").split() if word]
    if len(words) >= 2:
        return (words[0][0] + words[1][0]).upper()
    return (words[0][:2] if words else "?").upper()


def _side(row: int, column: int, rows: int) -> str:
    """Which edge of the felt a cell is on: its chips are drawn on the side facing the pot."""
    if row == rows:
        return "bottom"
    if row == 1:
        return "top"
    return "left" if column == 1 else "right"


def _committed(entry: dict[str, Any]) -> int:
    return sum(
        value
        for name in COMMITTED_FIELDS
        if isinstance(value := entry.get(name), int) and not isinstance(value, bool)
    )


def seat_map(
    view_seats: list[dict[str, Any]], seated: list[dict[str, Any]], you: int | None
) -> dict[str, Any]:
    """The felt's places: ``view_seats`` (the view's every seat, empty ones too) drawn with the
    described ``seated`` entries, turned so that seat ``you`` is at the bottom. Returns
    ``{"rows": ..., "places": [...]}``, each place the seated entry (or ``{"seat": n,
    "open": True}``) with its ``row``, ``column``, ``side``, ``number`` (from 1, as words
    say seats), ``initials`` and ``committed_text``."""
    numbers = [entry["seat"] for entry in view_seats if isinstance(entry.get("seat"), int)]
    if not numbers or len(numbers) > max(CELLS):
        return {"rows": 0, "places": []}
    by_number = {entry["seat"]: entry for entry in seated}
    start = numbers.index(you) if you in numbers else 0
    cells = CELLS[len(numbers)]
    rows = max(row for row, _ in cells)
    places = []
    for turn, (row, column) in enumerate(cells):
        number = numbers[(start + turn) % len(numbers)]
        entry = by_number.get(number)
        place: dict[str, Any] = entry if entry is not None else {"seat": number, "open": True}
        committed = _committed(entry) if entry is not None else 0
        place.update(
            row=row,
            column=column,
            side=_side(row, column, rows),
            number=number + 1,
            initials=initials(str(place.get("player", ""))) if entry is not None else "",
            committed_text=format_cents(committed) if committed else "",
        )
        places.append(place)
    return {"rows": rows, "places": places}
