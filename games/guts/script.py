"""Scripted online Guts games (``python -m games script FILE.json``): stacked decks, fixed choices.

A script is a JSON object::

    {"game": "guts", "preset": "survivor", "options": {"ante": 100, "match_cap": 2000},
     "button": "A", "players": {"A": 10000, "B": 10000, "C": 10000},
     "hands": [{"antes": ["A", "B", "C"],
                "cards": {"A": "As Ad 2c", "B": "Ks Kd 3c", "C": "Qs Jd 9c"},
                "declare": {"A": "in", "B": "in"},
                "top_up": {"B": 500}}]}

Players sit in the order given (seats 0, 1, ...) with exactly those stacks (the buy-in limits
don't apply). ``button`` holds the button for the first hand. Before each hand, everyone asked to
ante and listed in ``antes`` posts it; the others asked decline; a short loser still owing when
the top-up window after the ante call closes pays what they have. ``cards`` is what each player
in the hand is dealt (a player left out gets the deck's next unused cards). A player missing
from ``declare`` times out (Out). ``top_up`` is applied after the hand's showdown, in the
pause. A hand's cards are one text of three cards; a classic script's keys (``ghost``,
``community``, ...) are refused, as an online table has no place for them. Classic presets
play through :mod:`games.guts.classic.script`.

>>> result = run_script({"game": "guts", "preset": "survivor", "options": {"ante": 100},
...     "button": "A", "players": {"A": 10000, "B": 10000},
...     "hands": [{"antes": ["A", "B"], "cards": {"A": "As Ad 2c", "B": "Ks Kd 3c"},
...                "declare": {"A": "in", "B": "in"}}]})
>>> result["stacks"], result["hands"][0]["winners"], result["hands"][0]["payments"]
({'A': 10094, 'B': 9700}, {'A': 194}, {'B': 200})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.cards import DECK
from games.engine import seat_order
from games.guts import events as ev
from games.guts.classic.config import ClassicConfig
from games.guts.classic.script import run_classic_script
from games.guts.game import make_config
from games.guts.online import apply, seat_player
from games.guts.rounds import evolve
from games.guts.script_cards import read_cards, refuse_extras
from games.guts.table import OnlineState, new_table

__all__ = ["run_script", "stacked_deck"]


#: The classic script's keys (:mod:`games.guts.classic.script`), refused here rather than
#: ignored: what an online table lacks for each.
_CLASSIC_ONLY = {
    "ghost": "no ghost hand",
    "community": "no community card",
    "up": "no face-up cards after the declare",
    "versus": "no deck's hand against a lone player",
    "pass": "no passing of cards",
    "second_declare": "no second declare",
    "stages": "no stages",
}


def _mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{what} must be a JSON object")
    return value


class _Runner:
    def __init__(self, state: OnlineState, names: list[str]) -> None:
        self.state = state
        self.names = names
        self.seat_of = {name: seat for seat, name in enumerate(names)}
        self.now = 0.0
        self.rake = 0

    def act(self, action: dict[str, Any]) -> tuple[Any, ...]:
        action["now"] = self.now
        self.state, events = apply(self.state, action)
        self.rake += sum(event.amount for event in events if isinstance(event, ev.RakeTaken))
        return events

    def timeout(self) -> tuple[Any, ...]:
        self.now = max(self.now, self.state.deadline or self.now)
        return self.act({"kind": "timeout"})

    def seat(self, name: Any, number: int) -> int:
        if name not in self.seat_of:
            raise ValueError(f"hand {number}: no player {name!r}; players: {', '.join(self.names)}")
        return self.seat_of[name]

    def reach_deal(self, antes: list[Any], number: int) -> list[str]:
        anted: list[str] = []
        round_starts = 0
        while self.state.phase != "deal":
            phase = self.state.phase
            if phase == "waiting":
                raise ValueError(f"hand {number}: fewer than two players can play")
            if phase == "ante":
                if self.state.starting:
                    round_starts += 1
                    if round_starts > 1:
                        raise ValueError(f"hand {number}: fewer than two players anted")
                for seat in self.state.pending:
                    name = self.names[seat]
                    self.act({"kind": "ante" if name in antes else "decline", "seat": seat})
                    if name in antes:
                        anted.append(name)
                if self.state.phase == "ante":
                    self.timeout()
            else:
                self.timeout()
        return anted

    def deck(self, cards: Mapping[str, Any], number: int) -> list[str]:
        state = self.state
        players = state.confirmed
        button = state.button if state.button is not None else min(players)
        order = seat_order(players, button)
        hands: dict[int, list[int]] = {}
        for name, text in cards.items():
            seat = self.seat(name, number)
            if seat not in order:
                raise ValueError(f"hand {number}: {name} is not in this hand")
            hands[seat] = read_cards(
                text, f"hand {number}", f"{name}'s cards", 3, f"{name}'s hand has 3 cards"
            )
        try:
            return stacked_deck(order, hands)
        except ValueError as error:
            raise ValueError(f"hand {number}: {error}") from error

    def play(self, hand: Mapping[str, Any], number: int) -> dict[str, Any]:
        refuse_extras(hand, f"hand {number}", _CLASSIC_ONLY, self.state.config.preset)
        antes = list(hand.get("antes", []))
        for name in antes:
            self.seat(name, number)
        anted = self.reach_deal(antes, number)
        events = list(self.act({"kind": "deal", "deck": self.deck(_cards(hand, number), number)}))
        for name, choice in _mapping(hand.get("declare", {}), "declare").items():
            seat = self.seat(name, number)
            if self.state.phase == "declare":
                events += self.act({"kind": "declare", "seat": seat, "choice": choice})
        if self.state.phase == "declare":
            events += self.timeout()
        for name, amount in _mapping(hand.get("top_up", {}), "top_up").items():
            seat = self.seat(name, number)
            events += self.act({"kind": "top_up", "seat": seat, "amount": amount})
        return self.summary(events, anted, number)

    def summary(self, events: list[Any], anted: list[str], number: int) -> dict[str, Any]:
        name = self.names.__getitem__
        ended = next(event for event in events if isinstance(event, ev.HandEnded))
        started = next(event for event in events if isinstance(event, ev.HandStarted))
        return {
            "hand": number,
            "players": [name(seat) for seat in started.seats],
            "antes": anted,
            "pot": ended.pot,
            "in": [name(e.seat) for e in events if isinstance(e, ev.Declared) and e.choice == "in"],
            "shown": {
                name(e.seat): " ".join(str(DECK[card]) for card in e.cards)
                for e in events
                if isinstance(e, ev.HandShown)
            },
            "winners": {name(seat): amount for seat, amount in ended.winners},
            "rake": ended.rake,
            "payments": {
                name(e.seat): e.amount for e in events if isinstance(e, ev.PotMatched) and e.amount
            },
            "owed": {name(seat): amount for seat, amount in ended.owed},
            "round_over": ended.round_over,
        }


def stacked_deck(order: Sequence[int], hands: Mapping[int, Sequence[int]]) -> list[str]:
    """A whole deck that deals ``hands`` (seat: card indices) to the seats in ``order``.

    Cards go one at a time, three times round; a seat without a hand gets the next unused cards.

    >>> stacked_deck([2, 0], {0: [51, 50, 49]})[:6]
    ['2c', 'As', '2d', 'Ah', '2h', 'Ad']
    """
    used = [card for hand in hands.values() for card in hand]
    taken = set(used)
    if len(taken) != len(used):
        raise ValueError("a card is dealt twice")
    spare = iter([card.index for card in DECK if card.index not in taken])
    full = {
        seat: list(hands[seat]) if seat in hands else [next(spare) for _ in range(3)]
        for seat in order
    }
    count = len(order)
    deck = [0] * (3 * count)
    for position, seat in enumerate(order):
        for turn in range(3):
            deck[position + turn * count] = full[seat][turn]
    deck.extend(spare)
    return [str(DECK[card]) for card in deck]


def _cards(hand: Mapping[str, Any], number: int) -> Mapping[str, Any]:
    return _mapping(hand.get("cards", {}), f"hand {number}: cards")


def run_script(data: Mapping[str, Any]) -> dict[str, Any]:
    """Play a script (format above); stacks, rake and every hand's pot, winners and payments."""
    data = _mapping(data, "a script")
    players = _mapping(data.get("players"), "players (name: stack in cents)")
    if not 2 <= len(players) <= 10:
        raise ValueError("a guts script needs 2 to 10 players")
    for name, stack in players.items():
        if isinstance(stack, bool) or not isinstance(stack, int) or stack < 0:
            raise ValueError(f"{name}'s stack must be a whole number of cents, not {stack!r}")
    options = dict(_mapping(data.get("options", {}), "options"))
    options.setdefault("seats", max(7, len(players)))
    config = make_config(str(data.get("preset", "monte_carlo")), options)
    if isinstance(config, ClassicConfig):
        return run_classic_script(data, config)
    state = new_table(config)
    names = [str(name) for name in players]
    for seat, (name, stack) in enumerate(players.items()):
        state = seat_player(state, seat, name, stack)
    if "button" in data:
        if data["button"] not in names:
            raise ValueError(f"button {data['button']!r} is not a player")
        state = evolve(state, button=names.index(data["button"]))
    runner = _Runner(evolve(state, phase="pause", deadline=0.0), names)
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise ValueError("hands must be a list")
    results = [runner.play(_mapping(hand, "hand"), number) for number, hand in enumerate(hands, 1)]
    final = runner.state
    return {
        "game": "guts",
        "preset": config.preset,
        "stacks": {
            name: 0 if player is None else player.stack
            for name, player in zip(names, final.seats, strict=False)
        },
        "pot": final.pot,
        "rake": runner.rake,
        "round_over": not final.round_active,
        "hands": results,
    }
