"""Scripted classic Guts games (``python -m games script FILE.json`` with a classic preset).

The format is the online one (:mod:`games.guts.script`) without ``antes`` (a classic table
antes automatically), plus, per hand: ``ghost`` and ``community`` (cards), ``pass``
(name: card passed left) and ``second_declare`` (Two Plus One); a hand naming cards the table
has no place for (a ghost at a table without one, ...) is refused. ``cards`` gives each player's
hand as dealt (Partial Reveal: the face-down cards; the last cards come from the deck's spare
cards in order). ``declare`` choices are made in turn order (sequential) or all at once; a
player missing from it times out (Out). Cards are written as one text (``"Qs 4d"``) and in
the number their place takes (a ghost hand as many as a player's hand, the Batey one, ...):
any other number is refused, never cut or padded (:mod:`games.guts.script_cards`).

Four-Two-Two and Four-Two-Three: ``cards`` are the four cards down; ``up`` (name: two cards)
the face-up cards of players In, ``community`` 4-2-3's three cards, ``versus`` the deck's four
cards against a lone hand (``lone_vs_deck``). The games in stages (3-5-7, Nuts, Napalm, Toh)
give, per hand (one deck), ``stages``: a list of ``{"cards": {name: cards}, "declare": {...},
"challenge": {...}}``, where ``cards`` are the cards each player receives at that stage (Toh:
each deal's one card; the deal rotates) and ``challenge`` the choices of the dealer's challenge
round (Napalm's switch, Toh's second chance). Stages not listed get spare cards and time out
(everyone Out). Their hand results add ``stages`` (each stage's ``in``, ``shown``,
``shown_privately``, ``marks`` won and ``payments``) and the script's result ``marks`` (each
player's legs, nuts, tokens or points at the end).

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

from games.cards import DECK
from games.guts import events as ev
from games.guts.classic import apply
from games.guts.classic.config import ClassicConfig, classic_config
from games.guts.classic.state import ClassicState, new_classic_table
from games.guts.script_cards import counted, read_cards, refuse_extras
from games.guts.table import Seat

__all__ = ["run_classic_script"]


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
        _check_extras(config, hand, number)
        if config.staged:
            return self.staged_deck(hand, number)
        order = self.state.dealt
        where = f"hand {number}"
        size = config.cards - (1 if config.partial_reveal else 0)
        given: dict[int, list[int]] = {}
        for name, text in dict(hand.get("cards", {})).items():
            seat = self.seat(name, number)
            if seat not in order:
                raise ValueError(f"{where}: {name} is not in this hand")
            expected = (
                f"{name} has {counted(size, 'face-down card')}"
                if config.partial_reveal
                else f"{name}'s hand has {counted(size)}"
            )
            given[seat] = read_cards(text, where, f"{name}'s cards", size, expected)
        ghost = _optional(hand, "ghost", where, config.cards, _ghost_expected(config))
        community = _optional(hand, "community", where, *_community_expected(config))
        versus = _optional(hand, "versus", where, 4, f"the deck's hand has {counted(4)}")
        up = {
            self.seat(name, number): read_cards(
                text, where, f"{name}'s face-up cards", 2, f"{name} has 2 face-up cards"
            )
            for name, text in dict(hand.get("up", {})).items()
        }
        later = [card for cards in up.values() for card in cards] + versus
        used = [card for cards in given.values() for card in cards] + ghost + community + later
        if len(set(used)) != len(used):
            raise ValueError(f"hand {number}: a card is dealt twice")
        spare = [card.index for card in DECK if card.index not in set(used)]
        full = {seat: given.get(seat) or [spare.pop(0) for _ in range(size)] for seat in order}
        deck = [full[seat][turn] for turn in range(size) for seat in order]
        if config.ghost != "none":
            deck += ghost or [spare.pop(0) for _ in range(config.cards)]
        if config.community_card:
            deck += community or [spare.pop(0)]
        if config.flow == "four_two":  # the stock's first cards, as the engine takes them
            choices = dict(hand.get("declare", {}))
            ins = [seat for seat in order if choices.get(self.names[seat]) == "in"]
            extra: list[int] = []
            if up:
                faced = {seat: up.get(seat) or [spare.pop(0) for _ in range(2)] for seat in ins}
                extra = [faced[seat][turn] for turn in range(2) for seat in ins]
            deck += community or versus or extra
        return [str(DECK[card]) for card in deck + spare]

    def staged_deck(self, hand: Mapping[str, Any], number: int) -> list[str]:
        """The deck of a game in stages: each stage's cards, in the engine's order."""
        config = self.state.config
        order = list(self.state.dealt)
        plan: list[tuple[list[int], int, dict[int, list[int]]]] = []
        for index, stage in enumerate(_stages(hand, number) or [{}]):
            if index == 0:
                count = config.cards
            elif config.flow == "toh":
                order, count = order[1:] + order[:1], 1  # the deal moves one player on
            else:
                count = config.stage_rules(index + 1).cards - config.stage_rules(index).cards
            given: dict[int, list[int]] = {}
            for name, text in dict(stage.get("cards", {})).items():
                seat = self.seat(name, number)
                if seat not in order:
                    raise ValueError(f"hand {number}: {name} gets no cards at stage {index + 1}")
                given[seat] = read_cards(
                    text,
                    f"hand {number}",
                    f"{name}'s stage {index + 1} cards",
                    count,
                    f"{name} gets {counted(count)} at stage {index + 1}",
                )
            plan.append((list(order), count, given))
        used = [card for _, _, given in plan for cards in given.values() for card in cards]
        if len(set(used)) != len(used):
            raise ValueError(f"hand {number}: a card is dealt twice")
        spare = [card.index for card in DECK if card.index not in set(used)]
        deck: list[int] = []
        for seats, count, given in plan:
            if len(spare) < count * sum(1 for seat in seats if seat not in given):
                raise ValueError(f"hand {number}: the deck has no cards for so many stages")
            full = {seat: given.get(seat) or [spare.pop(0) for _ in range(count)] for seat in seats}
            deck += [full[seat][turn] for turn in range(count) for seat in seats]
        return [str(DECK[card]) for card in deck + spare]

    def declare(
        self, choices: Mapping[str, Any], number: int, challenge: Mapping[str, Any] | None = None
    ) -> list[Any]:
        events: list[Any] = []
        wanted = {self.seat(name, number): choice for name, choice in choices.items()}
        second = {self.seat(name, number): choice for name, choice in (challenge or {}).items()}
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
            elif self.state.challenge and turn in second:
                events += self.act({"kind": "declare", "seat": turn, "choice": second.pop(turn)})
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
        if self.state.config.staged:
            events += self.play_stages(hand, number)
        else:
            events += self.declare(dict(hand.get("declare", {})), number)
        if self.state.phase == "declare":
            events += self.declare(dict(hand.get("second_declare", {})), number)
        for name, amount in dict(hand.get("top_up", {})).items():
            seat = self.seat(name, number)
            events += self.act({"kind": "top_up", "seat": seat, "amount": amount})
        return self.summary(events, number)

    def play_stages(self, hand: Mapping[str, Any], number: int) -> list[Any]:
        """Every stage of a hand in stages, until the hand ends."""
        events: list[Any] = []
        stages = _stages(hand, number)
        index = 0
        while self.state.phase == "declare":
            stage = stages[index] if index < len(stages) else {}
            events += self.declare(
                dict(stage.get("declare", {})), number, dict(stage.get("challenge", {}))
            )
            if self.state.phase == "stage_over":
                events += self.timeout()
                index += 1
        return events

    def stages(self, events: list[Any]) -> list[dict[str, Any]]:
        """Each stage's results, from a hand's events."""
        name = self.names.__getitem__
        results: list[dict[str, Any]] = []
        for event in events:
            if isinstance(event, ev.StageStarted):
                results.append({"stage": event.stage, "in": [], "shown": {}})
                results[-1].update(shown_privately={}, marks={}, payments={})
                continue
            if not results:
                continue
            result = results[-1]
            text = " ".join(str(DECK[card]) for card in getattr(event, "cards", ()))
            if isinstance(event, ev.Declared) and event.choice != "out":
                result["in"].append(name(event.seat))
            elif isinstance(event, ev.HandShown):
                result["shown"][name(event.seat)] = text
            elif isinstance(event, ev.HandShownPrivately):
                result["shown_privately"][name(event.seat)] = text
            elif isinstance(event, (ev.LegWon, ev.NutWon, ev.TokenWon, ev.PointWon)):
                result["marks"][name(event.seat)] = event.total
            elif isinstance(event, ev.SeatPaid):
                payments = result["payments"]
                payments[name(event.payer)] = payments.get(name(event.payer), 0) + event.amount
            elif isinstance(event, ev.PotMatched) and event.amount:
                payments = result["payments"]
                payments[name(event.seat)] = payments.get(name(event.seat), 0) + event.amount
        return results

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
        } | ({"stages": self.stages(events)} if self.state.config.staged else {})


def _check_extras(config: ClassicConfig, hand: Mapping[str, Any], number: int) -> None:
    """Refuse cards the table has no place for (a ghost hand at a table without one, ...),
    rather than deal a deck short of them."""
    four_two = config.flow == "four_two"  # its community, up and versus cards feed the stock
    lacks = {
        "ghost": (config.ghost == "none", "no ghost hand"),
        "community": (
            not config.community_card and not config.community_after_declare,
            "no community card",
        ),
        "up": (not four_two, "no face-up cards after the declare"),
        "versus": (not four_two, "no deck's hand against a lone player"),
    }
    missing = {key: what for key, (lacking, what) in lacks.items() if lacking}
    refuse_extras(hand, f"hand {number}", missing, config.preset)


def _ghost_expected(config: ClassicConfig) -> str:
    holder = "a kitty hand" if config.preset == "kitty" else "a ghost hand"
    return f"{holder} has {counted(config.cards)}"


def _community_expected(config: ClassicConfig) -> tuple[int, str]:
    """How many community cards a hand names, and the sentence saying so."""
    if config.community_card:
        return 1, f"the Batey has {counted(1, 'community card')}"
    count = config.community_after_declare
    return count, f"this table has {counted(count, 'community card')}"


def _optional(
    hand: Mapping[str, Any], key: str, where: str, count: int, expected: str
) -> list[int]:
    """The cards a hand names under ``key``, or none when it names none (the deck's next)."""
    value = hand.get(key)
    if value is None or value == "":
        return []
    return read_cards(value, where, key, count, expected)


def _stages(hand: Mapping[str, Any], number: int) -> list[Mapping[str, Any]]:
    stages = hand.get("stages", [])
    if not isinstance(stages, list) or not all(isinstance(stage, Mapping) for stage in stages):
        raise ValueError(f"hand {number}: stages must be a list of objects")
    return stages


def run_classic_script(
    data: Mapping[str, Any], config: ClassicConfig | None = None
) -> dict[str, Any]:
    """Play a classic script; stacks, pot, reserve, rake and each hand's result."""
    players = dict(data.get("players") or {})
    if config is None:
        config = classic_config(str(data.get("preset", "two_card")), dict(data.get("options", {})))
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
    } | ({"marks": dict(zip(names, final.marks, strict=False))} if config.staged else {})
