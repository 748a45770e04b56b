"""Money running one way between two players, read from the hands' payments (the ledger).

**The attribution.** In each hand, a player's result is what the hand's payments paid them
less what they paid (``cardroom.storage.payments``: a player's own money moving between their
bankroll and their stack pays nobody and is left out). The losers' money went to the winners
and to the house (rake, fees); each winner's gain is taken to have come from the losers in
proportion to what each lost::

    flow(L → W) = gain(W) × loss(L) // total loss of the hand      (integer cents, floored)

So A's flow to B over a window is, summed over the hands they played together (both paid or
were paid in it), the part of A's losses that B's winnings took. It is exact and in integer
cents: flooring never attributes more than was lost or won, and at most a cent a pair and
hand is left unattributed. A hand's rake is nobody's gain, and a voided hand's reversals bring
each player's result back to nothing.

**The flag.** A pair is flagged when, over the window, the net flow (the larger direction less
the smaller) is at least the threshold, at least the set share of the gross flow (both ways)
ran in that direction, and they played at least the set number of hands together.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from itertools import combinations
from typing import Any

from django.conf import settings

from accounts.models import AccountKind, Transfer
from cardroom.fairplay.days import day_span
from cardroom.models import Hand

__all__ = ["Flow", "FlowRules", "flows", "one_way_flows"]

_PLAYERS = (AccountKind.STACK, AccountKind.BANKROLL)


@dataclass(frozen=True)
class FlowRules:
    """When a flow is flagged (the settings, with these defaults: docs/fair-play.md)."""

    #: The least net flow flagged, in cents (FAIR_PLAY_FLOW_CENTS).
    net_cents: int = 10_000
    #: The least share of the gross flow in the net's direction, in percent
    #: (FAIR_PLAY_ONE_WAY_PERCENT).
    one_way_percent: int = 80
    #: The fewest hands played together (FAIR_PLAY_MIN_HANDS).
    min_hands: int = 5

    @classmethod
    def from_settings(cls) -> FlowRules:
        return cls(
            int(getattr(settings, "FAIR_PLAY_FLOW_CENTS", cls.net_cents)),
            int(getattr(settings, "FAIR_PLAY_ONE_WAY_PERCENT", cls.one_way_percent)),
            int(getattr(settings, "FAIR_PLAY_MIN_HANDS", cls.min_hands)),
        )


@dataclass
class Flow:
    """What moved between two players (``a`` < ``b``, user ids) in a window, in cents."""

    a: int
    b: int
    a_to_b: int = 0
    b_to_a: int = 0
    hands: int = 0
    tables: set[int] = field(default_factory=set)

    @property
    def gross(self) -> int:
        return self.a_to_b + self.b_to_a

    @property
    def net(self) -> int:
        """The larger direction less the smaller (never negative)."""
        return abs(self.a_to_b - self.b_to_a)

    @property
    def payer(self) -> int:
        """Who lost the net to the other."""
        return self.a if self.a_to_b >= self.b_to_a else self.b

    @property
    def receiver(self) -> int:
        return self.b if self.payer == self.a else self.a

    def flagged(self, rules: FlowRules) -> bool:
        """Whether the flow is large, mostly one way and over enough hands (all integers)."""
        larger = max(self.a_to_b, self.b_to_a)
        return (
            self.net >= rules.net_cents
            and self.hands >= rules.min_hands
            and larger * 100 >= rules.one_way_percent * self.gross
        )


def _results(rows: Iterable[tuple[Any, ...]]) -> dict[int, tuple[int, dict[int, int]]]:
    """Each hand's table and each player's result in it (cents won, negative for lost)."""
    hands: dict[int, tuple[int, dict[int, int]]] = {}
    for hand_id, table_id, amount, source_kind, source, target_kind, target in rows:
        own = source is not None and source == target
        if own and source_kind in _PLAYERS and target_kind in _PLAYERS:
            continue
        _table, results = hands.setdefault(hand_id, (table_id, {}))
        if source_kind in _PLAYERS and source is not None:
            results[source] = results.get(source, 0) - amount
        if target_kind in _PLAYERS and target is not None:
            results[target] = results.get(target, 0) + amount
    return hands


def flows(day: date, days: int = 7) -> list[Flow]:
    """Every pair's flow over the ``days`` days ending on ``day`` (hands ended in them),
    ordered by the pair. One query, whatever the number of hands."""
    start, end = day_span(day, days)
    hand_ids = Hand.objects.filter(ended__gte=start, ended__lt=end).values("id")
    rows = Transfer.objects.filter(hand_id__in=hand_ids).values_list(
        "hand_id",
        "table_id",
        "amount",
        "source__kind",
        "source__user_id",
        "target__kind",
        "target__user_id",
    )
    pairs: defaultdict[tuple[int, int], Flow] = defaultdict(lambda: Flow(0, 0))
    for table_id, results in _results(rows.iterator()).values():
        for a, b in combinations(sorted(results), 2):
            flow = pairs[a, b]
            flow.a, flow.b = a, b
            flow.hands += 1
            if table_id is not None:
                flow.tables.add(table_id)
        losses = {user: -result for user, result in results.items() if result < 0}
        total_loss = sum(losses.values())
        for winner, gain in results.items():
            if gain <= 0:
                continue
            for loser, loss in losses.items():
                share = gain * loss // total_loss
                flow = pairs[min(winner, loser), max(winner, loser)]
                if loser < winner:
                    flow.a_to_b += share
                else:
                    flow.b_to_a += share
    return [pairs[key] for key in sorted(pairs)]


def one_way_flows(day: date, days: int = 7, rules: FlowRules | None = None) -> list[Flow]:
    """The flows :meth:`Flow.flagged` by ``rules`` (the settings' by default)."""
    rules = rules or FlowRules.from_settings()
    return [flow for flow in flows(day, days) if flow.flagged(rules)]
