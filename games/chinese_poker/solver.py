"""The best arrangement of 13 cards (docs/rules/chinese-poker.md, "Hand rankings").

:func:`best_arrangement` never fouls and claims a natural whenever the cards hold one (the
highest, shown in its own rows for three straights and three flushes).

The objective, for a hand that is no natural, is the expected units won against one *typical
opponent*: the sum over the rows of that row's expected units, where the opponent's row is
the best of ``k`` independent random rows of its size (``k`` = 3 for the front, 8 for the
middle, 24 for the back, which puts the opponent's typical rows near those set by good
players: a front pair about 40 % of the time, a middle of a pair or two pair, a back of two
pair or better). A row with key ``x`` earns its pay (1, or its bonus) with the probability
that the opponent's row is weaker, and pays the opponent's pay when the opponent's is
stronger; ties pay nothing. The probabilities are exact: they come from counts over all
2,598,960 five-card hands and all 22,100 three-card fronts, grouped by rank pattern, built
once on first use (a fraction of a second).

The search: the 1,287 five-card subsets and 286 three-card subsets of the hand are keyed once
(:func:`games.evaluators.key_function`) and mapped to their row values and to a strength that
orders rows as the row-order check does (suit tie-break included). The strongest backs are
searched first for a good lower bound; then each back is taken in increasing strength, with
every subset not stronger than it "open" as a middle. A back is skipped when its value plus
the best open middle and the best front cannot beat the best so far; otherwise its 56
middle/front splits are bounded in one C-level ``map``/``max`` over the open middles, and only
a back whose bound wins is searched exactly (middle over front checked against a threshold
precomputed per front with :func:`games.evaluators.row_at_least`). The result is checked with
:func:`games.evaluators.rows_in_order`. Surrender is never chosen.

>>> from games.cards import parse_cards
>>> best = best_arrangement(parse_cards("As Ad Kc Kd Qh Jh 9s 8s 7d 5c 4c 3h 2d"))
>>> best.natural, rows_text(best)
(None, ['Ad Qh 9s', 'Kd Kc Jh 8s 7d', 'As 5c 4c 3h 2d'])
>>> best_arrangement(parse_cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac")).natural
'thirteen_colors'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb, prod
from operator import add, itemgetter
from typing import Any

from games.cards import DECK, Card, CardError, format_cards
from games.chinese_poker.naturals import find_natural, natural_rows
from games.chinese_poker.scoring import bonus
from games.evaluators import category_of, key_function, row_at_least, rows_in_order
from games.words import words

__all__ = [
    "OPPONENT_DRAWS",
    "Arrangement",
    "best_arrangement",
    "expected_units",
    "rows_text",
]

#: How many random rows the typical opponent's row is the best of: front, middle, back.
OPPONENT_DRAWS = (3, 8, 24)
_SUITED = frozenset({"straight", "flush", "straight_flush"})
_CLOSED = -1.0e9
_FIRST_GUESS = 24


@dataclass(frozen=True, slots=True)
class Arrangement:
    """Rows (front 3, middle 5, back 5 cards, each strongest card first), the natural the
    cards hold (its name, or ``None``) and the objective's value (expected units)."""

    front: tuple[Card, ...]
    middle: tuple[Card, ...]
    back: tuple[Card, ...]
    natural: str | None
    value: float

    @property
    def rows(self) -> tuple[tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]]:
        """Front, middle and back."""
        return self.front, self.middle, self.back


def rows_text(arrangement: Arrangement) -> list[str]:
    """The rows as text, front first."""
    return [format_cards(row) for row in arrangement.rows]


@dataclass(frozen=True, slots=True)
class _Tables:
    front_value: dict[int, float]
    middle_value: dict[int, float]
    back_value: dict[int, float]
    five_order: dict[int, int]
    front_floor: dict[int, int]
    suited: frozenset[int]


def _representatives(size: int, suited: bool) -> list[tuple[tuple[int, ...], int]]:
    """One hand of card indices per rank pattern of ``size`` cards, with how many hands share
    its key: patterns with repeated ranks, and distinct ranks split into flush / no flush."""
    found = []
    for ranks in combinations_with_replacement(range(13), size):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        cards: list[int] = []
        for rank, count in sorted(counts.items()):
            cards.extend(rank * 4 + suit for suit in range(count))
        hands = prod(comb(4, count) for count in counts.values())
        if suited and len(counts) == size:
            flush = [rank * 4 for rank in sorted(counts)]
            found.append((tuple(flush), 4))
            spread = [rank * 4 + (1 if i == 0 else 0) for i, rank in enumerate(sorted(counts))]
            found.append((tuple(spread), hands - 4))
        else:
            found.append((tuple(cards), hands))
    return found


