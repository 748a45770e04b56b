"""Leaderboard points for a tournament finish.

The formula: ``10 × (entrants − place + 1)`` points, that is 10 points for taking part and
10 more for every player finished ahead of. A better place and a bigger field both score
more: the winner of a six-player sit-and-go scores 60, its last player 10; the winner of a
heads-up match 20. Players tied for a place (games/tournament/places.py) score the tied
place's points. A tournament with no entrants scores nothing.

>>> points(1, 6), points(2, 6), points(6, 6), points(1, 2), points(1, 0)
(60, 50, 10, 20, 0)
"""

from __future__ import annotations

__all__ = ["POINTS_PER_PLAYER", "points"]

#: The points for taking part, and for each player finished ahead of.
POINTS_PER_PLAYER = 10


def points(place: int, entrants: int) -> int:
    """The points for finishing at ``place`` (1 is the winner) among ``entrants`` players.

    >>> points(7, 6)
    Traceback (most recent call last):
    ...
    ValueError: place 7 is not a place among 6 entrants
    """
    for name, value in (("place", place), ("entrants", entrants)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} is a whole number, at least 0, not {value!r}")
    if entrants == 0:
        return 0
    if not 1 <= place <= entrants:
        raise ValueError(f"place {place} is not a place among {entrants} entrants")
    return POINTS_PER_PLAYER * (entrants - place + 1)
