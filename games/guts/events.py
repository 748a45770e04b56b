"""What happens at a Guts table: the events that are the hand history and move the money.

Every event is a frozen dataclass with ``moves()`` (the :class:`~games.engine.Move` records it
makes, in order) and ``to_json()`` (``{"type": ..., ...}``; cards as text), over
:class:`games.events.BaseEvent`; ``ToppedUp``, ``PlayerLeft``, ``SatIn`` and ``ConnectionChanged``
are the shared ones of :mod:`games.events`.

Privacy: ``private_to`` is the one seat that may read an event, or ``None`` when everyone may;
``visible_to(seat)`` says whether a viewer (``None``: a spectator or the public history) may.
:class:`CardsDealt` and :class:`CardReceived` are private to their seat; :class:`BlindCardsDealt`
(No Peek) is private to :data:`NOBODY` until the reveal. Out hands are never in a public event;
:class:`Decided` says only that a seat has chosen, and :class:`Declared` (the choice) comes when
the declare has ended.

Some events are for a group of seats: :class:`HandShownPrivately` (a private comparison of
3-5-7 or Napalm) may be read by its ``audience``, the players In, and nobody else. Its
``private_to`` is :data:`NOBODY`, so that a reader that knows only ``private_to`` shows it to
no one (it fails closed); ``audience`` (``None`` on every other event) and ``visible_to`` say who
may read it.

>>> dealt = CardsDealt(seat=2, cards=(51, 47, 0))
>>> dealt.to_json()
{'type': 'cards_dealt', 'seat': 2, 'cards': ['As', 'Ks', '2c']}
>>> dealt.visible_to(2), dealt.visible_to(3), dealt.visible_to(None)
(True, False, False)
>>> PotMatched(seat=1, amount=300, owed=300).moves()
(Move(source='stack:1', target='pot', amount=300),)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from games.engine import Move, bankroll, stack
from games.events import HIDDEN, BaseEvent, ConnectionChanged, PlayerLeft, SatIn, ToppedUp

__all__ = [
    "NOBODY",
    "AnteCalled",
    "AnteDeclined",
    "AntePosted",
    "AntesReturned",
    "BlindCardsDealt",
    "ButtonMoved",
    "CardPassed",
    "CardReceived",
    "CardsDealt",
    "CommunityCard",
    "ConnectionChanged",
    "Decided",
    "DeckHandShown",
    "Declared",
    "FaceUpCard",
    "GhostShown",
    "HandEnded",
    "HandShown",
    "HandShownPrivately",
    "HandStarted",
    "LegWon",
    "Mucked",
    "NutWon",
    "PlayerLeft",
    "PlayerSat",
    "PointWon",
    "PotCarried",
    "PotMatched",
    "PotReturned",
    "PotWon",
    "RakeTaken",
    "ReserveMoved",
    "RoundEnded",
    "RoundStarted",
    "SatIn",
    "SatOut",
    "SeatPaid",
    "StageStarted",
    "TokenWon",
    "ToppedUp",
]

_NO_MOVES: tuple[Move, ...] = ()

#: ``private_to`` of an event nobody may read yet (cards dealt face down to a No Peek player).
NOBODY = HIDDEN


class _Event(BaseEvent):
    """A Guts event: ``cards`` and ``card`` hold card indices."""

    __slots__ = ()
    CARD_FIELDS = frozenset({"cards", "card"})


@dataclass(frozen=True, slots=True)
class PlayerSat(_Event):
    """``player`` sat down in ``seat`` with a table stack of ``stack`` cents from their
    bankroll (the shared event's ``stack``, games/events.py, plus the player's name)."""

    type: ClassVar[str] = "player_sat"
    seat: int
    player: str
    stack: int

    def moves(self) -> tuple[Move, ...]:
        return (Move(bankroll(self.seat), stack(self.seat), self.stack),)


@dataclass(frozen=True, slots=True)
class SatOut(_Event):
    """The seat sits out (``reason``: asked, ante_timeout, short_payment, ...)."""

    type: ClassVar[str] = "sat_out"
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class RoundStarted(_Event):
    """A round began: ``seats`` are asked to ante."""

    type: ClassVar[str] = "round_started"
    round: int
    seats: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AnteCalled(_Event):
    """Between hands: ``seats`` must ante to stay in the round; ``owing`` must top up."""

    type: ClassVar[str] = "ante_called"
    seats: tuple[int, ...]
    owing: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AntePosted(_Event):
    """``seat`` put the ante into the pot."""

    type: ClassVar[str] = "ante_posted"
    seat: int
    amount: int

    def moves(self) -> tuple[Move, ...]:
        return (Move(stack(self.seat), "pot", self.amount),)


@dataclass(frozen=True, slots=True)
class AnteDeclined(_Event):
    """``seat`` did not ante (``timed_out`` if by the clock) and sits out the round."""

    type: ClassVar[str] = "ante_declined"
    seat: int
    timed_out: bool


@dataclass(frozen=True, slots=True)
class AntesReturned(_Event):
    """Too few players anted: each ante goes back. ``amounts``: (seat, cents) pairs."""

    type: ClassVar[str] = "antes_returned"
    amounts: tuple[tuple[int, int], ...]

    def moves(self) -> tuple[Move, ...]:
        return tuple(Move("pot", stack(seat), amount) for seat, amount in self.amounts)


@dataclass(frozen=True, slots=True)
class HandStarted(_Event):
    """A hand is dealt to ``seats`` for a ``pot``; the first event of every hand."""

    type: ClassVar[str] = "hand_started"
    hand: int
    round: int
    button: int
    seats: tuple[int, ...]
    pot: int


@dataclass(frozen=True, slots=True)
class CardsDealt(_Event):
    """``seat`` was dealt ``cards`` (card indices): private to that seat."""

    type: ClassVar[str] = "cards_dealt"
    seat: int
    cards: tuple[int, ...]

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class Decided(_Event):
    """``seat`` has chosen; what it chose stays hidden until the declare ends."""

    type: ClassVar[str] = "decided"
    seat: int


@dataclass(frozen=True, slots=True)
class Declared(_Event):
    """At the end of the declare: ``seat`` is ``in`` or ``out`` (``timed_out``: by the clock)."""

    type: ClassVar[str] = "declared"
    seat: int
    choice: str
    timed_out: bool


@dataclass(frozen=True, slots=True)
class HandShown(_Event):
    """An In hand, shown to everyone at the reveal."""

    type: ClassVar[str] = "hand_shown"
    seat: int
    cards: tuple[int, ...]
    description: str


@dataclass(frozen=True, slots=True)
class HandShownPrivately(_Event):
    """A private comparison (3-5-7 and Napalm before the last stage): an In hand shown only to
    the players In (``seats``), never to those Out or to spectators.

    >>> event = HandShownPrivately(seat=1, cards=(51, 47, 0), description="ace-high", seats=(1, 4))
    >>> event.visible_to(4), event.visible_to(2), event.visible_to(None), event.private_to
    (True, False, False, -1)
    """

    type: ClassVar[str] = "hand_shown_privately"
    seat: int
    cards: tuple[int, ...]
    description: str
    seats: tuple[int, ...]

    @property
    def private_to(self) -> int | None:
        return NOBODY

    @property
    def audience(self) -> tuple[int, ...] | None:
        return self.seats


@dataclass(frozen=True, slots=True)
class StageStarted(_Event):
    """A stage of a game in stages began (Toh: a deal from the same deck): each player now
    holds ``hand_size`` cards; ``direction`` ``high`` or ``low``; ``wild`` ranks; who deals."""

    type: ClassVar[str] = "stage_started"
    stage: int
    hand_size: int
    direction: str
    wild: str
    dealer: int


@dataclass(frozen=True, slots=True)
class LegWon(_Event):
    """3-5-7: ``seat``, In alone, took a leg; it now has ``total``."""

    type: ClassVar[str] = "leg_won"
    seat: int
    total: int


@dataclass(frozen=True, slots=True)
class NutWon(_Event):
    """Nuts: ``seat``, In alone, took a nut; it now has ``total``."""

    type: ClassVar[str] = "nut_won"
    seat: int
    total: int


@dataclass(frozen=True, slots=True)
class TokenWon(_Event):
    """Napalm: ``seat``, In alone, took a token; it now has ``total``."""

    type: ClassVar[str] = "token_won"
    seat: int
    total: int


@dataclass(frozen=True, slots=True)
class PointWon(_Event):
    """Toh: ``seat`` won the deal and keeps ``card`` face up as a point; it now has ``total``."""

    type: ClassVar[str] = "point_won"
    seat: int
    card: int
    total: int


@dataclass(frozen=True, slots=True)
class Mucked(_Event):
    """An Out hand went into the muck unseen (its cards are in no public event)."""

    type: ClassVar[str] = "mucked"
    seat: int


@dataclass(frozen=True, slots=True)
class RakeTaken(_Event):
    """The house fee on a pot won."""

    type: ClassVar[str] = "rake_taken"
    amount: int

    def moves(self) -> tuple[Move, ...]:
        return (Move("pot", "rake", self.amount),) if self.amount else _NO_MOVES


@dataclass(frozen=True, slots=True)
class PotWon(_Event):
    """``seat`` took ``amount`` from the pot (its share, after the rake)."""

    type: ClassVar[str] = "pot_won"
    seat: int
    amount: int

    def moves(self) -> tuple[Move, ...]:
        return (Move("pot", stack(self.seat), self.amount),) if self.amount else _NO_MOVES


@dataclass(frozen=True, slots=True)
class PotMatched(_Event):
    """A loser paid ``amount`` of the ``owed`` match into the next pot."""

    type: ClassVar[str] = "pot_matched"
    seat: int
    amount: int
    owed: int

    def moves(self) -> tuple[Move, ...]:
        return (Move(stack(self.seat), "pot", self.amount),) if self.amount else _NO_MOVES


@dataclass(frozen=True, slots=True)
class SeatPaid(_Event):
    """``payer`` paid ``amount`` straight to ``payee`` (games where losers pay the winner)."""

    type: ClassVar[str] = "seat_paid"
    payer: int
    payee: int
    amount: int

    def moves(self) -> tuple[Move, ...]:
        return (Move(stack(self.payer), stack(self.payee), self.amount),)


@dataclass(frozen=True, slots=True)
class PotCarried(_Event):
    """Nobody took the pot; it stays for the next hand."""

    type: ClassVar[str] = "pot_carried"
    pot: int


@dataclass(frozen=True, slots=True)
class PotReturned(_Event):
    """The table stopped between hands with chips in the pot (and reserve): they went back to
    the players who paid them in, in the shares they paid (games/guts/pot_return.py).

    ``returns``: (place, player, cents) triples, the place ``stack:<seat>`` for a player still
    seated and ``bankroll:<n>`` for one who has left. ``reserve``: the part that was in the
    reserve (it joins the pot first). A share for one who has left passes through their stack
    at the table (``stack:<n>``) on its way to their bankroll, as all their results do.

    >>> PotReturned((("stack:1", "ann", 50), ("bankroll:9", "bo", 25)), 25).moves()
    ... # doctest: +NORMALIZE_WHITESPACE
    (Move(source='reserve', target='pot', amount=25),
     Move(source='pot', target='stack:1', amount=50),
     Move(source='pot', target='stack:9', amount=25),
     Move(source='stack:9', target='bankroll:9', amount=25))
    """

    type: ClassVar[str] = "pot_returned"
    returns: tuple[tuple[str, str, int], ...]
    reserve: int

    def moves(self) -> tuple[Move, ...]:
        moves = [Move("reserve", "pot", self.reserve)] if self.reserve else []
        for place, _, amount in self.returns:
            name, _, number = place.partition(":")
            moves.append(Move("pot", stack(int(number)), amount))
            if name == "bankroll":
                moves.append(Move(stack(int(number)), place, amount))
        return tuple(moves)


@dataclass(frozen=True, slots=True)
class HandEnded(_Event):
    """The last event of a hand: who won and who owes what."""

    type: ClassVar[str] = "hand_ended"
    hand: int
    pot: int
    rake: int
    winners: tuple[tuple[int, int], ...]
    owed: tuple[tuple[int, int], ...]
    round_over: bool


@dataclass(frozen=True, slots=True)
class ButtonMoved(_Event):
    """The button moved to ``seat``."""

    type: ClassVar[str] = "button_moved"
    seat: int


@dataclass(frozen=True, slots=True)
class RoundEnded(_Event):
    """The round is over (``reason``: no_losers, single_in, last_player, no_players, ...)."""

    type: ClassVar[str] = "round_ended"
    round: int
    reason: str


@dataclass(frozen=True, slots=True)
class BlindCardsDealt(_Event):
    """No Peek: ``seat`` was dealt ``cards`` face down that not even its owner may see yet."""

    type: ClassVar[str] = "blind_cards_dealt"
    seat: int
    cards: tuple[int, ...]

    @property
    def private_to(self) -> int | None:
        return NOBODY


@dataclass(frozen=True, slots=True)
class FaceUpCard(_Event):
    """``seat`` was dealt ``card`` face up: everyone sees it."""

    type: ClassVar[str] = "face_up_card"
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class CommunityCard(_Event):
    """The Batey: ``cards`` turned up, part of every hand."""

    type: ClassVar[str] = "community_card"
    cards: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GhostShown(_Event):
    """The ghost hand, dealt to nobody, shown at the showdown."""

    type: ClassVar[str] = "ghost_shown"
    cards: tuple[int, ...]
    description: str


@dataclass(frozen=True, slots=True)
class DeckHandShown(_Event):
    """4-2-2's ``lone_vs_deck``: the deck's next ``cards`` turned up against a lone hand In."""

    type: ClassVar[str] = "deck_hand_shown"
    cards: tuple[int, ...]
    description: str


@dataclass(frozen=True, slots=True)
class CardPassed(_Event):
    """``seat`` passed a card face down to the left (which card stays private)."""

    type: ClassVar[str] = "card_passed"
    seat: int


@dataclass(frozen=True, slots=True)
class CardReceived(_Event):
    """``seat`` received ``card`` from ``giver``: private to the receiver."""

    type: ClassVar[str] = "card_received"
    seat: int
    giver: int
    card: int

    @property
    def private_to(self) -> int | None:
        return self.seat


@dataclass(frozen=True, slots=True)
class ReserveMoved(_Event):
    """``amount`` moved between the pot and the reserve (``to_reserve``: over the pot limit)."""

    type: ClassVar[str] = "reserve_moved"
    amount: int
    to_reserve: bool

    def moves(self) -> tuple[Move, ...]:
        if self.to_reserve:
            return (Move("pot", "reserve", self.amount),)
        return (Move("reserve", "pot", self.amount),)
