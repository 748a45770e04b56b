"""The state of an online Guts table (docs/rules/guts-online.md): immutable and JSON-serialisable.

A table is a tuple of seats (``None`` when empty) and the round and hand in progress. Per-seat
hand data (``cards``, ``choices``, ``owed``) are tuples indexed by seat number.

Phases:

- ``waiting``: no round; fewer than two players can play. No deadline.
- ``ante``: the ante call of a round's start (``starting``) or between two hands of a round
  (``pending``: the seats asked; ``ante_seconds``); then, while a short loser still owes
  (``owed``), the top-up window: ``top_up_seconds`` from the moment the call ended (its
  last answer, or its deadline), so a short loser's time comes on top of the call's.
- ``deal``: the hand's players are known; the runtime sends the deck (``wants_deck``).
- ``declare``: simultaneous In or Out, until everyone has chosen or the deadline.
- ``pause``: the result stays on the table for ``showdown_seconds``; then the next ante call.

>>> from games.guts.config import online_config
>>> state = new_table(online_config("survivor", {"ante": 100}))
>>> state.phase, len(state.seats), state.pot
('waiting', 7, 0)
>>> load_state(dump_state(state)) == state
True
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from games.cards import DECK, parse_cards
from games.guts.config import OnlineConfig, online_config

__all__ = ["OnlineState", "Seat", "dump_state", "load_state", "new_table"]

PHASES = ("waiting", "ante", "deal", "declare", "pause")


@dataclass(frozen=True, slots=True)
class Seat:
    """A seated player: name, table stack and flags.

    ``in_round``: a player of the current round (anted or matched into it).
    ``leaving``: asked to leave during a hand; stands up when the hand ends.
    """

    player: str
    stack: int
    sitting_out: bool = False
    connected: bool = True
    in_round: bool = False
    leaving: bool = False


@dataclass(frozen=True, slots=True)
class OnlineState:
    """One online Monte Carlo or Survivor table.

    ``round_active``: a round is under way (the pot belongs to it). ``starting``: the ante call
    open now is a round's first. ``pending``: seats asked to ante that have not answered.
    ``confirmed``: seats already in the next hand: anted, or In last hand and owing nothing
    (the winners, the losers who paid their whole match, Survivor's losers who owed nothing).
    ``dealt``: the seats of the current (or just ended) hand, in seat order from the button.
    ``owed``: what each seat still owes the pot (a short loser in the top-up window).
    ``shown``: the hand has been revealed (In hands are public until the next ante call).
    """

    config: OnlineConfig
    seats: tuple[Seat | None, ...]
    phase: str = "waiting"
    deadline: float | None = None
    button: int | None = None
    pot: int = 0
    round: int = 0
    hand: int = 0
    round_active: bool = False
    starting: bool = False
    pending: tuple[int, ...] = ()
    confirmed: tuple[int, ...] = ()
    dealt: tuple[int, ...] = ()
    cards: tuple[tuple[int, ...], ...] = ()
    choices: tuple[str, ...] = ()
    owed: tuple[int, ...] = ()
    shown: bool = False
    #: Seats whose hand the clock mucked (no declare in time): told apart from a chosen Out.
    timed_out: tuple[int, ...] = ()
    #: A tournament level's ante (action ``level``) waiting for the next ante call, when the
    #: config takes it (games/guts/config.py, ``raised_config``).
    next_stake: int | None = None
    #: ``short_ante`` ``all_in``: (seat, cents) of the antes posted short in the open ante call
    #: (so too few antes go back exactly as posted).
    short_antes: tuple[tuple[int, int], ...] = ()


def new_table(config: OnlineConfig) -> OnlineState:
    """An empty table for ``config``: nobody seated, no round, no button yet."""
    empty = config.seats
    return OnlineState(
        config=config,
        seats=(None,) * empty,
        cards=((),) * empty,
        choices=("",) * empty,
        owed=(0,) * empty,
    )


def _seat_json(seat: Seat | None) -> dict[str, Any] | None:
    if seat is None:
        return None
    return {
        "player": seat.player,
        "stack": seat.stack,
        "sitting_out": seat.sitting_out,
        "connected": seat.connected,
        "in_round": seat.in_round,
        "leaving": seat.leaving,
    }


def dump_state(state: OnlineState) -> dict[str, Any]:
    """The state as JSON (cards as text); :func:`load_state` reads it back."""
    return {
        "game": "guts",
        "variant": "online",
        "config": state.config.to_json(),
        "seats": [_seat_json(seat) for seat in state.seats],
        "phase": state.phase,
        "deadline": state.deadline,
        "button": state.button,
        "pot": state.pot,
        "round": state.round,
        "hand": state.hand,
        "round_active": state.round_active,
        "starting": state.starting,
        "pending": list(state.pending),
        "confirmed": list(state.confirmed),
        "dealt": list(state.dealt),
        "cards": [" ".join(str(DECK[card]) for card in hand) for hand in state.cards],
        "choices": list(state.choices),
        "owed": list(state.owed),
        "shown": state.shown,
        "timed_out": list(state.timed_out),
        "next_stake": state.next_stake,
        "short_antes": [list(pair) for pair in state.short_antes],
    }


@lru_cache(maxsize=4096)
def _card_indices(text: str) -> tuple[int, ...]:
    """A seat's cards as :func:`dump_state` wrote them, by index. Kept: every version of a hand
    is loaded again by the processes that did not make it, with the same cards."""
    return tuple(card.index for card in parse_cards(text))


def load_state(data: dict[str, Any]) -> OnlineState:
    """Read back a state written by :func:`dump_state`."""
    options = dict(data["config"])
    config = online_config(options.pop("preset"), options)
    seats = tuple(None if seat is None else Seat(**seat) for seat in data["seats"])
    return OnlineState(
        config=config,
        seats=seats,
        phase=data["phase"],
        deadline=data["deadline"],
        button=data["button"],
        pot=data["pot"],
        round=data["round"],
        hand=data["hand"],
        round_active=data["round_active"],
        starting=data["starting"],
        pending=tuple(data["pending"]),
        confirmed=tuple(data["confirmed"]),
        dealt=tuple(data["dealt"]),
        cards=tuple(_card_indices(text) for text in data["cards"]),
        choices=tuple(data["choices"]),
        owed=tuple(data["owed"]),
        shown=data["shown"],
        # States written before the field existed had no timed-out seats to tell apart.
        timed_out=tuple(data.get("timed_out", ())),
        # States written before tournaments had no level waiting and no short antes.
        next_stake=data.get("next_stake"),
        short_antes=tuple((seat, amount) for seat, amount in data.get("short_antes", ())),
    )
