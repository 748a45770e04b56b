"""Three Card Poker against the house: the table's state machine (docs/rules/three-card-poker.md).

Action kinds: ``sit`` (``stack``), ``leave``, ``top_up`` (``amount``), ``sit_out``, ``sit_in``,
``connect``, ``disconnect``, ``bet`` (``ante``, optional ``pair_plus``), ``deal`` (``deck``),
``play`` (optional ``amount``, equal to the Ante), ``fold`` and ``timeout``. The decisions the
rules leave open are written in :mod:`.betting`, :mod:`.hand` and :mod:`.seating`.

The view lists every seat (an empty one as ``"status": "empty"``), each occupied one with its
``player``; after the reveal, until the next deal, each seat's bet ``results`` and ``net``.

>>> from games.cards import DECK
>>> top = "As Kd Ah Qc 9d 7s".split()
>>> deck = top + [str(card) for card in DECK if str(card) not in top]
>>> state = new_table()
>>> state, _ = GAME.apply(state, {"kind": "sit", "seat": 0, "stack": 10_000, "now": 0})
>>> state, _ = GAME.apply(state, {"kind": "bet", "seat": 0, "ante": 100, "now": 1})
>>> GAME.wants_deck(state)
True
>>> state, events = GAME.apply(state, {"kind": "deal", "deck": deck, "now": 2})
>>> [event.to_json()["type"] for event in events]
['hand_started', 'cards_dealt', 'cards_dealt']
>>> GAME.view(state, 0)["you"]["cards"], GAME.view(state, None)["dealer"]["cards"]
(['As', 'Ah', '9d'], None)
>>> state, events = GAME.apply(state, {"kind": "play", "seat": 0, "now": 3})
>>> [event.to_json()["type"] for event in events][:4]
['played', 'dealer_revealed', 'ante_won', 'play_won']
>>> state.seats[0].stack
10200
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.cards import card_from_index
from games.engine import Event, IllegalAction
from games.three_card_poker.betting import bet, close_betting
from games.three_card_poker.hand import deal, decide, fold_undecided
from games.three_card_poker.hands import describe, hand_key, qualifies
from games.three_card_poker.seating import connection, leave, sit, sit_in_or_out, top_up
from games.three_card_poker.settlement import BetResult, net_result
from games.three_card_poker.state import (
    SeatState,
    TableState,
    dump_state,
    load_state,
    new_table,
    now_of,
)
from games.time_bank import seat_view
from games.words import words

__all__ = ["GAME", "ThreeCardPoker", "new_table"]

JSON = dict[str, Any]
Handler = Callable[[TableState, Mapping[str, Any], float], tuple[TableState, list[Event]]]


def _timeout(
    state: TableState, action: Mapping[str, Any], now: float
) -> tuple[TableState, list[Event]]:
    if state.deadline is None:
        raise IllegalAction(words("there is no deadline to time out now"))
    if now < state.deadline:
        raise IllegalAction(
            words("the deadline is {deadline}; it is only {now}", deadline=state.deadline, now=now)
        )
    events: list[Event] = []
    if state.phase == "betting":
        state = close_betting(state, events, at_deadline=True)
    else:
        state = fold_undecided(state, now, events)
    return state, events


_HANDLERS: dict[str, Handler] = {
    "sit": sit,
    "leave": leave,
    "top_up": top_up,
    "sit_out": sit_in_or_out,
    "sit_in": sit_in_or_out,
    "connect": connection,
    "disconnect": connection,
    "bet": bet,
    "deal": deal,
    "play": decide,
    "fold": decide,
    "timeout": _timeout,
}

# Probes for legal_actions: each is tried on the state and kept if it is allowed.
_PROBES: tuple[str, ...] = ("bet", "play", "fold", "top_up", "sit_out", "sit_in", "leave")


class ThreeCardPoker:
    """The Three Card Poker game (:class:`games.engine.Game`)."""

    name = "three-card-poker"

    def apply(
        self, state: TableState, action: Mapping[str, Any]
    ) -> tuple[TableState, tuple[Event, ...]]:
        """Apply one action; :class:`IllegalAction` says why it is refused, changing nothing."""
        if not isinstance(action, Mapping):
            raise IllegalAction(words("an action is a JSON object with a 'kind'"))
        kind = action.get("kind")
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise IllegalAction(
                words(
                    "unknown action {kind}; actions: {actions}",
                    kind=repr(kind),
                    actions=", ".join(_HANDLERS),
                )
            )
        new_state, events = handler(state, action, now_of(action))
        return new_state, tuple(events)

    def legal_actions(self, state: TableState, seat: int) -> list[JSON]:
        """What ``seat`` may do now, each with the figures its button needs."""
        if not 0 <= seat < len(state.seats):
            return []
        config = state.config
        occupant = state.seats[seat]
        if occupant is None:
            return [{"kind": "sit", "min_stack": 2 * config.min_ante}]
        now = state.deadline if state.deadline is not None else 0.0
        legal: list[JSON] = []
        for kind in _PROBES:
            probe: JSON = {"kind": kind, "seat": seat, "now": now}
            if kind == "bet":
                probe["ante"] = config.min_ante
            elif kind == "top_up":
                probe["amount"] = 1
            try:
                _HANDLERS[kind](state, probe, now)
            except IllegalAction:
                continue
            legal.append(_describe_action(kind, state, occupant))
        return legal

    def deadline(self, state: TableState) -> float | None:
        """When the clock must apply ``timeout`` (``None``: no clock running)."""
        return state.deadline

    def wants_deck(self, state: TableState) -> bool:
        """Bets are closed and the next action must be a ``deal``."""
        return state.phase == "dealing"

    def view(self, state: TableState, seat: int | None) -> JSON:
        """What ``seat`` (``None``: a spectator) may see: no hidden card before the reveal."""
        config = state.config
        seats: list[JSON] = []
        for number, occupant in enumerate(state.seats):
            if occupant is None:
                seats.append({"seat": number, "status": "empty", "stack": 0, "card_count": 0})
                continue
            # A folded hand is mucked: after the reveal it stays its owner's alone.
            shown = state.revealed and occupant.decision != "fold"
            seats.append(_seat_view(state, occupant, visible=shown or occupant.seat == seat))
        dealer: JSON = {"card_count": len(state.dealer_cards), "cards": None}
        if state.revealed:
            key = hand_key(state.dealer_cards)
            dealer["cards"] = _texts(state.dealer_cards)
            dealer["hand"] = describe(state.dealer_cards)
            dealer["qualifies"] = qualifies(key)
        you: JSON | None = None
        mine = state.seats[seat] if seat is not None and 0 <= seat < len(state.seats) else None
        if seat is not None and 0 <= seat < len(state.seats):
            you = {
                "seat": seat,
                "cards": _texts(mine.cards) if mine is not None and mine.cards else None,
                "legal_actions": self.legal_actions(state, seat),
            }
        return {
            "game": self.name,
            "phase": state.phase,
            "deadline": state.deadline,
            "hand": state.hand,
            "pot": sum(s.ante + s.pair_plus + s.play for s in state.occupied()),
            "limits": {
                "min_ante": config.min_ante,
                "max_ante": config.max_ante,
                "max_pair_plus": config.max_pair_plus,
            },
            "pay_tables": {
                "ante_bonus": list(config.pay_tables.ante_bonus),
                "pair_plus": list(config.pay_tables.pair_plus),
            },
            "dealer": dealer,
            "seats": seats,
            "you": you,
        }

    def dump(self, state: TableState) -> JSON:
        """The state as JSON."""
        return dump_state(state)

    def load(self, data: JSON) -> TableState:
        """A state from :meth:`dump`'s JSON."""
        return load_state(data)


