"""A carried pot given back when a Guts table stops between hands.

A pot carries from hand to hand (nobody In, or an ante call that left nobody in the round), so
a table can stop with chips in it: an operator closes it, or its last player leaves. Such a pot
is nobody's winnings; it goes back to the players who paid into it, in the shares they paid
(docs/rules/guts-online.md, "Seats, leaving and dropped connections"). Who paid what is the
ledger's record, not the state's, so the runtime works the shares out and hands them over in
the runtime action ``return_pot``::

    {"kind": "return_pot", "now": ..., "returns": [
        {"place": "stack:3", "player": "dana", "amount": 50},
        {"place": "bankroll:9", "player": "erik", "amount": 25}]}

A share goes to the stack of a player still seated (``stack:<seat>``, the seat's player named),
or straight to the bankroll of one who has left, which the runtime names by a number past the
table's last seat (``bankroll:<n>``, n >= the number of seats), so it never means a seat. The
shares must add up to the pot and reserve exactly. Only between hands (no cards out): the round
or game under way ends with it; the table then waits for players, or starts afresh after the
usual pause if two can play.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.engine import IllegalAction
from games.guts import events as ev
from games.guts.rounds import evolve, with_stack
from games.guts.table import OnlineState, Seat
from games.words import Money, words

__all__ = [
    "CLASSIC_STOPS",
    "ONLINE_STOPS",
    "between_hands",
    "credited",
    "read_returns",
    "return_online_pot",
    "woken",
]

#: The phases an online table may stop in: no cards are out (the antes of a coming hand are
#: in the pot, and go back with it).
ONLINE_STOPS = frozenset({"waiting", "pause", "ante", "deal"})
#: The same for a classic table (its antes are posted at the deal).
CLASSIC_STOPS = frozenset({"waiting", "pause", "deal"})

Events = list[Any]
Share = tuple[str, str, int]


def read_returns(
    action: Mapping[str, Any], seats: Sequence[Seat | None], total: int
) -> tuple[Share, ...]:
    """The ``returns`` of a ``return_pot`` action, checked against the table: each a positive
    whole number of cents to a seated player's stack or to a departed player's bankroll, and
    all of them the pot and reserve (``total``) to the cent."""
    returns = action.get("returns")
    if not isinstance(returns, list) or not returns:
        raise IllegalAction(words("'returns' lists who gets what back of the pot"))
    shares: list[Share] = []
    for entry in returns:
        if not isinstance(entry, Mapping):
            raise IllegalAction(words("each return is an object with place, player and amount"))
        place, player, amount = entry.get("place"), entry.get("player"), entry.get("amount")
        if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
            raise IllegalAction(
                words("a return is a positive whole number of cents, not {value}", value=amount)
            )
        if not isinstance(player, str) or not player or not _place_of(place, player, seats):
            raise IllegalAction(
                words("no player {player} at {place}", player=repr(player), place=repr(place))
            )
        shares.append((str(place), player, amount))
    given = sum(amount for _, _, amount in shares)
    if given != total:
        raise IllegalAction(
            words(
                "the returns add up to {given}, and the pot holds {total}",
                given=Money(given),
                total=Money(total),
            )
        )
    return tuple(shares)


def _place_of(place: Any, player: str, seats: Sequence[Seat | None]) -> bool:
    """Whether ``place`` is the seated ``player``'s stack, or a bankroll past the seats."""
    if not isinstance(place, str):
        return False
    name, _, number = place.partition(":")
    if not number.isdigit():
        return False
    index = int(number)
    if name == "stack" and index < len(seats):
        seat = seats[index]
        return seat is not None and seat.player == player
    return name == "bankroll" and index >= len(seats)


def credited(seats: Sequence[Seat | None], shares: tuple[Share, ...]) -> list[Seat | None]:
    """The seats with each seated player's share on their stack, and out of any round."""
    credited = list(seats)
    for place, _, amount in shares:
        name, _, number = place.partition(":")
        if name == "stack":
            seat = credited[int(number)]
            assert seat is not None
            credited[int(number)] = with_stack(seat, amount)
    return [None if seat is None else with_stack(seat, 0, in_round=False) for seat in credited]


def woken(seats: Sequence[Seat | None], ante: int, now: float, pause: float) -> dict[str, Any]:
    """The table's phase after the return: a pause before a new start if two can play."""
    ready = [
        seat for seat in seats
        if seat is not None and not seat.sitting_out and not seat.leaving and seat.stack >= ante
    ]  # fmt: skip
    if len(ready) >= 2:
        return {"phase": "pause", "deadline": now + pause}
    return {"phase": "waiting", "deadline": None}


def between_hands(phase: str, stops: frozenset[str]) -> None:
    if phase not in stops:
        raise IllegalAction(
            words("a pot goes back only between hands (the table is in its {phase} phase)",
                  phase=phase)
        )  # fmt: skip


def return_online_pot(
    state: OnlineState, action: Mapping[str, Any], now: float
) -> tuple[OnlineState, Events]:
    """``return_pot`` at an online table: the round ends, the pot goes back."""
    between_hands(state.phase, ONLINE_STOPS)
    shares = read_returns(action, state.seats, state.pot)
    events: Events = [ev.PotReturned(shares, 0)]
    if state.round_active or state.starting:
        events.append(ev.RoundEnded(state.round, "pot_returned"))
    count = len(state.seats)
    seats = credited(state.seats, shares)
    config = state.config
    state = evolve(
        state, seats=tuple(seats), **woken(seats, config.ante, now, config.showdown_seconds),
        pot=0, round_active=False, starting=False, pending=(), confirmed=(), dealt=(),
        cards=((),) * count, choices=("",) * count, owed=(0,) * count, shown=False,
        timed_out=(),
    )  # fmt: skip
    return state, events
