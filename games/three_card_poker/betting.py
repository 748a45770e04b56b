"""Bets and the betting clock (docs/rules/three-card-poker.md, "A round", step 1).

Decisions where the rules are silent:

- A bet is one action with both wagers: ``{"kind": "bet", "seat": 0, "ante": 100,
  "pair_plus": 50}``; ``pair_plus`` may be left out. One bet per seat per round, not changed.
- The stack must cover the Ante, the Pair Plus *and* the Play the Ante may call for
  (``2 × ante + pair_plus``), so a Play can always be made and no bet ever exceeds the stack.
- Bets move from the stack to the house when placed (events.py).
- Betting closes early once every seat in play has bet; at the deadline a seat in play that has
  not bet sits the round out (:class:`BetMissed`). A deadline with no bet at all leaves the table
  ``idle`` with no clock until someone bets, sits or sits in.
- A bet after the deadline, before the clock's timeout arrives, is refused: the time is up.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.engine import Event, IllegalAction
from games.three_card_poker.events import BetMissed, BetPlaced, BettingClosed, BettingOpened
from games.three_card_poker.state import TableState, amount_of, seat_of, with_seat
from games.words import Money, words

__all__ = ["bet", "close_betting", "open_betting", "refresh_betting"]


def open_betting(state: TableState, now: float, events: list[Event]) -> TableState:
    """Open the next round's betting if any seat is in play; otherwise the table idles."""
    if any(seat.can_bet(state.config) for seat in state.occupied()):
        deadline = now + state.config.bet_seconds
        events.append(BettingOpened(deadline=deadline))
        return replace(state, phase="betting", deadline=deadline)
    return replace(state, phase="idle", deadline=None)


def close_betting(state: TableState, events: list[Event], *, at_deadline: bool) -> TableState:
    """Close the bets: the seats that bet wait for the deal; with no bet, the table idles."""
    if at_deadline:
        for seat in state.occupied():
            if seat.ante == 0 and seat.can_bet(state.config):
                events.append(BetMissed(seat=seat.seat))
    bettors = tuple(seat.seat for seat in state.occupied() if seat.ante > 0)
    if not bettors:
        return replace(state, phase="idle", deadline=None)
    events.append(BettingClosed(seats=bettors))
    return replace(state, phase="dealing", deadline=None)


def refresh_betting(state: TableState, now: float, events: list[Event]) -> TableState:
    """After a seat changed: open betting at an idle table, or close it once all have bet."""
    if state.phase == "idle":
        return open_betting(state, now, events)
    if state.phase != "betting":
        return state
    config = state.config
    if any(seat.ante == 0 and seat.can_bet(config) for seat in state.occupied()):
        return state
    return close_betting(state, events, at_deadline=False)


def bet(state: TableState, action: Mapping[str, Any], now: float) -> tuple[TableState, list[Event]]:
    """Place a seat's Ante and optional Pair Plus (checked against the limits and the stack)."""
    number = seat_of(state, action)
    seat = state.seats[number]
    assert seat is not None
    config = state.config
    if state.phase not in ("idle", "betting"):
        raise IllegalAction(words("bets are closed: this round's cards are being played"))
    if state.deadline is not None and now > state.deadline:
        raise IllegalAction(words("the time to bet has run out for this round"))
    if seat.sitting_out:
        raise IllegalAction(words("seat {seat} is sitting out: sit in to bet", seat=number))
    if seat.ante:
        raise IllegalAction(words("seat {seat} has already bet this round", seat=number))
    ante = amount_of(action, "ante", default=0)
    pair_plus = amount_of(action, "pair_plus", default=0)
    if ante == 0:
        raise IllegalAction(
            words("an Ante is needed to be dealt in: Pair Plus alone is not allowed")
        )
    if not config.min_ante <= ante <= config.max_ante:
        raise IllegalAction(
            words(
                "the Ante at this table is from {min_ante} to {max_ante}, not {ante}",
                min_ante=Money(config.min_ante),
                max_ante=Money(config.max_ante),
                ante=Money(ante),
            )
        )
    if pair_plus > config.max_pair_plus:
        if config.max_pair_plus == 0:
            raise IllegalAction(words("this table takes no Pair Plus bets"))
        raise IllegalAction(
            words(
                "the Pair Plus bet at this table is at most {max_pair_plus}, not {pair_plus}",
                max_pair_plus=Money(config.max_pair_plus),
                pair_plus=Money(pair_plus),
            )
        )
    needed = 2 * ante + pair_plus
    if needed > seat.stack:
        raise IllegalAction(
            words(
                "your stack of {stack} cannot cover the Ante, the Play it may call"
                " for and the Pair Plus ({needed} in all)",
                stack=Money(seat.stack),
                needed=Money(needed),
            )
        )
    events: list[Event] = []
    if state.phase == "idle":
        state = open_betting(state, now, events)
    seat = replace(seat, stack=seat.stack - ante - pair_plus, ante=ante, pair_plus=pair_plus)
    state = with_seat(state, seat, number)
    events.append(BetPlaced(seat=number, ante=ante, pair_plus=pair_plus))
    return refresh_betting(state, now, events), events
