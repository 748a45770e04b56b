"""A sit-and-go's prizes: the payout shares, the prize of each place, and the awards with ties.

Shares are basis points of the prize pool by place (6500, 3500: 65 % to the winner, 35 % to
second; 10000 alone: winner takes all). Money is whole cents, never a float; every function
here gives out exactly the pool, to the cent.

>>> shares = validate_shares([6500, 3500], seats=6)
>>> prize_table(6_000, shares)
(3900, 2100)
>>> award(6_000, shares, [["ann"], ["bo"], ["cy", "di"]])
{'ann': 3900, 'bo': 2100, 'cy': 0, 'di': 0}
>>> award(6_001, shares, [["ann", "bo"], ["cy"]])
{'ann': 3001, 'bo': 3000, 'cy': 0}
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from typing import Any, TypeVar

from games.engine import ConfigError
from games.words import words

__all__ = ["WHOLE", "award", "prize_table", "validate_shares"]

#: The whole pool in basis points: shares add up to it.
WHOLE = 10_000

K = TypeVar("K", bound=Hashable)


def validate_shares(shares: Any, seats: int) -> tuple[int, ...]:
    """``shares`` checked: a list of whole basis points, each more than 0, none more than the
    place before it, adding up to 10,000, for at most ``seats`` places; raises
    :class:`~games.engine.ConfigError` saying what is wrong.

    >>> validate_shares([5000, 3000, 2000], seats=6)
    (5000, 3000, 2000)
    >>> validate_shares([3500, 6500], seats=6)
    Traceback (most recent call last):
    ...
    games.engine.ConfigError: a place's share may not be more than the share of the place \
before it: 3500 then 6500
    >>> validate_shares([5000, 3000, 2000], seats=2)
    Traceback (most recent call last):
    ...
    games.engine.ConfigError: 3 places paid at a table of 2 seats: at most one place a seat
    """
    if isinstance(shares, (str, bytes)) or not isinstance(shares, Sequence) or not shares:
        raise ConfigError(
            words("the payouts are a list of shares in basis points, such as 6500, 3500")
        )
    for share in shares:
        if isinstance(share, bool) or not isinstance(share, int) or share <= 0:
            raise ConfigError(
                words(
                    "each payout share is a whole number of basis points above 0, not {share}",
                    share=repr(share),
                )
            )
    for before, after in itertools.pairwise(shares):
        if after > before:
            raise ConfigError(
                words(
                    "a place's share may not be more than the share of the place before it:"
                    " {before} then {after}",
                    before=before,
                    after=after,
                )
            )
    total = sum(shares)
    if total != WHOLE:
        raise ConfigError(
            words(
                "the payout shares add up to {total} basis points, not 10000 (100 %)",
                total=total,
            )
        )
    if len(shares) > seats:
        raise ConfigError(
            words(
                "{places} places paid at a table of {seats} seats: at most one place a seat",
                places=len(shares),
                seats=seats,
            )
        )
    return tuple(shares)


def prize_table(pool: int, shares: Sequence[int]) -> tuple[int, ...]:
    """The prize of each paid place, in cents: each place its share of ``pool`` rounded down,
    and the cents that rounding left over to first place. They add up to ``pool`` exactly, and
    no place gets more than the place before it.

    >>> prize_table(1_001, (5000, 3000, 2000))
    (501, 300, 200)
    >>> prize_table(0, (10_000,))
    (0,)
    """
    if isinstance(pool, bool) or not isinstance(pool, int) or pool < 0:
        raise ValueError(f"a prize pool is a whole number of cents, at least 0, not {pool!r}")
    prizes = [pool * share // WHOLE for share in shares]
    prizes[0] += pool - sum(prizes)
    return tuple(prizes)


def award(pool: int, shares: Sequence[int], finishes: Sequence[Sequence[K]]) -> dict[K, int]:
    """Each player's prize, in cents, from the finishing order.

    ``finishes`` lists the players as groups of those tied, best first
    (``[[winner], [a, b], [c]]``: a and b tied for second and third). A tied group shares
    equally the prizes of the places it spans (0 for a place not paid); the cents that do
    not divide go one each to its members in the group's given order. When fewer players
    finished than places are paid, the prizes of the places nobody reached go to the first
    group, as the rounding's cents do. Every player is in the result (0 for no prize); the
    prizes add up to ``pool`` exactly.

    >>> award(1_000, (5000, 3000, 2000), [["a"], ["b", "c", "d"]])
    {'a': 500, 'b': 167, 'c': 167, 'd': 166}
    >>> award(1_000, (5000, 3000, 2000), [["a"], ["b"]])
    {'a': 700, 'b': 300}
    """
    prizes = prize_table(pool, shares)
    seen: set[K] = set()
    for group in finishes:
        if not group:
            raise ValueError("a finishing group names at least one player")
        for key in group:
            if key in seen:
                raise ValueError(f"{key!r} finished twice")
            seen.add(key)
    if not finishes:
        raise ValueError("nobody finished: there is no one to award")
    totals: list[int] = []
    place = 0
    for group in finishes:
        totals.append(sum(prizes[place : place + len(group)]))
        place += len(group)
    totals[0] += sum(prizes[place:])  # places nobody reached
    result: dict[K, int] = {}
    for group, total in zip(finishes, totals, strict=True):
        share, odd = divmod(total, len(group))
        for index, key in enumerate(group):
            result[key] = share + (1 if index < odd else 0)
    return result
