"""Guts on the command line (:mod:`games.cli`): ``presets``, ``simulate``, ``script``, ``bench``.

``simulate`` and ``bench`` seat house bots (:mod:`games.guts.bots`) and shuffle with a seeded
:class:`random.Random`; ``script`` replays a scripted game with stacked decks. Bad arguments
raise :class:`ValueError` saying what is wrong.

>>> result = simulate(preset="survivor", players=4, hands=30, seed=1)
>>> result["hands"], result["conserved"]
(30, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping
from typing import Any

from games.guts.bots import Driver
from games.guts.game import PRESETS, make_config
from games.guts.script import run_script

__all__ = ["PRESETS", "bench", "script", "simulate"]


def simulate(*, preset: str | None, players: int, hands: int, seed: int) -> dict[str, Any]:
    """Play ``hands`` hands between ``players`` bots on a $1 table; figures of the session.

    ``conserved`` is true when, after every event, each stack and the pot equal the sum of the
    money moved into them, and the chips on the table plus the rake equal the buy-ins.
    """
    name = preset or "monte_carlo"
    if name not in PRESETS:
        raise ValueError(f"unknown guts preset {name!r}; presets: {', '.join(PRESETS)}")
    if not 2 <= players <= 10:
        raise ValueError(f"guts needs 2 to 10 players, not {players}")
    if hands < 0:
        raise ValueError("hands must be at least 0")
    config = make_config(name, {"ante": 100, "seats": max(players, 2)})
    driver = Driver(config, players=players, rng=random.Random(seed), audit=True)
    driver.play(hands)
    return {
        "game": "guts",
        "preset": name,
        "players": players,
        "hands": driver.hands,
        "rounds": driver.rounds,
        "biggest_pot": driver.biggest_pot,
        "rake": driver.rake,
        "bought_in": driver.bought_in,
        "conserved": driver.conserved,
    }


def script(data: Mapping[str, Any]) -> dict[str, Any]:
    """Play the scripted game in ``data`` (format: :mod:`games.guts.script`)."""
    return run_script(data)


def bench(*, quick: bool = False) -> dict[str, float]:
    """Survivor hands per second: six bots, one core, whole hands through ``apply``.

    Each hand is every action of it (antes, the deal with its shuffle, six declares, the
    pause's timeout), chosen by the bots of :mod:`games.guts.bots`.
    """
    hands = 300 if quick else 20_000
    config = make_config("survivor", {"ante": 100, "seats": 6})
    driver = Driver(config, players=6, rng=random.Random(7), audit=False)
    # CPU time, not wall time: the figure is per core, and the machine may be shared
    started = time.process_time()
    driver.play(hands)
    elapsed = max(time.process_time() - started, 1e-9)
    return {"survivor_hands_per_s": round(hands / elapsed, 1)}
