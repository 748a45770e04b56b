"""Scripted Three Card Poker games for the command line (format: :mod:`.commands`).

The script's cards are laid into a deck in the deal order of :mod:`.hand` (the cards nobody
holds follow in deck order), so a scripted hand goes through the same ``deal`` as a shuffled one.

>>> result = run_script({"game": "three-card-poker", "players": {"A": 10000},
...     "hands": [{"bets": {"A": {"ante": 100, "pair_plus": 50}}, "cards": {"A": "As Ad 2c"},
...                "dealer": "Ks Qd 3c", "decisions": {"A": "play"}}]})
>>> result["players"], result["house"], result["hands"][0]["results"]["A"]["net"]
({'A': 10250}, -250, 250)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.cards import DECK, CardError, parse_cards
from games.engine import Event, IllegalAction
from games.three_card_poker.config import config_from_json
from games.three_card_poker.events import RESULT_OF, BetResultEvent, DealerRevealed, HandEnded
from games.three_card_poker.game import GAME
from games.three_card_poker.hands import describe
from games.three_card_poker.state import TableState, new_table
from games.three_card_poker.tally import Tally

__all__ = ["run_script"]


def _mapping(value: Any, what: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{what} must be a JSON object")
    return value


def _deck(state: TableState, names: dict[int, str], hand: Mapping[str, Any]) -> list[str]:
    """The deck that deals the script's cards: bettors in seat order, then the dealer."""
    cards = _mapping(hand.get("cards", {}), "cards")
    bettors = [seat.seat for seat in state.occupied() if seat.ante > 0]
    holdings: list[tuple[int, ...]] = []
    for seat in bettors:
        if names[seat] not in cards:
            raise ValueError(f"{names[seat]} bet but has no cards")
        holdings.append(tuple(card.index for card in parse_cards(str(cards[names[seat]]))))
    holdings.append(tuple(card.index for card in parse_cards(str(hand.get("dealer", "")))))
    for name in cards:
        if name not in names.values() or name not in {names[seat] for seat in bettors}:
            raise ValueError(f"cards for {name!r}, who is not dealt in")
    if any(len(held) != 3 for held in holdings):
        raise ValueError("each player dealt in and the dealer need exactly three cards")
    used = [index for held in holdings for index in held]
    if len(set(used)) != len(used):
        raise ValueError("a card appears twice in the hand")
    stride = len(holdings)
    order = [0] * (3 * stride)
    for position, held in enumerate(holdings):
        for round_ in range(3):
            order[round_ * stride + position] = held[round_]
    rest = [card.index for card in DECK if card.index not in set(used)]
    return [str(DECK[index]) for index in order + rest]


def _play_hand(
    state: TableState, names: dict[int, str], hand: Mapping[str, Any], now: float
) -> tuple[TableState, list[Event], float]:
    seats = {name: seat for seat, name in names.items()}
    events: list[Event] = []

    def apply(action: dict[str, Any]) -> None:
        nonlocal state
        state, new = GAME.apply(state, action)
        events.extend(new)

    for name, bet in _mapping(hand.get("bets", {}), "bets").items():
        if name not in seats:
            raise ValueError(f"unknown player {name!r} in bets")
        bet = _mapping(bet, f"{name}'s bet")
        apply({"kind": "bet", "seat": seats[name], "now": now, **bet})
    if state.phase == "betting" and state.deadline is not None:
        now = state.deadline
        apply({"kind": "timeout", "now": now})
    if state.phase != "dealing":
        raise ValueError("nobody bet")
    apply({"kind": "deal", "deck": _deck(state, names, hand), "now": now})
    decisions = _mapping(hand.get("decisions", {}), "decisions")
    for name in decisions:
        if name not in seats:
            raise ValueError(f"unknown player {name!r} in decisions")
    for seat in sorted(seats.values()):
        choice = decisions.get(names[seat])
        if choice is not None:
            if choice not in ("play", "fold"):
                raise ValueError(f"{names[seat]}'s decision is play or fold, not {choice!r}")
            apply({"kind": choice, "seat": seat, "now": now})
    while state.phase == "deciding" and state.deadline is not None:  # time banks run out too
        now = state.deadline
        apply({"kind": "timeout", "now": now})
    return state, events, now


def _hand_result(after: TableState, events: list[Event], names: dict[int, str]) -> dict[str, Any]:
    """One hand's results from its events; cards and decisions stay on the seats until the
    next deal."""
    players: dict[str, Any] = {}
    result: dict[str, Any] = {"results": players}
    for event in events:
        if isinstance(event, DealerRevealed):
            result.update(dealer=" ".join(event.cards), dealer_hand=event.hand)
            result["qualifies"] = event.qualifies
        elif isinstance(event, BetResultEvent):
            bet, outcome = RESULT_OF[type(event)]
            entry = players.setdefault(names[event.seat], {"bets": []})
            entry["bets"].append(
                {"bet": bet, "outcome": outcome, "stake": event.stake, "paid": event.paid}
            )
        elif isinstance(event, HandEnded):
            result["hand"] = event.hand
            for seat, net in event.results:
                seat_state = after.seats[seat]
                assert seat_state is not None
                players[names[seat]].update(
                    cards=" ".join(str(DECK[i]) for i in seat_state.cards),
                    hand=describe(seat_state.cards),
                    decision=seat_state.decision,
                    net=net,
                )
    return result


def run_script(data: Mapping[str, Any]) -> dict[str, Any]:
    """Play a scripted game; bad input raises :class:`ValueError` saying what is wrong."""
    data = _mapping(data, "a script")
    game = str(data.get("game", "three-card-poker")).replace("_", "-")
    if game != "three-card-poker":
        raise ValueError(f"this script is for {game!r}, not three-card-poker")
    config = config_from_json(_mapping(data.get("options", {}), "options"))
    players = _mapping(data.get("players"), "players")
    if not 1 <= len(players) <= config.seats:
        raise ValueError(f"a script seats 1 to {config.seats} players")
    hands = data.get("hands", [])
    if not isinstance(hands, list):
        raise ValueError("hands must be a list")
    names = dict(enumerate(players))
    tally = Tally()
    state = new_table(config)
    now = 0.0
    for seat, name in names.items():
        action = {"kind": "sit", "seat": seat, "stack": players[name], "now": now}
        try:
            state, sat = GAME.apply(state, action)
        except IllegalAction as error:
            raise ValueError(f"{name}: {error}") from error
        tally.post(sat)
    played: list[dict[str, Any]] = []
    for number, hand in enumerate(hands, 1):
        try:
            after, events, now = _play_hand(state, names, _mapping(hand, "a hand"), now + 1)
        except (IllegalAction, CardError, ValueError) as error:
            raise ValueError(f"hand {number}: {error}") from error
        tally.post(events)
        played.append(_hand_result(after, events, names))
        state = after
    return {
        "game": "three-card-poker",
        "players": {names[s.seat]: s.stack for s in state.occupied()},
        "house": tally.balance["house"],
        "conserved": tally.conserved(state),
        "hands": played,
    }
