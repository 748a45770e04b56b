"""Settling one player's bets against the dealer (docs/rules/three-card-poker.md, "Settle").

Hands are compared by their evaluator keys (greater is better, equal ties); the Ante bonus and
Pair Plus look at the player's hand category. Each bet comes out ``won``, ``returned`` or
``lost``; ``paid`` is what goes back to the player's stack from the house for it: the stake plus
the winnings, the stake alone, or nothing. The Ante bonus is winnings on the Ante, so its
``paid`` is the bonus alone (the Ante's own result pays the stake).

A player who played, Ante 2 and Play 2, beating a qualified dealer with a pair:

>>> results = settle(ante=2, play=2, pair_plus=0, player_key=50, player_category="pair",
...                  dealer_key=40, qualify_key=30, tables=PayTables())
>>> [(r.bet, r.outcome, r.paid) for r in results]
[('ante', 'won', 4), ('play', 'won', 4)]
>>> net_result(results)
4

A player who folded a flush with Pair Plus 5 still wins the Pair Plus bet, 4:1:

>>> results = settle(ante=2, play=0, pair_plus=5, player_key=60, player_category="flush",
...                  dealer_key=90, qualify_key=30, tables=PayTables())
>>> [(r.bet, r.outcome, r.paid) for r in results], net_result(results)
([('ante', 'lost', 0), ('pair_plus', 'won', 25)], 18)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from games.three_card_poker.config import PayTables

__all__ = ["BetResult", "net_result", "settle"]


@dataclass(frozen=True, slots=True)
class BetResult:
    """One bet's result: ``bet`` is ``ante``, ``play``, ``ante_bonus`` or ``pair_plus``."""

    bet: str
    outcome: str
    stake: int
    paid: int

    @property
    def net(self) -> int:
        """The player's gain on this bet (negative for a loss); the bonus has no own stake."""
        return self.paid - (0 if self.bet == "ante_bonus" else self.stake)


def settle(
    *,
    ante: int,
    play: int,
    pair_plus: int,
    player_key: int,
    player_category: str,
    dealer_key: int,
    qualify_key: int,
    tables: PayTables,
) -> tuple[BetResult, ...]:
    """Every bet's result for one player; ``play`` 0 means the player folded.

    The dealer qualifies with ``dealer_key >= qualify_key`` (queen-high or better). The Ante
    bonus is paid only to a player who played, whatever the dealer holds; Pair Plus is decided
    by the player's cards alone, also after a fold.
    """
    results: list[BetResult] = []
    if play == 0:
        results.append(BetResult("ante", "lost", ante, 0))
    else:
        if dealer_key < qualify_key:
            ante_outcome, play_outcome = "won", "returned"
        elif player_key > dealer_key:
            ante_outcome = play_outcome = "won"
        elif player_key == dealer_key:
            ante_outcome = play_outcome = "returned"
        else:
            ante_outcome = play_outcome = "lost"
        results.append(BetResult("ante", ante_outcome, ante, _paid(ante_outcome, ante)))
        results.append(BetResult("play", play_outcome, play, _paid(play_outcome, play)))
        bonus = tables.ante_bonus_for(player_category)
        if bonus > 0:
            results.append(BetResult("ante_bonus", "won", ante, ante * bonus))
    if pair_plus > 0:
        odds = tables.pair_plus_for(player_category)
        if odds is None:
            results.append(BetResult("pair_plus", "lost", pair_plus, 0))
        elif odds == 0:
            results.append(BetResult("pair_plus", "returned", pair_plus, pair_plus))
        else:
            results.append(BetResult("pair_plus", "won", pair_plus, pair_plus * (1 + odds)))
    return tuple(results)


def _paid(outcome: str, stake: int) -> int:
    return {"won": 2 * stake, "returned": stake, "lost": 0}[outcome]


def net_result(results: Iterable[BetResult]) -> int:
    """The player's total gain over ``results`` (negative for a loss)."""
    return sum(result.net for result in results)
