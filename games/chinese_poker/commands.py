"""Chinese Poker on the command line (games/cli.py): ``score``, ``solve``, ``simulate``,
``script`` and ``bench``.

``score`` reads finished hands: ``{"unit": 100, "button": 0, "players": [{"name": "A",
"stack": 10000, "front": "Ah Kd 2c", "middle": "3s 3d 5h 7c 9d", "back": "Ts Th Tc 4d 6h",
"natural": null, "surrender": false}, ...]}``, players in seat order, ``button`` an index into
them, stacks in cents after the hand fee. Optional per player: ``claimed_after_surrender``
(an opponent had surrendered before the natural was claimed). Rows may be omitted for a
surrender.

``script`` plays a scripted game through the engine::

    {"game": "chinese_poker", "preset": "unit-1"  (or "config": {"unit": 100, ...}),
     "players": [{"seat": 0, "name": "A", "stack": 5000}, ...],
     "hands": [{"cards": {"0": "13 cards", "2": "13 cards"},
                "play": {"0": {"front": "...", "middle": "...", "back": "..."},
                         "2": {"surrender": true} | {"natural": "dragon"} | "solver"}}]}

Seats missing from ``cards`` get cards from the rest of the deck (lowest first); seats
missing from ``play`` are left to the deadline (the table's ``timeout`` policy). A ``play``
entry with rows and ``"natural"`` declares that natural with those rows. Between hands the
pause passes. The output has each hand's result and the final stacks, rake and a check that
chips were conserved.

``simulate`` and ``bench`` deal from ``random.Random(seed)`` and ``bench`` reads the clock:
they are measuring tools, outside the rules.
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from games.cards import DECK, Card, CardError, format_cards, parse_cards
from games.chinese_poker.config import PRESETS as _PRESETS
from games.chinese_poker.config import ChinesePokerConfig, config_from_json, preset
from games.chinese_poker.engine import GAME, eligible_seats
from games.chinese_poker.naturals import check_name
from games.chinese_poker.scoring import PlayerHand, score_hand
from games.chinese_poker.solver import best_arrangement
from games.chinese_poker.state import ChinesePokerState, new_table
from games.engine import ConfigError, Event, IllegalAction, seat_order
from games.evaluators import rank_hand

__all__ = ["PRESETS", "bench", "score", "script", "simulate", "solve"]

PRESETS: tuple[str, ...] = tuple(_PRESETS)
_BENCH_SEED = 20_240_601


def _cards(text: Any, what: str) -> tuple[Card, ...]:
    if not isinstance(text, (str, list)):
        raise ValueError(f'{what}: cards as text such as "As Kd 2c", not {text!r}')
    try:
        return parse_cards(text)
    except CardError as error:
        raise ValueError(f"{what}: {error}") from error


def _whole(value: Any, what: str, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{what} must be a whole number of at least {low}, not {value!r}")
    return value


def _player_hand(player: Mapping[str, Any], name: str) -> PlayerHand:
    surrender = player.get("surrender", False) is True
    natural = player.get("natural")
    if natural is not None:
        check_name(natural)
    if surrender and all(player.get(row) is None for row in ("front", "middle", "back")):
        return PlayerHand(surrender=True)
    rows = [_cards(player.get(row), f"{name}'s {row}") for row in ("front", "middle", "back")]
    for row, cards, size in zip(("front", "middle", "back"), rows, (3, 5, 5), strict=True):
        if len(cards) != size:
            raise ValueError(f"{name}'s {row} row needs {size} cards, not {len(cards)}")
    return PlayerHand(
        rows[0],
        rows[1],
        rows[2],
        natural,
        surrender,
        player.get("claimed_after_surrender", False) is True,
    )


def score(data: Any) -> dict[str, Any]:
    """Score and settle finished hands (see the module docstring)."""
    if not isinstance(data, dict) or not isinstance(data.get("players"), list):
        raise ValueError('score input is a JSON object with "unit", "button" and "players"')
    players = data["players"]
    names = [str(player.get("name", f"player {i}")) for i, player in enumerate(players)]
    if len(set(names)) != len(names):
        raise ValueError("each player needs a different name")
    hands = [_player_hand(player, name) for player, name in zip(players, names, strict=True)]
    stacks = [_whole(p.get("stack"), f"{n}'s stack") for p, n in zip(players, names, strict=True)]
    unit = _whole(data.get("unit"), "unit", 1)
    button = _whole(data.get("button", 0), "button")
    result = score_hand(hands, stacks, unit=unit, button=button)
    return {
        "units": dict(zip(names, result.units, strict=True)),
        "pairs": [
            {
                "players": [names[pair.first], names[pair.second]],
                "rows": None if pair.rows is None else list(pair.rows),
                "total": pair.total,
                "reason": pair.reason,
            }
            for pair in result.pairs
        ],
        "payments": [
            {"from": names[p.payer], "to": names[p.winner], "amount": p.amount}
            for p in result.payments
        ],
        "stacks": dict(zip(names, result.stacks, strict=True)),
        "hands": {
            name: {"status": status.kind, "natural": status.natural, "why": status.why}
            for name, status in zip(names, result.statuses, strict=True)
        },
    }


def solve(text: str) -> dict[str, Any]:
    """The solver's arrangement of 13 cards given as text."""
    cards = _cards(text, "the hand")
    if len(cards) != 13:
        raise ValueError(f"a Chinese Poker hand has 13 cards, not {len(cards)}")
    best = best_arrangement(cards)
    return {
        "front": format_cards(best.front),
        "middle": format_cards(best.middle),
        "back": format_cards(best.back),
        "natural": best.natural,
        "hands": {
            "front": str(rank_hand("chinese_front", best.front)),
            "middle": str(rank_hand("five_card", best.middle)),
            "back": str(rank_hand("five_card", best.back)),
        },
        "expected_units": round(best.value, 4),
    }


