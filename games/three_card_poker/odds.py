"""Exact odds of a Three Card Poker table's pay tables (docs/rules/three-card-poker.md,
"Figures").

Every player hand (22,100) meets every dealer hand from the other 49 cards (18,424), counted in
exact rational arithmetic (:class:`fractions.Fraction`). The count is by classes, not by the
407 million pairs:

- player hands fall into classes that a change of suits maps onto each other (same ranks, same
  pattern of suits); every hand of a class has the same value and the same dealer counts;
- for a player hand ``P``, the number of dealer hands from the other 49 cards with a key below
  ``k`` is, by inclusion and exclusion, the count over all 22,100 hands, minus the hands holding
  each card of ``P``, plus the hands holding each two of them, minus ``P`` itself; each count is
  a binary search in a sorted list of keys.

The best strategy plays a hand when its expected result playing is at least -1 (the Ante lost by
folding); Pair Plus is independent of that choice. Results are cached per pay table.

``play_threshold`` is the weakest hand the best strategy plays: ``text`` gives its ranks, most
significant first, separated by spaces ("Q 6 4"; a pair's rank comes first, "4 4 K"), ``cards``
one hand of that value and ``hand`` its name; ``monotone`` says whether every stronger hand is
played and every weaker hand folded.

>>> odds = exact_odds()
>>> odds.play_threshold.text, odds.dealer_qualifies
('Q 6 4', Fraction(769, 1105))
>>> decimal_text(odds.ante_play_house_edge), decimal_text(odds.pair_plus_house_edge)
('0.0337298094', '0.0231674208')
>>> from games.cards import parse_cards
>>> should_play(parse_cards("Qs 6d 4c")), should_play(parse_cards("Qs 6d 3c"))
(True, False)
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from itertools import combinations
from typing import Any

from games.cards import Card, card_from_index
from games.three_card_poker.config import ANTE_BONUS, PAIR_PLUS, PayTables
from games.three_card_poker.hands import describe, hand_category, hand_key, qualify_key

__all__ = ["Odds", "Threshold", "clear_cache", "decimal_text", "exact_odds", "should_play"]

HANDS = 22_100  # C(52, 3)
DEALER_HANDS = 18_424  # C(49, 3)
RANK_TEXT = "23456789TJQKA"


@dataclass(frozen=True, slots=True)
class _Class:
    """Player hands alike under a change of suits, and their counts against the dealer."""

    cards: tuple[int, int, int]
    weight: int
    key: int
    category: str
    not_qualified: int
    beaten: int
    tied: int
    beating: int


@dataclass(frozen=True, slots=True)
class Threshold:
    """The weakest hand the best strategy plays (module docstring, "play_threshold")."""

    text: str
    cards: str
    hand: str
    monotone: bool


@dataclass(frozen=True, slots=True)
class Odds:
    """The exact figures for one pair of pay tables (each a fraction of the money named)."""

    tables: PayTables
    play_threshold: Threshold
    ante_play_house_edge: Fraction
    element_of_risk: Fraction
    play_probability: Fraction
    pair_plus_house_edge: Fraction
    dealer_qualifies: Fraction

    def to_json(self) -> dict[str, Any]:
        """The figures as JSON: each as ``{"fraction": "n/d", "decimal": "0.0337413020"}``."""
        threshold = self.play_threshold
        return {
            "ante_bonus": list(self.tables.ante_bonus),
            "pair_plus": list(self.tables.pair_plus),
            "play_threshold": {
                "text": threshold.text,
                "cards": threshold.cards,
                "hand": threshold.hand,
                "monotone": threshold.monotone,
            },
            "ante_play_house_edge": _figure(self.ante_play_house_edge),
            "element_of_risk": _figure(self.element_of_risk),
            "play_probability": _figure(self.play_probability),
            "pair_plus_house_edge": _figure(self.pair_plus_house_edge),
            "dealer_qualifies": _figure(self.dealer_qualifies),
        }


def decimal_text(value: Fraction, places: int = 10) -> str:
    """``value`` as a decimal string rounded to ``places`` digits.

    >>> decimal_text(Fraction(-1, 3)), decimal_text(Fraction(2, 3), 4)
    ('-0.3333333333', '0.6667')
    """
    scaled = round(abs(value) * 10**places)
    sign = "-" if value < 0 else ""
    whole, part = divmod(scaled, 10**places)
    return f"{sign}{whole}.{part:0{places}d}"


def _figure(value: Fraction) -> dict[str, str]:
    return {"fraction": f"{value.numerator}/{value.denominator}", "decimal": decimal_text(value)}


def _signature(cards: Sequence[int]) -> tuple[int, ...]:
    """Ranks and suits renamed in order of appearance: equal signatures, alike hands."""
    ordered = sorted(cards)
    names: dict[int, int] = {}
    signature: list[int] = []
    for index in ordered:
        suit = names.setdefault(index & 3, len(names))
        signature += (index >> 2, suit)
    return tuple(signature)


@cache
def _classes() -> tuple[dict[tuple[int, ...], int], tuple[_Class, ...]]:
    """Every class of player hands with its dealer counts (independent of the pay tables)."""
    every_key: list[int] = []
    by_card: list[list[int]] = [[] for _ in range(52)]
    by_pair: dict[int, list[int]] = {}
    members: dict[tuple[int, ...], list[Any]] = {}
    for hand in combinations(range(52), 3):
        key = hand_key(hand)
        every_key.append(key)
        a, b, c = hand
        by_card[a].append(key)
        by_card[b].append(key)
        by_card[c].append(key)
        for pair in (a * 52 + b, a * 52 + c, b * 52 + c):
            by_pair.setdefault(pair, []).append(key)
        entry = members.setdefault(_signature(hand), [hand, 0, key])
        entry[1] += 1
    every_key.sort()
    for keys in by_card:
        keys.sort()
    for keys in by_pair.values():
        keys.sort()

    def below(cards: tuple[int, int, int], own: int, key: int, bound: Any) -> int:
        """Dealer hands from the 49 cards not in ``cards`` (whose key is ``own``) with a key
        below ``key`` (``bisect_left``) or up to it (``bisect_right``)."""
        a, b, c = cards
        count = bound(every_key, key)
        count -= bound(by_card[a], key) + bound(by_card[b], key) + bound(by_card[c], key)
        count += bound(by_pair[a * 52 + b], key) + bound(by_pair[a * 52 + c], key)
        count += bound(by_pair[b * 52 + c], key)
        return int(count - bound([own], key))

    qualify = qualify_key()
    classes: list[_Class] = []
    index: dict[tuple[int, ...], int] = {}
    for signature, (cards, weight, own) in members.items():
        not_qualified = below(cards, own, qualify, bisect_left)
        beaten = tied = 0
        if own >= qualify:
            under = below(cards, own, own, bisect_left)
            beaten = under - not_qualified
            tied = below(cards, own, own, bisect_right) - under
        index[signature] = len(classes)
        classes.append(
            _Class(
                cards=cards,
                weight=weight,
                key=own,
                category=hand_category(cards, own),
                not_qualified=not_qualified,
                beaten=beaten,
                tied=tied,
                beating=DEALER_HANDS - not_qualified - beaten - tied,
            )
        )
    return index, tuple(classes)


def _play_value(hands: _Class, tables: PayTables) -> int:
    """The expected result of playing, per unit of Ante, times 18,424 (the dealer hands)."""
    bonus = tables.ante_bonus_for(hands.category)
    return hands.not_qualified + 2 * hands.beaten - 2 * hands.beating + bonus * DEALER_HANDS


@lru_cache(maxsize=64)
def _decisions(tables: PayTables) -> tuple[bool, ...]:
    """For each class, whether the best strategy plays it: E[play] >= -1, the folded Ante."""
    return tuple(_play_value(hands, tables) >= -DEALER_HANDS for hands in _classes()[1])


def should_play(cards: Iterable[Card], tables: PayTables | None = None) -> bool:
    """Whether the best strategy plays these three cards under ``tables`` (default: the seed's).

    >>> from games.cards import parse_cards
    >>> should_play(parse_cards("2c 3d 5h")), should_play(parse_cards("2c 2d 5h"))
    (False, True)
    """
    indices = [card.index for card in cards]
    if len(set(indices)) != 3 or len(indices) != 3:
        raise ValueError("should_play needs three different cards")
    index, _ = _classes()
    return _decisions(tables or PayTables())[index[_signature(indices)]]


def exact_odds(
    ante_bonus: Sequence[int] = ANTE_BONUS, pair_plus: Sequence[int] = PAIR_PLUS
) -> Odds:
    """The exact figures for these pay tables (a :class:`ConfigError` if they are not valid)."""
    return _odds(PayTables(ante_bonus=tuple(ante_bonus), pair_plus=tuple(pair_plus)))


@lru_cache(maxsize=64)
def _odds(tables: PayTables) -> Odds:
    classes = _classes()[1]
    decisions = _decisions(tables)
    result = played = pair_plus = qualifying = 0
    qualify = qualify_key()
    for hands, play in zip(classes, decisions, strict=True):
        result += hands.weight * (_play_value(hands, tables) if play else -DEALER_HANDS)
        played += hands.weight if play else 0
        payout = tables.pair_plus_for(hands.category)
        pair_plus += hands.weight * (-1 if payout is None else payout)
        qualifying += hands.weight if hands.key >= qualify else 0
    edge = -Fraction(result, HANDS * DEALER_HANDS)
    play_probability = Fraction(played, HANDS)
    return Odds(
        tables=tables,
        play_threshold=_threshold(classes, decisions),
        ante_play_house_edge=edge,
        element_of_risk=edge / (1 + play_probability),
        play_probability=play_probability,
        pair_plus_house_edge=-Fraction(pair_plus, HANDS),
        dealer_qualifies=Fraction(qualifying, HANDS),
    )


def _threshold(classes: Sequence[_Class], decisions: Sequence[bool]) -> Threshold:
    played = [hands for hands, play in zip(classes, decisions, strict=True) if play]
    folded = [hands.key for hands, play in zip(classes, decisions, strict=True) if not play]
    weakest = min(played, key=lambda hands: (hands.key, hands.cards))
    ranks = [index >> 2 for index in weakest.cards]
    order = sorted(weakest.cards, key=lambda i: (-ranks.count(i >> 2), -(i >> 2), i & 3))
    return Threshold(
        text=" ".join(RANK_TEXT[index >> 2] for index in order),
        cards=" ".join(str(card_from_index(index)) for index in order),
        hand=describe(weakest.cards),
        monotone=not folded or max(folded) < weakest.key,
    )


def clear_cache() -> None:
    """Forget every cached table and result (for timing a cold computation)."""
    _classes.cache_clear()
    _decisions.cache_clear()
    _odds.cache_clear()
