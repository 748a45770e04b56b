"""Finishing places of the players knocked out in one hand.

The standard rule (and the rooms' that deal sit-and-gos): among players out in the same hand,
the one who started the hand with more chips finishes higher; players who started it with the
same chips tie, and each of them gets the best place the tie spans: two players out together
with equal chips when five were left are both 4th, and nobody is 5th. Places count from 1, the
winner. The prizes of the places a tie spans are shared (games/tournament/payouts.py).

>>> eliminations([("a", 300), ("b", 300)], field_left=5)
[(4, ['a', 'b'])]
>>> eliminations([("a", 100), ("b", 250), ("c", 100)], field_left=6)
[(4, ['b']), (5, ['a', 'c'])]
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

__all__ = ["eliminations"]

K = TypeVar("K", bound=Hashable)


def eliminations(busted: Sequence[tuple[K, int]], field_left: int) -> list[tuple[int, list[K]]]:
    """The places of the players out in one hand, best first.

    ``busted``: each player out and the chips they had when the hand started. ``field_left``:
    how many players were still in the tournament before this hand's eliminations (those out
    included), so the players out take the places from ``field_left - len(busted) + 1`` to
    ``field_left``. Returns ``(place, [players])`` groups: more chips at the hand's start
    finish higher; equal chips tie, all at the best place their group spans. Within a group
    the players keep their order in ``busted``.
    """
    if isinstance(field_left, bool) or not isinstance(field_left, int):
        raise ValueError(f"field_left is a whole number of players, not {field_left!r}")
    if len(busted) > field_left:
        raise ValueError(f"{len(busted)} players out of a field of {field_left}")
    keys = [key for key, _ in busted]
    if len(set(keys)) != len(keys):
        raise ValueError("a player is out twice in one hand")
    place = field_left - len(busted) + 1
    groups: list[tuple[int, list[K]]] = []
    for chips in sorted({chips for _, chips in busted}, reverse=True):
        group = [key for key, started in busted if started == chips]
        groups.append((place, group))
        place += len(group)
    return groups
