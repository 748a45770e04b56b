"""Online Monte Carlo and Survivor Guts as a state machine (docs/rules/guts-online.md, all of it).

``apply(state, action) -> (state, events)``; an illegal action raises
:class:`~games.engine.IllegalAction` saying why and changes nothing. Player actions (each with
``seat`` and ``now``): ``sit`` (``stack``, optional ``player``), ``leave``, ``top_up``
(``amount``), ``sit_out``, ``sit_in``, ``ante``, ``decline`` (no ante; or, for a short loser, pay
what is on the table now), ``declare`` (``choice``: ``in`` or ``out``). Runtime actions:
``connect`` / ``disconnect`` (``seat``), ``deal`` (``deck``), ``timeout``, ``return_pot``
(``returns``: games/guts/pot_return.py) and ``level`` (``stake``: a tournament's new ante, whole
chips, no seat; event ``level_raised``).

Decisions where the rules page is silent (a careful cardroom's choices):

- The first button goes to the lowest seat dealt into the table's first hand; after every hand
  it moves clockwise to the next seated player not sitting out (docs/architecture.md).
- Cards are dealt one at a time, three times round, in seat order from the button.
- A player who lets an ante call time out is also sat out (they are away); one who declines
  (``decline``, or ``sit_out`` while asked) only misses the round.
- While the declare is open everybody may see *that* a seat has decided, as online rooms show,
  never *what*: the choices are published (``declared``) when the declare ends.
- Leaving during a hand: a seat that has not chosen is Out at once; a seat that already chose
  In stays In (a choice is final), any match it owes is collected at once (all it has, if
  short: a leaving player gets no top-up window), and the stack goes back when the hand ends.
- A player may add chips (``top_up``) at any time except while dealt into a live hand (the
  deal and the declare); with ``max_buy_in`` set, the stack may not exceed it.
- The short loser's ``top_up_seconds`` run from the moment the ante call ends: its last
  answer, or its deadline (the seats that let it pass are then out at once). With nobody asked
  to ante, the call ends as it opens. The table has one deadline at a time, so a timeout is
  either the ante call's or the window's, and the same actions at the same times give the same
  deadlines on replay.
- Between hands, a round player who is sitting out leaves the round, whether they would be
  asked to ante or are excused from it (they were In).
- If nobody at all remains in a round after an ante call (all declined, the owers paid
  short), the pot stays on the table and is played for in the next round, as a pot nobody won
  stays when nobody is In.
- ``showdown_seconds`` (default 3) is the pause after every hand and between rounds.
- A table that becomes playable (a second player sits or sits in) waits ``showdown_seconds``
  before the first ante call, so players arriving together start together.

Tournament tables (docs/table-options.md; the options of games/guts/config.py):

- ``level`` is valid at any time; the new ante (and the match cap that follows it,
  ``raised_config``) takes effect from the next ante call: an ante call already open, and the
  hand being played, keep the old stake. At a table waiting for players it takes effect at once.
- ``short_ante`` ``all_in``: a seat asked for an ante it cannot cover posts all it has and plays
  on. A round player left with no chips is all in: it is dealt every hand of the round without
  an ante and is In at once (it has nothing more to risk); it plays for the whole pot, as table
  stakes let a short stack do, and a loss it cannot pay it pays with what it has (nothing),
  leaving the round. A seat with no chips is never asked to ante nor dealt into a new round.
- ``away_antes``: the table posts every ante of a call itself as the call opens (nobody is asked,
  nobody can decline): a seat sitting out or away is anted and dealt in like the others, and its
  declare is Out at once (as it is for a seat that sits out while the declare is open).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from games.engine import ConfigError, IllegalAction
from games.events import LevelRaised
from games.guts import events as ev
from games.guts.checks import action_amount, action_now, action_seat, check_top_up, sit_request
from games.guts.config import raised_config
from games.guts.pot_return import return_online_pot
from games.guts.rounds import (
    answered,
    ante_timeout,
    call_antes,
    can_ante,
    deal,
    eligible_seats,
    evolve,
    in_live_hand,
    maybe_close,
    post_ante,
    put,
    showdown,
    with_stack,
)
from games.guts.table import OnlineState, Seat
from games.tournament.levels import level_action_stake
from games.words import Money, sentence_of, words

__all__ = ["ACTIONS", "apply", "seat_player"]

Events = list[Any]
Handler = Callable[[OnlineState, Mapping[str, Any], float], tuple[OnlineState, Events]]


def _wake(state: OnlineState, now: float) -> OnlineState:
    """A waiting table with two players who can play starts its first round after a pause."""
    if state.phase == "waiting" and len(eligible_seats(state)) >= 2:
        return evolve(state, phase="pause", deadline=now + state.config.showdown_seconds)
    return state


def seat_player(state: OnlineState, seat: int, player: str, stack: int) -> OnlineState:
    """Seat ``player`` with ``stack`` without the buy-in limits (scripts and tests only).

    The runtime uses the ``sit`` action, which checks the limits and records the buy-in.
    """
    if state.seats[seat] is not None:
        raise IllegalAction(words("seat {seat} is taken", seat=seat))
    return evolve(state, seats=put(state.seats, seat, Seat(player, stack)))


def _sit(state: OnlineState, action: Mapping[str, Any], now: float) -> tuple[OnlineState, Events]:
    index, player, amount = sit_request(state, action)
    state = evolve(state, seats=put(state.seats, index, Seat(player, amount)))
    return _wake(state, now), [ev.PlayerSat(index, player, amount)]


def _leave(state: OnlineState, action: Mapping[str, Any], now: float) -> tuple[OnlineState, Events]:
    index = action_seat(state, action)
    seat = state.seats[index]
    assert seat is not None
    events: Events = []
    if in_live_hand(state, index):
        if seat.leaving:
            raise IllegalAction(words("you are already leaving when this hand ends"))
        state = evolve(state, seats=put(state.seats, index, with_stack(seat, 0, leaving=True)))
        if state.phase == "declare" and not state.choices[index]:
            state = evolve(state, choices=put(state.choices, index, "out"))
            events.append(ev.Decided(index))
            if all(state.choices[dealt] for dealt in state.dealt):
                return showdown(state, now, events)
        return state, events
    owed = state.owed[index]
    stack, pot = seat.stack, state.pot
    if owed:
        paid = min(stack, owed)
        events.append(ev.PotMatched(index, paid, owed))
        stack, pot = stack - paid, pot + paid
    asked = index in state.pending
    if asked:
        events.append(ev.AnteDeclined(index, False))
    events.append(ev.PlayerLeft(index, stack))
    state = evolve(
        state,
        seats=put(state.seats, index, None),
        pot=pot,
        owed=put(state.owed, index, 0),
        pending=tuple(other for other in state.pending if other != index),
        confirmed=tuple(other for other in state.confirmed if other != index),
    )
    return (answered if asked else maybe_close)(state, now, events), events


def _top_up(
    state: OnlineState, action: Mapping[str, Any], now: float
) -> tuple[OnlineState, Events]:
    index = action_seat(state, action)
    seat = state.seats[index]
    assert seat is not None
    amount = action_amount(action, "amount")
    if in_live_hand(state, index):
        raise IllegalAction(words("chips can't be added while you are in a hand"))
    check_top_up(state.config, seat.stack, amount)
    events: Events = [ev.ToppedUp(index, amount)]
    seat = with_stack(seat, amount)
    owed, pot, confirmed = state.owed[index], state.pot, state.confirmed
    if owed and seat.stack >= owed:
        events.append(ev.PotMatched(index, owed, owed))
        seat, pot, owed = with_stack(seat, -owed), pot + owed, 0
        confirmed = tuple(sorted((*confirmed, index)))
    state = evolve(
        state,
        seats=put(state.seats, index, seat),
        owed=put(state.owed, index, owed),
        pot=pot,
        confirmed=confirmed,
    )
    return _wake(maybe_close(state, now, events), now), events


def _sit_out(
    state: OnlineState, action: Mapping[str, Any], now: float
) -> tuple[OnlineState, Events]:
    index = action_seat(state, action)
    seat = state.seats[index]
    assert seat is not None
    if seat.sitting_out:
        raise IllegalAction(words("you are already sitting out"))
    events: Events = [ev.SatOut(index, "asked")]
    pending = state.pending
    asked = index in pending
    if asked:
        events.append(ev.AnteDeclined(index, False))
        pending = tuple(other for other in pending if other != index)
    seats = put(state.seats, index, with_stack(seat, 0, sitting_out=True))
    state = evolve(state, seats=seats, pending=pending)
    if (
        state.config.away_antes
        and state.phase == "declare"
        and index in state.dealt
        and not state.choices[index]
    ):  # a seat sitting out is Out at once at such a table, as at the deal
        state = evolve(state, choices=put(state.choices, index, "out"))
        events.append(ev.Decided(index))
        if all(state.choices[dealt] for dealt in state.dealt):
            return showdown(state, now, events)
        return state, events
    return (answered if asked else maybe_close)(state, now, events), events


def _sit_in(
    state: OnlineState, action: Mapping[str, Any], now: float
) -> tuple[OnlineState, Events]:
    index = action_seat(state, action)
    seat = state.seats[index]
    assert seat is not None
    if not seat.sitting_out:
        raise IllegalAction(words("you are not sitting out"))
    state = evolve(state, seats=put(state.seats, index, with_stack(seat, 0, sitting_out=False)))
    return _wake(state, now), [ev.SatIn(index)]


def _connection(connected: bool) -> Handler:
    def handler(
        state: OnlineState, action: Mapping[str, Any], now: float
    ) -> tuple[OnlineState, Events]:
        index = action_seat(state, action)
        seat = state.seats[index]
        assert seat is not None
        if seat.connected == connected:
            return state, []  # a repeated notice from the runtime changes nothing
        seats = put(state.seats, index, with_stack(seat, 0, connected=connected))
        return evolve(state, seats=seats), [ev.ConnectionChanged(index, connected)]

    return handler


def _ante(state: OnlineState, action: Mapping[str, Any], now: float) -> tuple[OnlineState, Events]:
    index = action_seat(state, action)
    if state.phase != "ante" or index not in state.pending:
        raise IllegalAction(words("you are not asked to ante now"))
    seat = state.seats[index]
    assert seat is not None
    ante = state.config.ante
    if not can_ante(state, seat):
        raise IllegalAction(
            words(
                "the ante is {ante} and your stack holds {stack}: top up",
                ante=Money(ante),
                stack=Money(seat.stack),
            )
        )
    events: Events = []
    state = post_ante(state, index, events)
    return answered(state, now, events), events


def _decline(
    state: OnlineState, action: Mapping[str, Any], now: float
) -> tuple[OnlineState, Events]:
    index = action_seat(state, action)
    events: Events = []
    if state.phase == "ante" and index in state.pending:
        events.append(ev.AnteDeclined(index, False))
        state = evolve(state, pending=tuple(other for other in state.pending if other != index))
        return answered(state, now, events), events
    if state.phase in ("ante", "pause") and state.owed[index]:
        seat = state.seats[index]
        assert seat is not None
        owed = state.owed[index]
        paid = min(seat.stack, owed)
        events.append(ev.PotMatched(index, paid, owed))
        state = evolve(
            state,
            seats=put(state.seats, index, with_stack(seat, -paid, in_round=False)),
            pot=state.pot + paid,
            owed=put(state.owed, index, 0),
        )
    else:
        raise IllegalAction(words("there is nothing to decline now"))
    return maybe_close(state, now, events), events


def _declare(
    state: OnlineState, action: Mapping[str, Any], now: float
) -> tuple[OnlineState, Events]:
    index = action_seat(state, action)
    if state.phase != "declare" or index not in state.dealt:
        raise IllegalAction(words("you have no hand to declare now"))
    if state.choices[index]:
        raise IllegalAction(words("you have already chosen, and a choice is final"))
    choice = action.get("choice")
    if choice not in ("in", "out"):
        raise IllegalAction(words("choose 'in' or 'out', not {choice}", choice=repr(choice)))
    state = evolve(state, choices=put(state.choices, index, choice))
    events: Events = [ev.Decided(index)]
    if all(state.choices[dealt] for dealt in state.dealt):
        return showdown(state, now, events)
    return state, events


def _timeout(
    state: OnlineState, action: Mapping[str, Any], now: float
) -> tuple[OnlineState, Events]:
    if state.deadline is None:
        raise IllegalAction(words("nothing is waiting on the clock"))
    if now < state.deadline:
        raise IllegalAction(
            words(
                "the deadline {deadline} has not passed (now {now})",
                deadline=state.deadline,
                now=now,
            )
        )
    events: Events = []
    if state.phase == "ante":
        return ante_timeout(state, now, events), events
    if state.phase == "declare":
        return showdown(state, now, events, timed_out=True)
    return call_antes(state, now, events), events


def _level(state: OnlineState, action: Mapping[str, Any], now: float) -> tuple[OnlineState, Events]:
    """A tournament's level: the ante becomes ``stake`` from the next ante call (at once at a
    table waiting for players). No seat: the runtime sends it."""
    stake = level_action_stake(action)
    try:
        raised = raised_config(state.config, stake)
    except ConfigError as error:
        raise IllegalAction(sentence_of(error)) from error
    events: Events = [LevelRaised(stake, raised.match_cap)]
    if state.phase == "waiting":
        return _wake(evolve(state, config=raised, next_stake=None), now), events
    return evolve(state, next_stake=stake), events


#: Every action kind and its handler.
ACTIONS: dict[str, Handler] = {
    "sit": _sit,
    "leave": _leave,
    "top_up": _top_up,
    "sit_out": _sit_out,
    "sit_in": _sit_in,
    "connect": _connection(True),
    "disconnect": _connection(False),
    "ante": _ante,
    "decline": _decline,
    "declare": _declare,
    "deal": deal,
    "timeout": _timeout,
    "return_pot": return_online_pot,
    "level": _level,
}


def apply(state: OnlineState, action: Mapping[str, Any]) -> tuple[OnlineState, tuple[Any, ...]]:
    """Apply one action: the new state and the events, or :class:`IllegalAction`."""
    if not isinstance(action, Mapping):
        raise IllegalAction(words("an action is a JSON object with a 'kind'"))
    handler = ACTIONS.get(action.get("kind"))  # type: ignore[arg-type]
    if handler is None:
        raise IllegalAction(
            words(
                "unknown action {kind}; actions: {actions}",
                kind=repr(action.get("kind")),
                actions=", ".join(ACTIONS),
            )
        )
    new, events = handler(state, action, action_now(action))
    return new, tuple(events)
