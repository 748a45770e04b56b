"""Shared builders for the Chinese Poker tests: hands from text, naturals from a card pool."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from games.cards import DECK, Card, parse_cards
from games.chinese_poker.config import ChinesePokerConfig
from games.chinese_poker.engine import GAME
from games.chinese_poker.scoring import PlayerHand
from games.chinese_poker.state import ChinesePokerState, new_table
from games.engine import Event

#: The table every engine test plays unless it names another.
CONFIG = ChinesePokerConfig(unit=100, pause_seconds=5)


def hand(
    front: str, middle: str, back: str, natural: str | None = None, **flags: bool
) -> PlayerHand:
    """A player's hand from three rows of text."""
    return PlayerHand(parse_cards(front), parse_cards(middle), parse_cards(back), natural, **flags)


def rows_of(cards: Sequence[Card], natural: str | None = None) -> PlayerHand:
    """13 cards cut into rows as they come (3, 5, 5); for naturals, whose rows do not count."""
    return PlayerHand(tuple(cards[:3]), tuple(cards[3:8]), tuple(cards[8:]), natural)


#: The seed's four-player example (docs/rules/chinese-poker.md): A +3, B -7, C +5, D -1.
SEED_TALLY = {
    "A": ("4s 4d Jc", "Ks Kc 9d 7h 2d", "9c Td Js Qc Kd"),
    "B": ("Ah 8c 2s", "5s 5d Th 9h 4h", "6s 6d 3s 3c Ac"),
    "C": ("Qs Qh 3d", "Ts Tc 8s 8d 2c", "7s 7d 7c 5c 4c"),
    "D": ("Ad Jd 6c", "As Qd 9s 6h 3h", "2h 5h 8h Jh Kh"),
}


def _take(pool: list[Card], rank: int, count: int = 1, suit: str | None = None) -> list[Card]:
    found = [c for c in pool if c.rank == rank and (suit is None or c.suit == suit)][:count]
    if len(found) < count:
        raise LookupError(f"not enough cards of rank {rank}")
    for card in found:
        pool.remove(card)
    return found


def build_natural(name: str, pool: list[Card]) -> list[Card]:
    """13 cards from ``pool`` (removed from it) that make the natural ``name``."""
    if name == "thirteen_colors":
        suit = next(s for s in "shdc" if sum(c.suit == s for c in pool) == 13)
        return [c for r in range(2, 15) for c in _take(pool, r, suit=suit)]
    if name == "dragon":
        return [c for r in range(2, 15) for c in _take(pool, r)]
    if name == "twelve_colors":
        suit = next(s for s in "shdc" if sum(c.suit == s and c.rank < 14 for c in pool) == 12)
        cards = [c for r in range(2, 14) for c in _take(pool, r, suit=suit)]
        return cards + _take_other(pool, suit)
    if name == "trips_five_pairs":
        ranks = [r for r in range(14, 1, -1) if sum(c.rank == r for c in pool) >= 3]
        cards = _take(pool, ranks[0], 3)
        pairs = [r for r in range(14, 1, -1) if sum(c.rank == r for c in pool) >= 2][:5]
        return cards + [c for r in pairs for c in _take(pool, r, 2)]
    if name == "six_pairs":
        pairs = [r for r in range(2, 15) if sum(c.rank == r for c in pool) >= 2][:6]
        cards = [c for r in pairs for c in _take(pool, r, 2)]
        odd = next(c for c in pool if c.rank not in pairs)
        pool.remove(odd)
        return [*cards, odd]
    if name == "three_straights":
        ranks = [12, 13, 14, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]  # Q-K-A, 2-6, 7-J
        cards = []
        for i, rank in enumerate(ranks):
            # Spread the suits so these cards make no flush natural as well.
            suits = "cdhs"[i % 4 :] + "cdhs"[: i % 4]
            card = next(c for s in suits for c in pool if c.rank == rank and c.suit == s)
            pool.remove(card)
            cards.append(card)
        return cards
    if name == "three_flushes":
        cards = []
        for need in (3, 5, 5):
            suit = max("cdhs", key=lambda s: sum(c.suit == s for c in pool))
            row = sorted((c for c in pool if c.suit == suit), reverse=True)[:need]
            for card in row:
                pool.remove(card)
            cards.extend(row)
        return cards
    raise ValueError(name)


def _take_other(pool: list[Card], suit: str) -> list[Card]:
    odd = next(c for c in pool if c.suit != suit)
    pool.remove(odd)
    return [odd]


def full_pool() -> list[Card]:
    """The whole deck as a list to draw from."""
    return list(DECK)


_NEEDS_SUIT = ("thirteen_colors", "twelve_colors", "three_flushes")


def build_pair(first: str, second: str) -> tuple[list[Card], list[Card]]:
    """Two disjoint 13-card hands making naturals ``first`` and ``second`` (the ones needing
    whole suits are built first, so both fit in one deck)."""
    pool = full_pool()
    if second in _NEEDS_SUIT and first not in _NEEDS_SUIT:
        two = build_natural(second, pool)
        return build_natural(first, pool), two
    one = build_natural(first, pool)
    return one, build_natural(second, pool)


class Table:
    """A table in a test: applies actions, keeps events and the money in every place."""

    def __init__(self, config: ChinesePokerConfig = CONFIG) -> None:
        self.state: ChinesePokerState = new_table(config)
        self.now = 1_000.0
        self.places: Counter[str] = Counter()

    def act(self, kind: str, **fields: Any) -> tuple[Event, ...]:
        self.state, events = GAME.apply(self.state, {"kind": kind, "now": self.now, **fields})
        for event in events:
            for move in event.moves():
                self.places[move.source] -= move.amount
                self.places[move.target] += move.amount
        return events

    def expire(self) -> tuple[Event, ...]:
        deadline = GAME.deadline(self.state)
        assert deadline is not None
        self.now = deadline
        return self.act("timeout")

    def cards(self, seat: int) -> list[str]:
        entry = self.state.entry(seat)
        assert entry is not None
        return [str(DECK[index]) for index in entry.cards]


def types(events: tuple[Event, ...]) -> list[str]:
    return [event.to_json()["type"] for event in events]
