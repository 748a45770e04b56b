"""Scripted classic Guts games (``python -m games script FILE.json`` with a classic preset).

The format is the online one (:mod:`games.guts.script`) without ``antes`` (a classic table
antes automatically), plus, per hand: ``ghost`` and ``community`` (cards), ``pass``
(name: card passed left) and ``second_declare`` (Two Plus One). ``cards`` gives each player's
hand as dealt (Partial Reveal: the face-down cards; the last cards come from the deck's spare
cards in order). ``declare`` choices are made in turn order (sequential) or all at once; a
player missing from it times out (Out).

>>> result = run_classic_script({"game": "guts", "preset": "two_card", "options": {"ante": 100},
...     "button": "C", "players": {"A": 10000, "B": 10000, "C": 10000},
...     "hands": [{"cards": {"A": "As Ad", "B": "Ks Kd"}, "declare": {"A": "in", "B": "in"}}]})
>>> result["stacks"], result["pot"], result["hands"][0]["payments"]
({'A': 10191, 'B': 9600, 'C': 9900}, 300, {'B': 300})
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.cards import DECK, CardError, parse_cards
from games.guts import events as ev
from games.guts.classic import apply
from games.guts.classic_config import ClassicConfig
from games.guts.classic_state import ClassicState, new_classic_table
from games.guts.game import make_config
from games.guts.table import Seat

__all__ = ["run_classic_script"]


def _cards(text: Any, what: str) -> list[int]:
    try:
        return [card.index for card in parse_cards(str(text))]
    except CardError as error:
        raise ValueError(f"{what}: {error}") from error


class _Runner:
    def __init__(self, state: ClassicState, names: list[str]) -> None:
        self.state = state
        self.names = names
        self.now = 0.0
        self.rake = 0

    def act(self, action: dict[str, Any]) -> list[Any]:
        action["now"] = self.now
        self.state, events = apply(self.state, action)
        self.rake += sum(event.amount for event in events if isinstance(event, ev.RakeTaken))
        return list(events)

    def timeout(self) -> list[Any]:
        self.now = max(self.now, self.state.deadline or self.now)
        return self.act({"kind": "timeout"})

    def seat(self, name: Any, number: int) -> int:
        if name not in self.names:
            raise ValueError(f"hand {number}: no player {name!r}; players: {', '.join(self.names)}")
        return self.names.index(name)

    def deck(self, hand: Mapping[str, Any], number: int) -> list[str]:
        config = self.state.config
        order = self.state.dealt
        size = config.cards - (1 if config.partial_reveal else 0)
        given: dict[int, list[int]] = {}
        for name, text in dict(hand.get("cards", {})).items():
            seat = self.seat(name, number)
            if seat not in order:
                raise ValueError(f"hand {number}: {name} is not in this hand")
            given[seat] = _cards(text, f"hand {number}: {name}'s cards")
            if len(given[seat]) != size:
                raise ValueError(f"hand {number}: {name} needs {size} cards")
        ghost = _cards(hand.get("ghost", ""), f"hand {number}: ghost")
        community = _cards(hand.get("community", ""), f"hand {number}: community")
        used = [card for cards in given.values() for card in cards] + ghost + community
        if len(set(used)) != len(used):
            raise ValueError(f"hand {number}: a card is dealt twice")
        spare = [card.index for card in DECK if card.index not in set(used)]
        full = {seat: given.get(seat) or [spare.pop(0) for _ in range(size)] for seat in order}
        deck = [full[seat][turn] for turn in range(size) for seat in order]
        if config.ghost != "none":
            deck += ghost or [spare.pop(0) for _ in range(config.cards)]
        if config.community_card:
            deck += community or [spare.pop(0)]
        return [str(DECK[card]) for card in deck + spare]

    def declare(self, choices: Mapping[str, Any], number: int) -> list[Any]:
        events: list[Any] = []
        wanted = {self.seat(name, number): choice for name, choice in choices.items()}
        stage = self.state.stage
        while self.state.phase == "declare" and self.state.stage == stage:
            turn = self.state.turn
            if turn is None:
                for seat, choice in wanted.items():
                    if self.state.phase == "declare" and not self.state.choices[seat]:
                        events += self.act({"kind": "declare", "seat": seat, "choice": choice})
                if self.state.phase == "declare" and self.state.stage == stage:
                    events += self.timeout()
            elif turn in wanted:
                events += self.act({"kind": "declare", "seat": turn, "choice": wanted.pop(turn)})
            else:
                events += self.timeout()
        return events

    def play(self, hand: Mapping[str, Any], number: int) -> dict[str, Any]:
        while self.state.phase != "deal":
            if self.state.phase == "waiting":
                raise ValueError(f"hand {number}: fewer than two players can play")
            self.timeout()
        events = self.act({"kind": "deal", "deck": self.deck(hand, number)})
        for name, card in dict(hand.get("pass", {})).items():
            events += self.act({"kind": "pass", "seat": self.seat(name, number), "card": card})
        if self.state.phase == "pass":
            events += self.timeout()
        events += self.declare(dict(hand.get("declare", {})), number)
        if self.state.phase == "declare":
            events += self.declare(dict(hand.get("second_declare", {})), number)
        for name, amount in dict(hand.get("top_up", {})).items():
            seat = self.seat(name, number)
            events += self.act({"kind": "top_up", "seat": seat, "amount": amount})
        return self.summary(events, number)

    def summary(self, events: list[Any], number: int) -> dict[str, Any]:
        name = self.names.__getitem__
        ended = next(event for event in events if isinstance(event, ev.HandEnded))
        payments: dict[str, int] = {}
        for event in events:
            if isinstance(event, ev.PotMatched) and event.amount:
                payments[name(event.seat)] = payments.get(name(event.seat), 0) + event.amount
            elif isinstance(event, ev.SeatPaid):
                payments[name(event.payer)] = payments.get(name(event.payer), 0) + event.amount
        return {
            "hand": number,
            "pot": ended.pot,
            "shown": {
                name(e.seat): " ".join(str(DECK[card]) for card in e.cards)
                for e in events
                if isinstance(e, ev.HandShown)
            },
            "winners": {name(seat): amount for seat, amount in ended.winners},
            "rake": ended.rake,
            "payments": payments,
            "game_over": ended.round_over,
        }


def run_classic_script(
    data: Mapping[str, Any], config: ClassicConfig | None = None
) -> dict[str, Any]:
    """Play a classic script; stacks, pot, reserve, rake and each hand's result."""
    players = dict(data.get("players") or {})
    if config is None:
        made = make_config(str(data.get("preset", "two_card")), dict(data.get("options", {})))
        assert isinstance(made, ClassicConfig)
        config = made
    names = [str(name) for name in players]
    if len(names) > config.seats:
        raise ValueError(f"{len(names)} players need seats={len(names)} in the options")
    state = new_classic_table(config)
    seats = [Seat(name, stack) for name, stack in players.items()]
    state = replace(state, seats=(*seats, *state.seats[len(seats) :]), phase="pause", deadline=0.0)
    if "button" in data:
        if data["button"] not in names:
            raise ValueError(f"button {data['button']!r} is not a player")
        state = replace(state, button=names.index(data["button"]))
    runner = _Runner(state, names)
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise ValueError("hands must be a list")
    results = [runner.play(hand, number) for number, hand in enumerate(hands, 1)]
    final = runner.state
    return {
        "game": "guts",
        "preset": config.preset,
        "stacks": {
            name: 0 if player is None else player.stack
            for name, player in zip(names, final.seats, strict=False)
        },
        "pot": final.pot,
        "reserve": final.reserve,
        "rake": runner.rake,
        "round_over": not final.game_active,
        "hands": results,
    }
