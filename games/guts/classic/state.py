"""The state of a classic Guts table (docs/rules/guts-classic.md): immutable and JSON-serialisable.

A *game* runs from the first ante until the pot and the reserve are both empty; a game is one
or more deals (hands). Per-seat hand data are tuples indexed by seat number; cards are indices.

Phases: ``waiting`` (fewer than two can play), ``deal`` (the runtime sends the deck),
``pass`` (Pass Left), ``declare``, ``stage_over`` (the games in stages: a stage's result shows;
the next stage's cards follow, from the same deck), ``pause`` (the result shows; the next deal
follows).

>>> from games.guts.classic.config import classic_config
>>> state = new_classic_table(classic_config("two_card", {"ante": 100, "seats": 4}))
>>> state.phase, state.pot, state.reserve
('waiting', 0, 0)
>>> load_classic(dump_classic(state)) == state
True
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from games.cards import DECK, parse_cards
from games.guts.classic.config import ClassicConfig, classic_config
from games.guts.table import Seat
from games.time_bank import NO_BANKS, Banks

__all__ = ["ClassicState", "dump_classic", "load_classic", "new_classic_table"]


@dataclass(frozen=True, slots=True)
class ClassicState:
    """One classic Guts table.

    ``game_active``: a game is under way (``Seat.in_round`` marks its players).
    ``excused``: seats that paid on the last deal (``ante_when=every_deal`` excuses them).
    ``dealt``: the hand's seats in declaring order (left of the dealer first, dealer last).
    ``face_up``: cards everyone sees (low-wild third cards, Partial Reveal last cards).
    ``community``: the Batey. ``ghost``: the hand dealt to nobody. ``stock``: undealt cards.
    ``turn``: the seat to declare (sequential). ``challenge``: the dealer's challenge round.
    ``passes``: each seat's card passed left (-1: not yet). ``revealed``: seats whose hands
    everyone may see (In hands at the showdown). ``wild``: wild ranks of this deal.
    ``stage``: Two Plus One's first (two cards) or second (three cards) declare; the stage of
    3-5-7, Nuts and Napalm (1, 2, ...); Toh's deal from this deck (1, 2, ...).
    ``marks``: each seat's legs (3-5-7), nuts, tokens (Napalm) or points (Toh) in this game;
    ``target``: how many take the pot (fixed at the game's start). ``kept``: Toh's point cards,
    face up. ``private_show``: the hands in ``revealed`` are seen only by those seats (a private
    comparison of 3-5-7 or Napalm).
    """

    config: ClassicConfig
    seats: tuple[Seat | None, ...]
    phase: str = "waiting"
    deadline: float | None = None
    button: int | None = None
    pot: int = 0
    reserve: int = 0
    game: int = 0
    hand: int = 0
    game_active: bool = False
    excused: tuple[int, ...] = ()
    dealt: tuple[int, ...] = ()
    cards: tuple[tuple[int, ...], ...] = ()
    face_up: tuple[int, ...] = ()
    community: tuple[int, ...] = ()
    ghost: tuple[int, ...] = ()
    stock: tuple[int, ...] = ()
    choices: tuple[str, ...] = ()
    turn: int | None = None
    challenge: bool = False
    passes: tuple[int, ...] = ()
    revealed: tuple[int, ...] = ()
    wild: str = ""
    stage: int = 1
    marks: tuple[int, ...] = ()
    target: int = 0
    kept: tuple[tuple[int, ...], ...] = ()
    private_show: bool = False
    #: What the stage just settled showed, while its result is on the table (``stage_over``):
    #: ``("shown", seat, words)``, ``("paid", payer, payee, cents)``, ``("mark", seat, total)``.
    stage_result: tuple[tuple[Any, ...], ...] = ()
    #: Each seat's time bank (games/time_bank.py): full at each hand's or game's start.
    banks: Banks = NO_BANKS

    def __post_init__(self) -> None:
        # A state built without banks (a test's, or from before time banks) gets full ones.
        if len(self.banks.left) != len(self.seats):
            object.__setattr__(self, "banks", Banks.full(len(self.seats), self.config.time_bank))


def new_classic_table(config: ClassicConfig) -> ClassicState:
    """An empty classic table: nobody seated, no game."""
    count = config.seats
    return ClassicState(
        config=config,
        seats=(None,) * count,
        cards=((),) * count,
        choices=("",) * count,
        passes=(-1,) * count,
        marks=(0,) * count,
        kept=((),) * count,
    )


_CARD_TUPLES = ("face_up", "community", "ghost", "stock")
_INT_TUPLES = ("excused", "dealt", "passes", "revealed", "marks")
_HANDS = ("cards", "kept")


def _text(cards: tuple[int, ...]) -> str:
    return " ".join(str(DECK[card]) for card in cards)


def _indices(text: str) -> tuple[int, ...]:
    return tuple(card.index for card in parse_cards(text))


def dump_classic(state: ClassicState) -> dict[str, Any]:
    """The state as JSON (cards as text)."""
    data: dict[str, Any] = {"game_kind": "guts", "variant": "classic"}
    for field in fields(state):
        value = getattr(state, field.name)
        if field.name in ("config", "banks"):
            value = value.to_json()
        elif field.name == "seats":
            value = [None if seat is None else _seat_json(seat) for seat in value]
        elif field.name in _HANDS:
            value = [_text(hand) for hand in value]
        elif field.name in _CARD_TUPLES:
            value = _text(value)
        elif field.name == "stage_result":
            value = [list(line) for line in value]
        elif isinstance(value, tuple):
            value = list(value)
        data[field.name] = value
    return data


def _seat_json(seat: Seat) -> dict[str, Any]:
    return {name.name: getattr(seat, name.name) for name in fields(seat)}


def load_classic(data: dict[str, Any]) -> ClassicState:
    """Read back a state written by :func:`dump_classic` (fields it lacks, from an older
    version, take a new table's values)."""
    options = dict(data["config"])
    config = classic_config(options.pop("preset"), options)
    empty = dump_classic(new_classic_table(config))
    values = {field.name: data.get(field.name, empty[field.name]) for field in fields(ClassicState)}
    values["config"] = config
    values["seats"] = tuple(None if seat is None else Seat(**seat) for seat in values["seats"])
    for name in _HANDS:
        values[name] = tuple(_indices(text) for text in values[name])
    for name in _CARD_TUPLES:
        values[name] = _indices(values[name])
    for name in _INT_TUPLES:
        values[name] = tuple(values[name])
    values["choices"] = tuple(values["choices"])
    values["stage_result"] = tuple(tuple(line) for line in values["stage_result"])
    values["banks"] = Banks.from_json(values["banks"], config.seats, config.time_bank)
    return ClassicState(**values)
