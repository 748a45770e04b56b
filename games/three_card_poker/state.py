"""A Three Card Poker table's state: immutable, JSON round-trip (games/engine.py).

Phases of a round (docs/rules/three-card-poker.md, "A round"):

- ``idle``: no round open and no clock; a bet, a sit or a sit-in opens one;
- ``betting``: bets are taken until ``deadline``; the round closes early once every seat in
  play has bet;
- ``dealing``: bets are closed and the table wants a deck (:meth:`wants_deck`);
- ``deciding``: cards are out; each player in the hand plays or folds until ``deadline``, or
  until their own time bank runs out (``banks``, games/time_bank.py: ``deadline`` is then the
  earliest own deadline of the players still deciding).

When the last decision is in, the dealer's cards are revealed, every bet is settled and the next
round's betting opens at once. The last hand's cards stay face up (``revealed``) until the next
deal. Cards are held as :attr:`games.cards.Card.index` numbers and dumped as text.

>>> state = new_table(TableConfig(seats=2))
>>> state.phase, state.seats
('idle', (None, None))
>>> load_state(dump_state(state)) == state
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.cards import card_from_index, parse_card
from games.engine import IllegalAction
from games.three_card_poker.config import TableConfig, config_from_json
from games.time_bank import NO_BANKS, Banks
from games.words import words

__all__ = [
    "PHASES",
    "SeatState",
    "TableState",
    "amount_of",
    "dump_state",
    "load_state",
    "new_table",
    "now_of",
    "seat_of",
    "with_seat",
]

PHASES = ("idle", "betting", "dealing", "deciding")


@dataclass(frozen=True, slots=True)
class SeatState:
    """One occupied seat.

    ``ante``, ``pair_plus`` and ``play`` are this round's bets (0: none). ``cards`` are the seat's
    cards of the current or last hand; ``decision`` is ``"play"`` or ``"fold"`` once made.
    ``leaving`` marks a player who asked to leave during a hand: the cash-out follows its end.
    ``player`` is the name shown at the seat; ``results`` are the last hand's bet results
    (bet, outcome, stake, paid), kept until the next deal so the table can show them.
    """

    seat: int
    stack: int
    player: str = ""
    sitting_out: bool = False
    connected: bool = True
    leaving: bool = False
    ante: int = 0
    pair_plus: int = 0
    play: int = 0
    cards: tuple[int, ...] = ()
    decision: str | None = None
    results: tuple[tuple[str, str, int, int], ...] = ()

    def can_bet(self, config: TableConfig) -> bool:
        """In play for the next round: present, sitting in, and able to cover the least Ante
        and its Play."""
        return not self.sitting_out and not self.leaving and self.stack >= 2 * config.min_ante


@dataclass(frozen=True, slots=True)
class TableState:
    """The whole table: config, seats (``None`` where empty), phase and the current hand."""

    config: TableConfig
    seats: tuple[SeatState | None, ...]
    phase: str = "idle"
    deadline: float | None = None
    hand: int = 0
    dealer_cards: tuple[int, ...] = ()
    revealed: bool = False
    banks: Banks = NO_BANKS

    def __post_init__(self) -> None:
        # A state built without banks (a test's, or from before time banks) gets full ones.
        if len(self.banks.left) != len(self.seats):
            object.__setattr__(self, "banks", Banks.full(len(self.seats), self.config.time_bank))

    def occupied(self) -> Iterator[SeatState]:
        """The occupied seats, in seat order."""
        return (seat for seat in self.seats if seat is not None)

    def in_hand(self) -> Iterator[SeatState]:
        """The seats dealt into the current hand (from the deal to the settlement)."""
        if self.phase != "deciding":
            return iter(())
        return (seat for seat in self.occupied() if seat.ante > 0)


def new_table(config: TableConfig | None = None) -> TableState:
    """An empty table."""
    config = config or TableConfig()
    return TableState(config=config, seats=(None,) * config.seats)


def with_seat(state: TableState, seat: SeatState | None, number: int) -> TableState:
    """``state`` with seat ``number`` replaced."""
    seats = list(state.seats)
    seats[number] = seat
    return replace(state, seats=tuple(seats))


def now_of(action: Mapping[str, Any]) -> float:
    """The action's time, checked."""
    now = action.get("now")
    if isinstance(now, bool) or not isinstance(now, (int, float)):
        raise IllegalAction(words("an action needs a time 'now' in seconds"))
    return float(now)


def seat_of(state: TableState, action: Mapping[str, Any], *, occupied: bool = True) -> int:
    """The action's seat number, checked (and checked to be occupied unless told otherwise)."""
    number = action.get("seat")
    if isinstance(number, bool) or not isinstance(number, int):
        raise IllegalAction(words("this action needs a seat number"))
    if not 0 <= number < len(state.seats):
        raise IllegalAction(
            words("no seat {seat}: seats are 0 to {last}", seat=number, last=len(state.seats) - 1)
        )
    if occupied and state.seats[number] is None:
        raise IllegalAction(words("seat {seat} is empty", seat=number))
    return number


def amount_of(action: Mapping[str, Any], name: str, *, default: int | None = None) -> int:
    """A whole number of cents from the action, checked."""
    value = action.get(name, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise IllegalAction(
            words(
                "{field} must be a whole number of cents, 0 or more; got {value}",
                field=name,
                value=repr(value),
            )
        )
    return value


def _cards(indices: tuple[int, ...]) -> list[str]:
    return [str(card_from_index(index)) for index in indices]


def _indices(texts: list[str]) -> tuple[int, ...]:
    return tuple(parse_card(text).index for text in texts)


def dump_state(state: TableState) -> dict[str, Any]:
    """The state as JSON (cards as text)."""
    seats: list[dict[str, Any] | None] = []
    for seat in state.seats:
        if seat is None:
            seats.append(None)
            continue
        seats.append(
            {
                "seat": seat.seat,
                "stack": seat.stack,
                "sitting_out": seat.sitting_out,
                "connected": seat.connected,
                "leaving": seat.leaving,
                "ante": seat.ante,
                "pair_plus": seat.pair_plus,
                "play": seat.play,
                "cards": _cards(seat.cards),
                "decision": seat.decision,
                "player": seat.player,
                "results": [list(result) for result in seat.results],
            }
        )
    return {
        "config": state.config.to_json(),
        "seats": seats,
        "phase": state.phase,
        "deadline": state.deadline,
        "hand": state.hand,
        "dealer_cards": _cards(state.dealer_cards),
        "revealed": state.revealed,
        "banks": state.banks.to_json(),
    }


def load_state(data: Mapping[str, Any]) -> TableState:
    """The state :func:`dump_state` wrote."""
    seats: list[SeatState | None] = []
    for item in data["seats"]:
        if item is None:
            seats.append(None)
            continue
        fields = dict(item)
        fields["cards"] = _indices(fields["cards"])
        fields["results"] = tuple(
            (str(bet), str(outcome), int(stake), int(paid))
            for bet, outcome, stake, paid in fields.get("results", ())
        )
        seats.append(SeatState(**fields))
    if data["phase"] not in PHASES:
        raise ValueError(f"unknown phase {data['phase']!r}; phases: {', '.join(PHASES)}")
    config = config_from_json(data["config"])
    return TableState(
        config=config,
        seats=tuple(seats),
        phase=data["phase"],
        deadline=data["deadline"],
        hand=data["hand"],
        dealer_cards=_indices(data["dealer_cards"]),
        revealed=data["revealed"],
        banks=Banks.from_json(data.get("banks"), len(seats), config.time_bank),
    )
