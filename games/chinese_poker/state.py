"""The state of a Chinese Poker table: seats, the hand in play, the last hand's result.

Everything is immutable (frozen dataclasses with tuple fields) and round-trips through JSON
with :func:`dump` and :func:`load`. Cards are card indices (``games.cards.Card.index``).

Phases:

- ``waiting``: fewer than two players can be dealt in;
- ``pause``: the short pause between hands (a deadline; its timeout ends it);
- ``ready``: a hand can start; the runtime shuffles and applies ``deal``;
- ``setting``: cards are out, players set their rows (deadline: ``set_seconds``).

>>> state = new_table(ChinesePokerConfig(unit=100))
>>> state.phase, len(state.seats), load(dump(state)) == state
('waiting', 4, True)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from games.chinese_poker.config import ChinesePokerConfig, config_from_json
from games.time_bank import NO_BANKS, Banks

__all__ = [
    "PHASES",
    "ChinesePokerState",
    "Entry",
    "Result",
    "SeatState",
    "dump",
    "load",
    "new_table",
]

PHASES = ("waiting", "pause", "ready", "setting")


@dataclass(frozen=True, slots=True)
class SeatState:
    """A seated player: their stack, name and flags (``leaving``: cash out when the hand
    ends)."""

    stack: int
    player: str = ""
    sitting_out: bool = False
    connected: bool = True
    leaving: bool = False


@dataclass(frozen=True, slots=True)
class Entry:
    """A seat's part in the hand.

    ``status`` is ``setting`` (rows may still change), ``submitted`` or ``surrendered``;
    rows are empty until set. ``claimed_after_surrender`` records that an opponent had already
    surrendered when the natural was declared (docs/rules/chinese-poker.md, "Clean sweeps").
    """

    seat: int
    cards: tuple[int, ...]
    start_stack: int
    front: tuple[int, ...] = ()
    middle: tuple[int, ...] = ()
    back: tuple[int, ...] = ()
    status: str = "setting"
    natural: str | None = None
    claimed_after_surrender: bool = False
    auto: bool = False


@dataclass(frozen=True, slots=True)
class Result:
    """The last hand's outcome, shown after the reveal (JSON-ready tuples of pairs)."""

    statuses: tuple[tuple[int, str, str | None, str], ...]
    pairs: tuple[tuple[int, int, tuple[int, ...] | None, int, str], ...]
    payments: tuple[tuple[int, int, int], ...]
    units: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class ChinesePokerState:
    """A whole table. ``button`` is -1 before the first hand; ``entries`` hold the hand being
    played or, after the reveal, the hand just played (until the next deal). ``banks``: each
    seat's time bank (games/time_bank.py); ``deadline`` while setting is the earliest own
    deadline of the players still setting."""

    config: ChinesePokerConfig
    seats: tuple[SeatState | None, ...]
    phase: str = "waiting"
    button: int = -1
    hand_number: int = 0
    deadline: float | None = None
    entries: tuple[Entry, ...] = ()
    result: Result | None = None
    banks: Banks = NO_BANKS
    #: A tournament level's unit (action ``level``) waiting for the hand in play to end.
    next_unit: int | None = None

    def __post_init__(self) -> None:
        # A state built without banks (a test's, or from before time banks) gets full ones.
        if len(self.banks.left) != len(self.seats):
            object.__setattr__(self, "banks", Banks.full(len(self.seats), self.config.time_bank))

    def entry(self, seat: int) -> Entry | None:
        """The seat's part in the current (or last) hand, if any."""
        for entry in self.entries:
            if entry.seat == seat:
                return entry
        return None

    @property
    def in_hand(self) -> bool:
        """Whether a hand is being played (cards out, not yet revealed)."""
        return self.phase == "setting"


def new_table(config: ChinesePokerConfig) -> ChinesePokerState:
    """An empty table."""
    return ChinesePokerState(config=config, seats=(None,) * config.seats)


def dump(state: ChinesePokerState) -> dict[str, Any]:
    """The state as JSON."""
    data = asdict(state)
    data["config"] = state.config.to_json()
    data["banks"] = state.banks.to_json()
    return data


def _tuples(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tuples(item) for item in value)
    return value


def load(data: dict[str, Any]) -> ChinesePokerState:
    """A state from :func:`dump`'s JSON."""
    seats = tuple(None if seat is None else SeatState(**seat) for seat in data["seats"])
    entries = tuple(
        Entry(**{key: _tuples(value) for key, value in entry.items()}) for entry in data["entries"]
    )
    result = data.get("result")
    config = config_from_json(data["config"])
    return ChinesePokerState(
        config=config,
        seats=seats,
        phase=data["phase"],
        button=data["button"],
        hand_number=data["hand_number"],
        deadline=data["deadline"],
        entries=entries,
        result=None if result is None else Result(**{k: _tuples(v) for k, v in result.items()}),
        banks=Banks.from_json(data.get("banks"), len(seats), config.time_bank),
        next_unit=data.get("next_unit"),  # absent from states saved before tournaments
    )