class _Table:
    """A table driven action by action, keeping the events and the money per place."""

    def __init__(self, config: ChinesePokerConfig) -> None:
        self.state: ChinesePokerState = new_table(config)
        self.now = 0.0
        self.places: Counter[str] = Counter()
        self.events: list[Event] = []

    def act(self, action: dict[str, Any]) -> tuple[Event, ...]:
        self.state, events = GAME.apply(self.state, {**action, "now": self.now})
        for event in events:
            for move in event.moves():
                self.places[move.source] -= move.amount
                self.places[move.target] += move.amount
        self.events.extend(events)
        return events

    def expire(self) -> None:
        deadline = GAME.deadline(self.state)
        if deadline is not None:
            self.now = max(self.now, deadline)
            self.act({"kind": "timeout"})

    def conserved(self) -> bool:
        seats = self.state.seats
        stacks_match = all(
            self.places[f"stack:{n}"] == (0 if seat is None else seat.stack)
            for n, seat in enumerate(seats)
        )
        return sum(self.places.values()) == 0 and stacks_match


def _config(data: Mapping[str, Any]) -> ChinesePokerConfig:
    try:
        if "config" in data:
            return config_from_json(data["config"])
        return preset(str(data.get("preset", "unit-1")))
    except (ConfigError, TypeError) as error:
        raise ValueError(str(error)) from error


