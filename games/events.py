"""What every game's events share: the event base and the seat events of a cash table.

An event is a frozen dataclass over :class:`BaseEvent`, with ``moves()`` (the
:class:`~games.engine.Move` records it makes, in order; none unless the event says otherwise)
and ``to_json()`` (``{"type": ..., ...}`` with the fields; tuples as lists and, in a game's
``CARD_FIELDS``, card indices as text). ``type`` is the snake-case class name unless the class
names it itself; the names are the stored hand history, so a class that names its ``type`` keeps
that name whatever the class is called.

Privacy: ``private_to`` is ``None`` for a public event, a seat number for an event only that
seat may read, or :data:`~games.engine.HIDDEN` (-1) for one nobody at the table may read yet.
``audience`` (``None`` unless an event is shown to a group) is the set of seats that may read
it; where it is set it decides alone. ``visible_to(seat)`` says whether a viewer (``None``: a
spectator or the public history) may read the event.

>>> ToppedUp(seat=2, amount=500).to_json()
{'type': 'topped_up', 'seat': 2, 'amount': 500}
>>> PlayerSat(seat=2, stack=5000).moves()
(Move(source='bankroll:2', target='stack:2', amount=5000),)
>>> PlayerLeft(seat=2, stack=0).moves()
()
>>> SatIn(seat=1).visible_to(None), SatIn(seat=1).private_to, SatIn(seat=1).audience
(True, None, None)

A game's own events name their card fields and their privacy:

>>> @dataclass(frozen=True, slots=True)
... class HoleCards(BaseEvent):
...     CARD_FIELDS = frozenset({"cards"})
...     seat: int
...     cards: tuple[int, ...]
...
...     @property
...     def private_to(self) -> int | None:
...         return self.seat
>>> dealt = HoleCards(seat=3, cards=(51, 0))
>>> dealt.to_json()
{'type': 'hole_cards', 'seat': 3, 'cards': ['As', '2c']}
>>> dealt.visible_to(3), dealt.visible_to(1), dealt.visible_to(None)
(True, False, False)
"""

from __future__ import annotations

import contextlib
import importlib
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass, fields, is_dataclass
from functools import cache
from types import MappingProxyType
from typing import Any, ClassVar

from games.cards import DECK, CardError, parse_card
from games.engine import HIDDEN, Move, bankroll, stack

__all__ = [
    "HIDDEN",
    "BaseEvent",
    "ConnectionChanged",
    "LevelRaised",
    "PlayerLeft",
    "PlayerSat",
    "SatIn",
    "SatOut",
    "ToppedUp",
    "card_fields",
    "card_text",
    "event_cards",
    "plain",
]

_CAMEL_HUMP = re.compile(r"(?<!^)(?=[A-Z])")


def plain(value: Any) -> Any:
    """A field's value as JSON: tuples (at any depth) become lists.

    >>> plain(((1, 2), (3, 4)))
    [[1, 2], [3, 4]]
    """
    if isinstance(value, tuple):
        return [plain(item) for item in value]
    return value


def card_text(value: Any) -> Any:
    """A card field as JSON: one card index, or a sequence of them, as text (``None`` stays).
    A card already held as text stays as it is (Three Card Poker keeps its cards as text).

    >>> card_text(51), card_text((51, 0)), card_text(None), card_text(("As", "2c"))
    ('As', ['As', '2c'], None, ['As', '2c'])
    """
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(DECK[value])
    return [card if isinstance(card, str) else str(DECK[card]) for card in value]


class BaseEvent:
    """Shared behaviour: public, no money, JSON from the fields."""

    __slots__ = ()
    type: ClassVar[str]
    #: The fields that hold card indices, written as card text in ``to_json``.
    CARD_FIELDS: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "type" not in cls.__dict__:
            cls.type = _CAMEL_HUMP.sub("_", cls.__name__).lower()

    @property
    def private_to(self) -> int | None:
        """The only seat that may read this event (``HIDDEN``: nobody), or ``None``: public."""
        return None

    @property
    def audience(self) -> Collection[int] | None:
        """The seats that may read an event shown to a group (``None``: see ``private_to``)."""
        return None

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None``: a spectator or the public history) may read this event."""
        group = self.audience
        if group is not None:
            return seat in group
        private = self.private_to
        return private is None or private == seat

    def moves(self) -> tuple[Move, ...]:
        """The money this event moved (none, unless the event says otherwise)."""
        return ()

    def to_json(self) -> dict[str, Any]:
        """The event as JSON, with a ``type``; cards as text."""
        data: dict[str, Any] = {"type": self.type}
        for field in fields(self):  # type: ignore[arg-type]
            value = getattr(self, field.name)
            data[field.name] = card_text(value) if field.name in self.CARD_FIELDS else plain(value)
        return data


# The seat events below are those whose JSON is the same in the games that use them. An event
# type has one schema in every game: Guts' own PlayerSat adds the player's name to this one, and
# its SatOut a ``reason``. Rows stored before the schemas were one name the cents of Guts'
# ``player_sat`` and ``player_left`` ``amount``: their readers (cardroom/history/,
# cardroom/presentation/) read ``stack`` and fall back on ``amount``.


@dataclass(frozen=True, slots=True)
class PlayerSat(BaseEvent):
    """A player sat down with ``stack`` cents from their bankroll."""

    type: ClassVar[str] = "player_sat"
    seat: int
    stack: int

    def moves(self) -> tuple[Move, ...]:
        return (Move(bankroll(self.seat), stack(self.seat), self.stack),)


@dataclass(frozen=True, slots=True)
class ToppedUp(BaseEvent):
    """A seated player added ``amount`` cents to their table stack from their bankroll."""

    type: ClassVar[str] = "topped_up"
    seat: int
    amount: int

    def moves(self) -> tuple[Move, ...]:
        return (Move(bankroll(self.seat), stack(self.seat), self.amount),)


@dataclass(frozen=True, slots=True)
class PlayerLeft(BaseEvent):
    """A player left; their whole table stack (``stack`` cents) went back to their bankroll."""

    type: ClassVar[str] = "player_left"
    seat: int
    stack: int

    def moves(self) -> tuple[Move, ...]:
        if self.stack == 0:
            return ()
        return (Move(stack(self.seat), bankroll(self.seat), self.stack),)


@dataclass(frozen=True, slots=True)
class SatOut(BaseEvent):
    """A player sits out from the next hand (or round) on."""

    type: ClassVar[str] = "sat_out"
    seat: int


@dataclass(frozen=True, slots=True)
class SatIn(BaseEvent):
    """A player who sat out is back in play from the next hand (or round) on."""

    type: ClassVar[str] = "sat_in"
    seat: int


@dataclass(frozen=True, slots=True)
class ConnectionChanged(BaseEvent):
    """The seat's player connected or disconnected (play goes on either way)."""

    type: ClassVar[str] = "connection_changed"
    seat: int
    connected: bool