def _texts(indices: tuple[int, ...]) -> list[str]:
    return [str(card_from_index(index)) for index in indices]


def _status(state: TableState, seat: SeatState) -> str:
    if seat.leaving:
        return "leaving"
    if seat.ante > 0:
        if state.phase == "deciding":
            return {"play": "played", "fold": "folded"}.get(seat.decision or "", "deciding")
        return "bet"
    if seat.sitting_out:
        return "sitting_out"
    return "waiting" if seat.can_bet(state.config) else "short"


def _seat_view(state: TableState, seat: SeatState, *, visible: bool) -> JSON:
    data: JSON = {
        "seat": seat.seat,
        "player": seat.player,
        "stack": seat.stack,
        "status": _status(state, seat),
        "connected": seat.connected,
        "ante": seat.ante,
        "pair_plus": seat.pair_plus,
        "play": seat.play,
        "decision": seat.decision,
        "card_count": len(seat.cards),
    }
    if visible and seat.cards:
        data["cards"] = _texts(seat.cards)
        data["hand"] = describe(seat.cards)
    if state.config.time_bank:
        data.update(seat_view(state.banks, seat.seat))
    if state.revealed and seat.results:
        data["results"] = [
            {"bet": bet, "outcome": outcome, "stake": stake, "paid": paid}
            for bet, outcome, stake, paid in seat.results
        ]
        data["net"] = net_result(BetResult(*result) for result in seat.results)
    return data


def _describe_action(kind: str, state: TableState, seat: SeatState) -> JSON:
    config = state.config
    if kind == "bet":
        return {
            "kind": "bet",
            "min_ante": config.min_ante,
            "max_ante": min(config.max_ante, seat.stack // 2),
            "max_pair_plus": min(config.max_pair_plus, seat.stack - 2 * config.min_ante),
        }
    if kind == "play":
        return {"kind": "play", "amount": seat.ante}
    return {"kind": kind}


GAME = ThreeCardPoker()