def _deck_for(state: ChinesePokerState, wanted: Mapping[int, tuple[Card, ...]]) -> list[str]:
    """A deck that deals ``wanted`` to those seats (one card at a time from the button's left)."""
    players = eligible_seats(state)
    button = players[0] if state.button < 0 else seat_order(players, state.button)[0]
    order = seat_order(players, button)
    used = [card for cards in wanted.values() for card in cards]
    if len(set(used)) != len(used):
        raise ValueError("a card is dealt twice in one hand")
    spare = iter(card for card in DECK if card not in set(used))
    hands = {seat: list(wanted.get(seat, ())) for seat in order}
    for seat in order:
        hands[seat].extend(next(spare) for _ in range(13 - len(hands[seat])))
    deck = [hands[order[i % len(order)]][i // len(order)] for i in range(13 * len(order))]
    deck.extend(spare)
    return [str(card) for card in deck]


def _play(table: _Table, seat: int, plan: Any) -> None:
    if plan == "solver":
        entry = table.state.entry(seat)
        assert entry is not None
        best = best_arrangement([DECK[index] for index in entry.cards])
        rows = {
            row: format_cards(cards)
            for row, cards in zip(("front", "middle", "back"), best.rows, strict=True)
        }
        kind = "declare_natural" if best.natural else "submit"
        table.act({"kind": kind, "seat": seat, "natural": best.natural, **rows})
        return
    if not isinstance(plan, dict):
        raise ValueError(f'seat {seat}: a play is rows, a surrender, a natural or "solver"')
    if plan.get("surrender") is True:
        table.act({"kind": "surrender", "seat": seat})
        return
    rows = {row: plan[row] for row in ("front", "middle", "back") if row in plan}
    if plan.get("natural") is not None:
        table.act({"kind": "declare_natural", "seat": seat, "natural": plan["natural"], **rows})
        return
    table.act({"kind": "set", "seat": seat, "submit": True, **rows})


def _seat_keys(data: Any, what: str) -> dict[int, Any]:
    if not isinstance(data, dict):
        raise ValueError(f"{what} is an object keyed by seat number")
    try:
        return {int(key): value for key, value in data.items()}
    except ValueError as error:
        raise ValueError(f"{what}: keys are seat numbers") from error


def script(data: dict[str, Any]) -> dict[str, Any]:
    """Play a scripted game (format in the module docstring)."""
    table = _Table(_config(data))
    players = data.get("players")
    if not isinstance(players, list) or len(players) < 2:
        raise ValueError("a script needs at least two players")
    names: dict[int, str] = {}
    try:
        for player in players:
            seat = _whole(player.get("seat"), "a player's seat")
            names[seat] = str(player.get("name", f"seat {seat}"))
            table.act(
                {"kind": "sit", "seat": seat, "stack": player.get("stack"), "player": names[seat]}
            )
        table.expire()
        results = []
        for number, hand in enumerate(data.get("hands", []), start=1):
            if not GAME.wants_deck(table.state):
                raise ValueError(f"hand {number}: fewer than two players can be dealt in")
            wanted = {
                seat: _cards(text, f"hand {number}, seat {seat}")
                for seat, text in _seat_keys(hand.get("cards", {}), "cards").items()
            }
            for seat, cards in wanted.items():
                if len(cards) != 13:
                    raise ValueError(f"hand {number}, seat {seat}: 13 cards, not {len(cards)}")
            table.act({"kind": "deal", "deck": _deck_for(table.state, wanted)})
            for seat, plan in _seat_keys(hand.get("play", {}), "play").items():
                _play(table, seat, plan)
            while GAME.deadline(table.state) is not None and table.state.phase == "setting":
                table.expire()  # the setting time, then each time bank
            results.append(_hand_result(table, names))
            table.expire()
    except IllegalAction as error:
        raise ValueError(f"illegal action: {error}") from error
    return {
        "hands": results,
        "stacks": {names.get(n, str(n)): s.stack for n, s in enumerate(table.state.seats) if s},
        "rake": table.places["rake"],
        "conserved": table.conserved(),
    }


def _hand_result(table: _Table, names: Mapping[int, str]) -> dict[str, Any]:
    result = table.state.result
    assert result is not None
    name = names.get
    return {
        "button": name(table.state.button),
        "hands": {
            name(seat): {"status": kind, "natural": nat, "why": why}
            for seat, kind, nat, why in result.statuses
        },
        "pairs": [
            {
                "players": [name(a), name(b)],
                "rows": None if rows is None else list(rows),
                "total": total,
                "reason": reason,
            }
            for a, b, rows, total, reason in result.pairs
        ],
        "units": {name(seat): units for seat, units in result.units},
        "payments": [
            {"from": name(a), "to": name(b), "amount": amount} for a, b, amount in result.payments
        ],
        "stacks": {name(n): s.stack for n, s in enumerate(table.state.seats) if s},
    }


def simulate(*, preset: str | None, players: int, hands: int, seed: int) -> dict[str, Any]:
    """Play ``hands`` hands between solver bots; bots buy in for 40 units and top up to it
    between hands when below the minimum buy-in."""
    config = _config({"preset": preset or "unit-1"})
    if not 2 <= players <= config.seats:
        raise ValueError(f"players must be from 2 to {config.seats} at this table")
    rng = random.Random(seed)
    table = _Table(config)
    buy_in = 2 * config.min_buy_in
    for seat in range(players):
        table.act({"kind": "sit", "seat": seat, "stack": buy_in, "player": f"bot {seat}"})
    table.expire()
    naturals: Counter[str] = Counter()
    for _ in range(hands):
        for seat, current in enumerate(table.state.seats):
            if current is not None and current.stack < config.min_buy_in:
                table.act({"kind": "top_up", "seat": seat, "amount": buy_in - current.stack})
        if table.state.phase == "pause":
            table.expire()
        deck = list(DECK)
        rng.shuffle(deck)
        table.act({"kind": "deal", "deck": [str(card) for card in deck]})
        for entry in table.state.entries:
            _play(table, entry.seat, "solver")
        result = table.state.result
        assert result is not None
        naturals.update(nat for _, kind, nat, _ in result.statuses if kind == "natural" and nat)
        table.expire()
    bought = {n: -table.places[f"bankroll:{n}"] for n in range(players)}
    return {
        "game": "chinese-poker",
        "preset": preset or "unit-1",
        "players": players,
        "hands": hands,
        "rake": table.places["rake"],
        "naturals": dict(naturals),
        "net": {f"bot {n}": s.stack - bought[n] for n, s in enumerate(table.state.seats) if s},
        "conserved": table.conserved(),
    }


def _random_hands(count: int) -> Iterable[list[Card]]:
    rng = random.Random(_BENCH_SEED)
    for _ in range(count):
        yield rng.sample(DECK, 13)


def bench(*, quick: bool = False) -> dict[str, float]:
    """The solver's median milliseconds per hand over random hands from a fixed seed (the
    tables are built first, outside the timing)."""
    hands = list(_random_hands(5 if quick else 200))
    best_arrangement(hands[0])
    times = []
    for hand in hands:
        start = time.perf_counter()
        best_arrangement(hand)
        times.append(time.perf_counter() - start)
    return {"chinese_solver_median_ms": round(statistics.median(times) * 1000, 2)}