@dataclass(frozen=True, slots=True)
class LevelRaised(BaseEvent):
    """A tournament's level changed the table's stake to ``stake`` (the runtime action
    ``level``): Guts' ante, from its next ante call, with the ``match_cap`` that follows it;
    Chinese Poker's unit, from its next hand (``match_cap`` ``None``: it has none).

    >>> LevelRaised(stake=50, match_cap=1000).to_json()
    {'type': 'level_raised', 'stake': 50, 'match_cap': 1000}
    """

    type: ClassVar[str] = "level_raised"
    stake: int
    match_cap: int | None = None


# Reading stored events back: a history holds each event as its JSON, named by its ``type``.
# Only the fields a class declares in CARD_FIELDS hold cards; any other text (a player's name,
# a choice, a hand in words) is never taken for a card, whatever it looks like.

#: The modules whose events a table's history may hold, imported on first use (they import
#: this module, so it cannot import them at its top).
EVENT_MODULES = (
    "games.guts.events",
    "games.chinese_poker.events",
    "games.three_card_poker.events",
)


@cache
def card_fields() -> Mapping[str, frozenset[str]]:
    """Each event ``type`` → the names of the fields that hold its cards. Where classes of
    several games share a type (``cards_dealt``, ``player_sat``, ...), their card fields are
    united.

    >>> sorted(card_fields()["hand_shown"]), sorted(card_fields()["player_sat"])
    (['card', 'cards'], ['card', 'cards'])
    """
    for name in EVENT_MODULES:
        importlib.import_module(name)
    found: dict[str, frozenset[str]] = {}
    pending: list[type[BaseEvent]] = [BaseEvent]
    while pending:
        for cls in pending.pop().__subclasses__():
            pending.append(cls)
            if is_dataclass(cls):  # an event, not a shared base such as a game's ``_Event``
                found[cls.type] = found.get(cls.type, frozenset()) | cls.CARD_FIELDS
    return MappingProxyType(found)


def event_cards(data: Mapping[str, Any]) -> frozenset[str]:
    """The cards a stored event names: those in its type's card fields, and no others.

    A card field holds a card, a list of them (at any depth), or records whose own card fields
    hold them (Chinese Poker's revealed hands: each seat's rows). An unknown type has none.

    >>> shown = {"type": "hand_shown", "seat": 1, "cards": ["9s", "Ah"], "description": "9s"}
    >>> sorted(event_cards(shown))
    ['9s', 'Ah']
    >>> event_cards({"type": "player_sat", "seat": 2, "player": "9s", "amount": 500})
    frozenset()
    >>> revealed = {"type": "hand_revealed", "hands": [{"seat": 0, "front": ["Qd", "Qh", "2c"],
    ...     "middle": [], "back": [], "natural": None, "status": "regular", "why": "Kd"}]}
    >>> sorted(event_cards(revealed))
    ['2c', 'Qd', 'Qh']
    """
    names = card_fields().get(str(data.get("type")), frozenset())
    return frozenset(_record_cards(data, names))


def _record_cards(record: Mapping[str, Any], names: frozenset[str]) -> set[str]:
    found: set[str] = set()
    for name in names & record.keys():
        found |= _cards(record[name], names)
    return found


def _cards(value: Any, names: frozenset[str]) -> set[str]:
    if isinstance(value, str):
        with contextlib.suppress(CardError):  # an empty or odd entry names no card
            return {str(parse_card(value))}
        return set()
    if isinstance(value, Mapping):
        return _record_cards(value, names)
    if isinstance(value, (list, tuple)):
        return set().union(*(_cards(item, names) for item in value))
    return set()
