"""Sitting down, leaving, topping up, sitting out and the connection flags
(games/engine.py, "Kinds every seated game knows"; docs/rules/three-card-poker.md, "Table").

Decisions where the rules are silent:

- A player sits with a stack from their bankroll of at least twice the least Ante (an Ante and
  its Play); there is no upper limit. ``player`` (optional) is the name the table shows.
- ``leave`` takes effect at once, except for a seat dealt into the hand being played: that
  player keeps the hand (no decision in time is a fold) and is cashed out right after the
  settlement. A seat that bet but has not been dealt yet gets its bets back and leaves at once.
- ``top_up`` is taken only between rounds for that seat: not once it has bet this round.
- ``sit_out`` during a round the seat plays in lets the seat finish it; the seat is then out of
  play until ``sit_in``. Connection flags change nothing in play.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.engine import Event, IllegalAction
from games.three_card_poker.betting import refresh_betting
from games.three_card_poker.events import (
    BetsReturned,
    Connected,
    Disconnected,
    LeaveRequested,
    PlayerLeft,
    PlayerSat,
    SatIn,
    SatOut,
    ToppedUp,
)
from games.three_card_poker.state import SeatState, TableState, amount_of, seat_of, with_seat
from games.words import Money, words

__all__ = ["connection", "leave", "sit", "sit_in_or_out", "top_up"]

Result = tuple[TableState, list[Event]]


def sit(state: TableState, action: Mapping[str, Any], now: float) -> Result:
    """A player takes an empty seat with ``stack`` cents from their bankroll."""
    number = seat_of(state, action, occupied=False)
    if state.seats[number] is not None:
        raise IllegalAction(words("seat {seat} is taken", seat=number))
    amount = amount_of(action, "stack")
    least = 2 * state.config.min_ante
    if amount < least:
        raise IllegalAction(
            words(
                "you need at least {amount} to sit (the smallest Ante and its Play)",
                amount=Money(least),
            )
        )
    player = action.get("player")
    name = player if isinstance(player, str) and player else f"seat {number}"
    events: list[Event] = [PlayerSat(seat=number, stack=amount)]
    state = with_seat(state, SeatState(seat=number, stack=amount, player=name), number)
    state = replace(state, banks=state.banks.refill_seat(number, state.config.time_bank))
    return refresh_betting(state, now, events), events


def leave(state: TableState, action: Mapping[str, Any], now: float) -> Result:
    """Cash a seat out to its bankroll, now or (when dealt into the hand) right after it."""
    number = seat_of(state, action)
    seat = state.seats[number]
    assert seat is not None
    events: list[Event] = []
    if seat.ante > 0 and state.phase in ("dealing", "deciding"):
        if seat.leaving:
            raise IllegalAction(
                words("seat {seat} already leaves at the end of this hand", seat=number)
            )
        events.append(LeaveRequested(seat=number))
        return with_seat(state, replace(seat, leaving=True), number), events
    stack = seat.stack
    if seat.ante > 0:
        returned = seat.ante + seat.pair_plus
        events.append(BetsReturned(seat=number, amount=returned))
        stack += returned
    events.append(PlayerLeft(seat=number, stack=stack))
    state = with_seat(state, None, number)
    return refresh_betting(state, now, events), events


def top_up(state: TableState, action: Mapping[str, Any], now: float) -> Result:
    """Add ``amount`` cents from the bankroll to a seat's stack, between its rounds."""
    number = seat_of(state, action)
    seat = state.seats[number]
    assert seat is not None
    if seat.ante > 0:
        raise IllegalAction(
            words("seat {seat} has bet this round: top up between rounds", seat=number)
        )
    amount = amount_of(action, "amount")
    if amount == 0:
        raise IllegalAction(words("a top-up must be more than $0.00"))
    events: list[Event] = [ToppedUp(seat=number, amount=amount)]
    state = with_seat(state, replace(seat, stack=seat.stack + amount), number)
    return refresh_betting(state, now, events), events


def sit_in_or_out(state: TableState, action: Mapping[str, Any], now: float) -> Result:
    """``sit_out``: out of play from the next round; ``sit_in``: back in play."""
    number = seat_of(state, action)
    seat = state.seats[number]
    assert seat is not None
    out = action["kind"] == "sit_out"
    if seat.sitting_out == out:
        if out:
            raise IllegalAction(words("seat {seat} is already sitting out", seat=number))
        raise IllegalAction(words("seat {seat} is already in play", seat=number))
    events: list[Event] = [SatOut(seat=number) if out else SatIn(seat=number)]
    state = with_seat(state, replace(seat, sitting_out=out), number)
    return refresh_betting(state, now, events), events


def connection(state: TableState, action: Mapping[str, Any], now: float) -> Result:
    """``connect`` / ``disconnect``: the seat's connection flag."""
    number = seat_of(state, action)
    seat = state.seats[number]
    assert seat is not None
    connected = action["kind"] == "connect"
    if seat.connected == connected:
        if connected:
            raise IllegalAction(words("seat {seat} is already connected", seat=number))
        raise IllegalAction(words("seat {seat} is already disconnected", seat=number))
    event = Connected(seat=number) if connected else Disconnected(seat=number)
    return with_seat(state, replace(seat, connected=connected), number), [event]