def _row_values(counted: dict[int, int], pays: dict[int, int], draws: int) -> dict[int, float]:
    """Expected units of each key against the best of ``draws`` random rows."""
    keys = sorted(counted)
    total = sum(counted.values())
    below = 0
    share = []
    for key in keys:
        before = (below / total) ** draws
        below += counted[key]
        share.append((below / total) ** draws - before)
    values: dict[int, float] = {}
    above_pay = sum(chance * pays[key] for chance, key in zip(share, keys, strict=True))
    weaker = 0.0
    for chance, key in zip(share, keys, strict=True):
        above_pay -= chance * pays[key]
        values[key] = weaker * pays[key] - above_pay
        weaker += chance
    return values


@cache
def _tables() -> _Tables:
    five = key_function("five_card")
    front = key_function("chinese_front")
    five_counts: Counter[int] = Counter()
    five_cards: dict[int, tuple[int, ...]] = {}
    for cards, hands in _representatives(5, suited=True):
        key = five(cards)
        five_counts[key] += hands
        five_cards.setdefault(key, cards)
    front_counts: Counter[int] = Counter()
    front_cards: dict[int, tuple[int, ...]] = {}
    for cards, hands in _representatives(3, suited=False):
        key = front(cards)
        front_counts[key] += hands
        front_cards.setdefault(key, cards)

    def pays(row: str, counted: dict[int, int], kind: str, reps: dict[int, tuple[int, ...]]) -> Any:
        result = {}
        for key in counted:
            ranks = {index // 4 + 2 for index in reps[key]}
            royal = 13 in ranks and 14 in ranks
            result[key] = bonus(row, category_of(kind, key), royal) or 1
        return result

    five_sorted = sorted(five_counts)
    order = {key: position for position, key in enumerate(five_sorted)}
    five_texts = [[DECK[i] for i in five_cards[key]] for key in five_sorted]
    floors = {}
    for key, cards in front_cards.items():
        row = [DECK[i] for i in cards]
        low, high = 0, len(five_sorted)  # first position whose hand is at least the front
        while low < high:
            middle = (low + high) // 2
            if row_at_least(five_texts[middle], row):
                high = middle
            else:
                low = middle + 1
        floors[key] = low * 4
    draws_front, draws_middle, draws_back = OPPONENT_DRAWS
    return _Tables(
        front_value=_row_values(
            front_counts, pays("front", front_counts, "chinese_front", front_cards), draws_front
        ),
        middle_value=_row_values(
            five_counts, pays("middle", five_counts, "five_card", five_cards), draws_middle
        ),
        back_value=_row_values(
            five_counts, pays("back", five_counts, "five_card", five_cards), draws_back
        ),
        five_order=order,
        front_floor=floors,
        suited=frozenset(k for k in five_counts if category_of("five_card", k) in _SUITED),
    )


@dataclass(frozen=True, slots=True)
class _Shape:
    """Index structures over the positions 0..12 of a hand, built once."""

    fives: tuple[Callable[[Sequence[int]], Any], ...]
    threes: tuple[Callable[[Sequence[int]], Any], ...]
    five_positions: tuple[tuple[int, ...], ...]
    middles: tuple[Callable[[Sequence[float]], Any], ...]
    fronts: tuple[Callable[[Sequence[float]], Any], ...]
    splits: tuple[tuple[tuple[int, int], ...], ...]


@cache
def _shape() -> _Shape:
    positions = range(13)
    five_list = list(combinations(positions, 5))
    three_list = list(combinations(positions, 3))
    five_index = {combo: i for i, combo in enumerate(five_list)}
    three_index: dict[tuple[int, ...], int] = {c: i for i, c in enumerate(three_list)}
    middles, fronts, splits = [], [], []
    for back in five_list:
        rest = [p for p in positions if p not in back]
        pairs = []
        for middle in combinations(rest, 5):
            front = tuple(p for p in rest if p not in middle)
            pairs.append((five_index[middle], three_index[front]))
        middles.append(itemgetter(*(m for m, _ in pairs)))
        fronts.append(itemgetter(*(f for _, f in pairs)))
        splits.append(tuple(pairs))
    return _Shape(
        fives=tuple(itemgetter(*combo) for combo in five_list),
        threes=tuple(itemgetter(*combo) for combo in three_list),
        five_positions=tuple(five_list),
        middles=tuple(middles),
        fronts=tuple(fronts),
        splits=tuple(splits),
    )


def _search(indices: Sequence[int]) -> tuple[int, int, int, float]:
    """The best legal (back, middle, front) subset numbers and their value."""
    tables, shape = _tables(), _shape()
    five = key_function("five_card")
    front = key_function("chinese_front")
    keys5 = [five(pick(indices)) for pick in shape.fives]
    keys3 = [front(pick(indices)) for pick in shape.threes]
    order5 = tables.five_order
    strength = [order5[key] * 4 for key in keys5]
    suited = tables.suited
    for i, key in enumerate(keys5):
        if key in suited:
            # Same ranks in two rows: the suit of the highest card orders them.
            strength[i] += _top(shape.fives[i](indices), category_of("five_card", key)) & 3
    middle_value = [tables.middle_value[key] for key in keys5]
    back_value = [tables.back_value[key] for key in keys5]
    front_value = [tables.front_value[key] for key in keys3]
    floor = [tables.front_floor[key] for key in keys3]
    best_front = max(front_value)
    ranked = sorted(range(len(keys5)), key=strength.__getitem__)
    splits = shape.splits
    best = (-1, -1, -1, -1.0e18)
    # A strong first guess from the strongest backs lets the cheap bound below skip most
    # weak backs without looking at their splits.
    for back in ranked[-_FIRST_GUESS:]:
        limit, base = strength[back], back_value[back]
        for middle, front_index in splits[back]:
            if floor[front_index] <= strength[middle] <= limit:
                total = base + middle_value[middle] + front_value[front_index]
                if total > best[3]:
                    best = (back, middle, front_index, total)
    open_middle = [_CLOSED] * len(keys5)
    middles, fronts = shape.middles, shape.fronts
    opened, count = 0, len(ranked)
    open_best = _CLOSED
    for back in ranked:
        limit = strength[back]
        while opened < count and strength[ranked[opened]] <= limit:
            newly = ranked[opened]
            value = open_middle[newly] = middle_value[newly]
            if value > open_best:
                open_best = value
            opened += 1
        base = back_value[back]
        if base + open_best + best_front <= best[3]:
            continue
        if base + max(map(add, middles[back](open_middle), fronts[back](front_value))) <= best[3]:
            continue
        for middle, front_index in splits[back]:
            value = open_middle[middle]
            if value == _CLOSED or strength[middle] < floor[front_index]:
                continue
            total = base + value + front_value[front_index]
            if total > best[3]:
                best = (back, middle, front_index, total)
    return best


def _top(cards: Sequence[int], category: str) -> int:
    """The highest card of a straight or flush (the 5 of A-2-3-4-5), as a card index."""
    ranks = {i // 4 + 2 for i in cards}
    if category != "flush" and ranks == {14, 2, 3, 4, 5}:
        return next(i for i in cards if i // 4 + 2 == 5)
    return max(cards)


def best_arrangement(cards: Sequence[Card]) -> Arrangement:
    """The arrangement of 13 cards with the best expected units (see the module docstring).

    >>> best_arrangement([])
    Traceback (most recent call last):
    ...
    ValueError: a Chinese Poker hand has 13 cards, not 0
    """
    hand = tuple(cards)
    if len(hand) != 13:
        raise ValueError(f"a Chinese Poker hand has 13 cards, not {len(hand)}")
    if len(set(hand)) != 13:
        raise CardError(words("a card appears twice in the hand"))
    natural = find_natural(hand)
    shown = natural_rows(natural, hand) if natural is not None else None
    if shown is not None:
        assert natural is not None
        front, middle, back = (_sorted(row) for row in shown)
        return Arrangement(front, middle, back, natural, expected_units(front, middle, back))
    indices = [card.index for card in hand]
    back_at, middle_at, _front, value = _search(indices)
    shape = _shape()
    positions = set(shape.five_positions[back_at]) | set(shape.five_positions[middle_at])
    front = _sorted(hand[p] for p in range(13) if p not in positions)
    middle = _sorted(hand[p] for p in shape.five_positions[middle_at])
    back = _sorted(hand[p] for p in shape.five_positions[back_at])
    if not rows_in_order(front, middle, back):  # pragma: no cover (the search rules it out)
        raise AssertionError(f"solver fouled: {front} {middle} {back}")
    return Arrangement(front, middle, back, natural, value)


def _sorted(cards: Any) -> tuple[Card, ...]:
    return tuple(sorted(cards, reverse=True))


def expected_units(front: Sequence[Card], middle: Sequence[Card], back: Sequence[Card]) -> float:
    """The objective's value of a set of rows (order not checked): expected units against
    the typical opponent, the sum of each row's expected units."""
    tables = _tables()
    five = key_function("five_card")
    return (
        tables.front_value[key_function("chinese_front")([c.index for c in front])]
        + tables.middle_value[five([c.index for c in middle])]
        + tables.back_value[five([c.index for c in back])]
    )
