"""Evaluator throughput for ``python -m games bench`` (evaluations per second).

For each kind: ``<kind>_rank_hand_per_s`` times :func:`~games.evaluators.rank_hand` on tuples
of Card objects, and ``<kind>_fast_per_s`` the function from
:func:`~games.evaluators.key_function` on tuples of card indices, both in a plain ``for``
loop over pre-built hands. ``three_card_fast_per_s`` is the engines' tightest path: a direct
index into :func:`~games.evaluators.three_card_table` in a ``for`` loop (the slots
``a << 12 | b << 6 | c`` prepared beforehand, as an engine does when it enumerates hands);
``three_card_key_per_s`` is the key function itself.
``treys_five_per_s`` and ``treys_seven_per_s`` time treys' public ``Evaluator.evaluate`` on
the same hands (omitted if treys is not installed). Each figure is the best of three runs,
after the tables are built. Hands come from a fixed seed, so runs are comparable.

This module reads the clock, which the rules never do; it is only a measuring tool.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from games.cards import DECK, Card

from .kinds import key_function, rank_hand, three_card_table

__all__ = ["bench"]

_SEED = 20_240_601


def _rate(run: Callable[[], object], count: int, repeats: int) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return round(count / best) if best > 0 else 0.0


def _hands(size: int, count: int, rng: random.Random) -> list[tuple[int, ...]]:
    return [tuple(rng.sample(range(52), size)) for _ in range(count)]


def _loop(function: Callable[[Any], object], hands: Sequence[Any]) -> Callable[[], None]:
    def run() -> None:
        for hand in hands:
            function(hand)

    return run


def _direct(hands: Sequence[tuple[int, ...]]) -> Callable[[], None]:
    table = three_card_table()
    slots = [a << 12 | b << 6 | c for a, b, c in hands]

    def run() -> None:
        for slot in slots:
            table[slot]

    return run


def _ranked(kind: str, hands: Sequence[tuple[Card, ...]], options: dict[str, Any]) -> None:
    for hand in hands:
        rank_hand(kind, hand, **options)


def _ranking(
    kind: str, hands: Sequence[tuple[Card, ...]], options: dict[str, Any]
) -> Callable[[], None]:
    def run() -> None:
        if options:
            for hand in hands:
                rank_hand(kind, hand, **options)
        else:
            for hand in hands:
                rank_hand(kind, hand)

    return run


def bench(*, quick: bool = False) -> dict[str, float]:
    """Evaluations per second, by kind, via ``rank_hand`` and via the fast path."""
    rng = random.Random(_SEED)
    fast_count, slow_count, repeats = (300, 100, 1) if quick else (200_000, 50_000, 3)
    figures: dict[str, float] = {}
    cases: list[tuple[str, str, int, dict[str, Any]]] = [
        ("one_card", "one_card", 1, {}),
        ("two_card", "two_card", 2, {}),
        ("three_card", "three_card", 3, {}),
        ("chinese_front", "chinese_front", 3, {}),
        ("three_five_seven_stage_one", "three_five_seven_stage_one", 3, {}),
        ("low_nuts", "low_nuts", 2, {}),
        ("low_napalm", "low_napalm", 5, {}),
        ("five_card", "five_card", 5, {}),
        ("five_card_wild", "five_card", 5, {"wild_ranks": "5"}),
        ("best_five_of_six", "best_five", 6, {"wild_ranks": "2"}),
        ("best_five_of_seven", "best_five", 7, {}),
        ("best_five_wild", "best_five", 7, {"wild_ranks": "7"}),
    ]
    for name, kind, size, options in cases:
        hands = _hands(size, fast_count, rng)
        cards = [tuple(DECK[index] for index in hand) for hand in hands[:slow_count]]
        key = key_function(kind, **options)
        _ranked(kind, cards[:10], options)
        figures[f"{name}_rank_hand_per_s"] = _rate(
            _ranking(kind, cards, options), len(cards), repeats
        )
        figures[f"{name}_fast_per_s"] = _rate(_loop(key, hands), len(hands), repeats)
        if name == "three_card":
            figures["three_card_key_per_s"] = figures["three_card_fast_per_s"]
            figures["three_card_fast_per_s"] = _rate(_direct(hands), len(hands), repeats)
    figures.update(_treys(rng, fast_count, slow_count, repeats))
    return figures


def _treys(rng: random.Random, fast: int, slow: int, repeats: int) -> dict[str, float]:
    try:
        from treys import Card as TreysCard  # type: ignore[import-untyped, unused-ignore]
        from treys import Evaluator  # type: ignore[import-untyped, unused-ignore]
    except ImportError:
        return {}
    evaluator = Evaluator()
    deck = [TreysCard.new(str(card)) for card in DECK]
    figures = {}
    for name, size, count in (("treys_five_per_s", 5, fast), ("treys_seven_per_s", 7, slow)):
        hands = [[deck[index] for index in hand] for hand in _hands(size, count, rng)]
        pairs = [(hand[:2], hand[2:]) for hand in hands]

        def run(pairs: list[tuple[list[int], list[int]]] = pairs) -> None:
            for hole, board in pairs:
                evaluator.evaluate(hole, board)

        figures[name] = _rate(run, len(pairs), repeats)
    return figures
