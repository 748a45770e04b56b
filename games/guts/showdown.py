"""Showdown and settlement helpers shared by every Guts game (docs/rules/guts-online.md, step 5;
docs/rules/guts-classic.md).

Hands are compared through :mod:`games.evaluators`: a key function turns card indices into an
integer where greater is better, so the best hands are those with the greatest key and a tie is
equality. Money leaves the pot only through :func:`pay_out`, which takes the rake first
(:func:`games.engine.rake_amount`) and splits the rest by the odd-cent rule
(:func:`games.engine.split_amount`).

>>> best_seats({1: 70, 3: 90, 5: 90})
(3, 5)
>>> worst_seats({1: 70, 3: 90, 5: 70})
(1, 5)
>>> [event.to_json() for event in pay_out(1000, (3, 5), button=4, basis_points=300, cap=300)]
[{'type': 'rake_taken', 'amount': 30}, {'type': 'pot_won', 'seat': 5, 'amount': 485}, \
{'type': 'pot_won', 'seat': 3, 'amount': 485}]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache

from games.cards import DECK
from games.engine import rake_amount, split_amount
from games.evaluators import key_function, rank_hand
from games.guts.events import PotWon, RakeTaken

__all__ = ["best_seats", "describe", "hand_key", "pay_out", "warm", "worst_seats"]


@cache
def hand_key(
    kind: str, options: tuple[tuple[str, object], ...] = ()
) -> Callable[[Sequence[int]], int]:
    """The evaluator's key function for ``kind`` and options (cached: built once per table kind)."""
    return key_function(kind, **dict(options))


def warm() -> None:
    """Build the evaluators the online rooms use, before the first showdown needs them (the
    three-card table takes about a tenth of a second: a server does it as it starts, not in
    the middle of a hand)."""
    hand_key("three_card")
    hand_key("two_card")


def describe(kind: str, cards: Sequence[int], options: tuple[tuple[str, object], ...] = ()) -> str:
    """A hand in words, such as ``"pair of nines, king kicker"`` (for the reveal).

    >>> describe("three_card", (29, 30, 44))
    'pair of nines, king kicker'
    """
    return _describe(kind, tuple(sorted(cards)), options)


@lru_cache(maxsize=65_536)
def _describe(kind: str, cards: tuple[int, ...], options: tuple[tuple[str, object], ...]) -> str:
    # cached: a showdown describes every hand shown, and there are few distinct hands
    return str(rank_hand(kind, [DECK[index] for index in cards], **dict(options)))


def best_seats(keys: Mapping[int, int]) -> tuple[int, ...]:
    """The seats holding the best hand (several when tied), in seat-number order."""
    top = max(keys.values())
    return tuple(sorted(seat for seat, key in keys.items() if key == top))


def worst_seats(keys: Mapping[int, int]) -> tuple[int, ...]:
    """The seats holding the lowest hand (several when tied), in seat-number order."""
    bottom = min(keys.values())
    return tuple(sorted(seat for seat, key in keys.items() if key == bottom))


def pay_out(
    pot: int, winners: Sequence[int], *, button: int, basis_points: int, cap: int
) -> tuple[RakeTaken | PotWon, ...]:
    """Events taking the whole ``pot``: the rake once, then the rest split between ``winners``.

    The odd cents go one each to the winners in seat order from ``button``.
    """
    rake = rake_amount(pot, basis_points=basis_points, cap=cap)
    shares = split_amount(pot - rake, list(winners), button)
    events: list[RakeTaken | PotWon] = [RakeTaken(rake)] if rake else []
    events.extend(PotWon(seat, amount) for seat, amount in shares.items() if amount)
    return tuple(events)
