"""Three Card Poker on the command line (games/cli.py): presets, simulate, script, odds, bench.

``simulate`` seats house bots that bet a random Ante, add a Pair Plus bet about one round in
four and play the best strategy (:func:`games.three_card_poker.odds.should_play`). Its output:
``hands`` (hands dealt), ``rounds`` (players' rounds against the dealer settled),
``house_result`` (the house's gain in cents), ``wagered`` (every bet placed),
``house_edge_observed`` and ``conserved`` (every stack and the house add up to the money moved).

A script is JSON::

    {"game": "three-card-poker",
     "options": {"preset": "standard", "max_pair_plus": 500},
     "players": {"A": 10000, "B": 5000},
     "hands": [{"bets": {"A": {"ante": 100, "pair_plus": 50}, "B": {"ante": 200}},
                "cards": {"A": "As Ad 2c", "B": "Kh Qh Jh"},
                "dealer": "Ks Qd 3c",
                "decisions": {"A": "play", "B": "fold"}}]}

``options`` are table settings (:func:`games.three_card_poker.config.config_from_json`).
``players`` sit in seats 0, 1, ... in the order given, with those stacks. In each hand, a player
missing from ``bets`` sits the round out (the bet deadline passes); every player who bet needs
``cards``; a decision left out is a fold at the deadline. The output gives the final ``players``
stacks, the ``house`` result, ``conserved``, and for each hand the dealer's cards and hand,
whether the dealer qualified, and per player the hand, decision, each bet's result and the net.
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from games.cards import DECK, parse_cards
from games.three_card_poker import config as table_config
from games.three_card_poker import odds as exact
from games.three_card_poker.game import GAME
from games.three_card_poker.scripting import run_script
from games.three_card_poker.state import TableState, new_table
from games.three_card_poker.tally import Tally

__all__ = ["PRESETS", "bench", "odds", "script", "simulate"]

PRESETS: tuple[str, ...] = tuple(table_config.PRESETS)
_TICK = 1.0


def _apply(state: TableState, action: dict[str, Any], tally: Tally) -> TableState:
    state, events = GAME.apply(state, action)
    tally.post(events)
    return state


def simulate(*, preset: str | None, players: int, hands: int, seed: int) -> dict[str, Any]:
    """Play ``hands`` hands with ``players`` best-strategy bots on a preset's table."""
    config = table_config.preset(preset or "standard")
    if not 1 <= players <= config.seats:
        raise ValueError(f"this table seats 1 to {config.seats} players, not {players}")
    rng = random.Random(seed)
    tally = Tally()
    state = new_table(config)
    now = 0.0
    buy_in = 50 * config.max_ante
    for seat in range(players):
        state = _apply(state, {"kind": "sit", "seat": seat, "stack": buy_in, "now": now}, tally)
    deck = list(DECK)
    dealt = rounds = 0
    for _ in range(hands):
        now += _TICK
        for seat in range(players):
            occupant = state.seats[seat]
            assert occupant is not None
            ante = rng.randint(config.min_ante, config.max_ante)
            pair_plus = min(ante, config.max_pair_plus) if rng.random() < 0.25 else 0
            if occupant.stack < 2 * ante + pair_plus:
                top_up = {"kind": "top_up", "seat": seat, "amount": buy_in, "now": now}
                state = _apply(state, top_up, tally)
            bet = {"kind": "bet", "seat": seat, "ante": ante, "pair_plus": pair_plus, "now": now}
            state = _apply(state, bet, tally)
        rng.shuffle(deck)
        state = _apply(state, {"kind": "deal", "deck": [str(c) for c in deck], "now": now}, tally)
        dealt += 1
        tables = config.pay_tables
        for seat in range(players):
            occupant = state.seats[seat]
            assert occupant is not None
            cards = [DECK[index] for index in occupant.cards]
            kind = "play" if exact.should_play(cards, tables) else "fold"
            state = _apply(state, {"kind": kind, "seat": seat, "now": now}, tally)
            rounds += 1
    house = tally.balance["house"]
    return {
        "game": "three-card-poker",
        "preset": preset or "standard",
        "players": players,
        "hands": dealt,
        "rounds": rounds,
        "wagered": tally.wagered,
        "house_result": house,
        "house_edge_observed": round(house / tally.wagered, 6) if tally.wagered else 0.0,
        "conserved": tally.conserved(state),
    }


def odds(**tables: Any) -> dict[str, Any]:
    """The exact odds for the pay tables given (``ante_bonus``, ``pair_plus``), or the seed's."""
    unknown = set(tables) - {"ante_bonus", "pair_plus"}
    if unknown:
        raise ValueError(f"unknown pay tables {sorted(unknown)}; tables: ante_bonus, pair_plus")
    result = exact.exact_odds(**tables).to_json()
    return {"game": "three-card-poker", **result}


def bench(*, quick: bool = False) -> dict[str, float]:
    """Throughput: bot rounds per second at a full table, and seconds for the exact odds."""
    # The only clock in the rules package: a benchmark measures time by its nature.
    hands = 200 if quick else 3_000
    exact.should_play(parse_cards("Qs 6d 4c"))  # the class tables are built outside the timing
    start = time.perf_counter()
    result = simulate(preset="standard", players=6, hands=hands, seed=1)
    rounds = result["rounds"] / (time.perf_counter() - start)
    exact.clear_cache()
    start = time.perf_counter()
    exact.exact_odds()
    seconds = time.perf_counter() - start
    return {
        "three_card_poker_rounds_per_second": round(rounds, 1),
        "three_card_poker_odds_seconds": round(seconds, 3),
    }


def script(data: Mapping[str, Any]) -> dict[str, Any]:
    """Play a scripted game (module docstring); bad input raises :class:`ValueError`."""
    return run_script(data)
