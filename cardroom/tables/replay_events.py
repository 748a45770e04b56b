"""What each event of a hand does to the replayer's picture of the table, and its words.

A :class:`TablePicture` is the table at one moment of a hand: every seat with its player,
stack, the cards the viewer may see and how many lie face down, what it declared or bet; the pot
and reserve; the board where a game has one. :func:`apply_event` changes it as one stored event
says and returns the step's words ("antes $1.00", after the acting seat's name). Money moves as
:func:`event_moves` reads it from the event, between the places the games name
(games/engine.py): the same moves each game's events make, which a test holds this to.

Only the events given are read, and a replay is given the viewer's redacted history, so the
picture holds no card the hand page would not show them.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from accounts.money import format_cents
from cardroom.presentation.chinese import NATURAL_NAMES
from cardroom.presentation.event_words import event_words

__all__ = [
    "BET_RESULTS",
    "QUIET",
    "SECTIONS",
    "TablePicture",
    "apply_event",
    "event_moves",
    "signed",
]

#: Events that tell nothing about the hand: no step of their own.
QUIET = frozenset({"connection_changed", "connected", "disconnected"})

_ANTES = (
    "round_started", "ante_called", "ante_posted", "ante_declined", "antes_returned",
    "betting_opened", "bet_placed", "bet_missed", "bets_returned", "betting_closed",
    "hand_fee_paid",
)  # fmt: skip
_DEAL = (
    "hand_started", "cards_dealt", "blind_cards_dealt", "face_up_card", "community_card",
    "stage_started", "card_received",
)  # fmt: skip
_DECISIONS = (
    "decided", "declared", "card_passed", "played", "folded", "rows_set", "natural_declared",
    "hand_submitted", "surrendered", "leave_pending", "leave_requested",
)  # fmt: skip
_SHOWDOWN = (
    "hand_shown", "hand_shown_privately", "mucked", "ghost_shown", "deck_hand_shown",
    "dealer_revealed", "hand_revealed", "pair_scored", "leg_won", "nut_won", "token_won",
    "point_won",
)  # fmt: skip

#: Three Card Poker's bet results: the bet, and what happened to it.
BET_RESULTS: dict[str, tuple[str, str]] = {
    "ante_won": ("Ante", "wins"),
    "ante_returned": ("Ante", "is returned"),
    "ante_lost": ("Ante", "loses"),
    "play_won": ("Play", "wins"),
    "play_returned": ("Play", "is returned"),
    "play_lost": ("Play", "loses"),
    "ante_bonus_won": ("Ante bonus", "pays"),
    "pair_plus_won": ("Pair Plus", "wins"),
    "pair_plus_returned": ("Pair Plus", "is returned"),
    "pair_plus_lost": ("Pair Plus", "loses"),
}

_PAYMENTS = (
    "rake_taken", "pot_won", "pot_matched", "seat_paid", "pot_carried", "reserve_moved",
    "payment_made", "hand_ended", "hand_voided", *BET_RESULTS,
)  # fmt: skip

#: Each event type's part of the hand (the step's label, the text export's headings); an event
#: of no part (a player sitting down, the button moving) stays in the part it came in.
SECTIONS: dict[str, str] = {
    **dict.fromkeys(_ANTES, "antes"),
    **dict.fromkeys(_DEAL, "deal"),
    **dict.fromkeys(_DECISIONS, "decisions"),
    **dict.fromkeys(_SHOWDOWN, "showdown"),
    **dict.fromkeys(_PAYMENTS, "payments"),
}

#: Chinese Poker's pairs where nothing changes hands, by the reason scored.
EVEN_PAIRS = {
    "natural_tie": "naturals of equal rank",
    "both_fouled": "both fouled",
    "both_surrendered": "both surrendered",
}

#: Reasons the games give (sitting out, a round's end), in words.
REASONS = {
    "ante_timeout": "did not ante in time",
    "short_payment": "could not pay in full",
    "asked": "",
    "no_losers": "nobody lost",
    "single_in": "one player was In alone",
    "last_player": "one player is left",
    "no_players": "nobody is left",
}

#: Ranks as a wild card is named: "fives wild", never "5s wild", which reads as a card.
RANK_PLURALS = {
    "2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes", "7": "sevens",
    "8": "eights", "9": "nines", "T": "tens", "J": "jacks", "Q": "queens", "K": "kings",
    "A": "aces",
}  # fmt: skip

Move = tuple[str, str, int]


def event_moves(data: Mapping[str, Any]) -> list[Move]:
    """The money a stored event moved, as (source, target, cents) between the games' places
    (``stack:N``, ``bankroll:N``, ``pot``, ``reserve``, ``rake``, ``house``).

    >>> event_moves({"type": "ante_posted", "seat": 2, "amount": 100})
    [('stack:2', 'pot', 100)]
    >>> event_moves({"type": "bet_placed", "seat": 0, "ante": 100, "pair_plus": 0})
    [('stack:0', 'house', 100)]
    """
    kind = data.get("type")
    seat = data.get("seat")
    stack = f"stack:{seat}"
    moves: list[Move] = []
    if kind in ("player_sat", "topped_up"):
        moves = [(f"bankroll:{seat}", stack, _cents(data, "amount", "stack"))]
    elif kind == "player_left":
        moves = [(stack, f"bankroll:{seat}", _cents(data, "amount", "stack"))]
    elif kind in ("ante_posted", "pot_matched"):
        moves = [(stack, "pot", _cents(data, "amount"))]
    elif kind == "antes_returned":
        moves = [("pot", f"stack:{back}", int(cents)) for back, cents in data.get("amounts", [])]
    elif kind == "rake_taken":
        moves = [("pot", "rake", _cents(data, "amount"))]
    elif kind == "pot_won":
        moves = [("pot", stack, _cents(data, "amount"))]
    elif kind in ("seat_paid", "payment_made"):
        payee = data.get("payee", data.get("winner"))
        moves = [(f"stack:{data.get('payer')}", f"stack:{payee}", _cents(data, "amount"))]
    elif kind == "reserve_moved":
        source, target = ("pot", "reserve") if data.get("to_reserve") else ("reserve", "pot")
        moves = [(source, target, _cents(data, "amount"))]
    elif kind == "hand_fee_paid":
        moves = [(stack, "rake", _cents(data, "amount"))]
    elif kind == "bet_placed":
        moves = [(stack, "house", _cents(data, name)) for name in ("ante", "pair_plus")]
    elif kind == "bets_returned":
        moves = [("house", stack, _cents(data, "amount"))]
    elif kind == "played":
        moves = [(stack, "house", _cents(data, "amount"))]
    elif kind in BET_RESULTS:
        moves = [("house", stack, _cents(data, "paid"))]
    return [move for move in moves if move[2]]


def _cents(data: Mapping[str, Any], *names: str) -> int:
    """The first of ``names`` that holds cents (games name the same amount differently)."""
    for name in names:
        value = data.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return 0


def signed(cents: int) -> str:
    """A result in words: "+$1.91", "−$4.00", "even".

    >>> signed(191), signed(-400), signed(0)
    ('+$1.91', '−$4.00', 'even')
    """
    if cents == 0:
        return "even"
    return ("+" if cents > 0 else "−") + format_cents(abs(cents))


# ---------------------------------------------------------------------------------------------
# The picture.


@dataclass
class SeatPicture:
    """One seat as the viewer saw it at one moment."""

    seat: int
    player: str
    stack: int
    present: bool = True
    cards: list[str] = field(default_factory=list)
    face_up: list[str] = field(default_factory=list)
    down: int = 0
    dealt: bool = False
    choice: str = ""
    note: str = ""
    status: str = ""
    rows: dict[str, list[str]] | None = None
    bets: dict[str, int] = field(default_factory=dict)
    results: list[str] = field(default_factory=list)
    marks: str = ""
    points: list[str] = field(default_factory=list)
    net: int = 0


@dataclass
class Board:
    """Cards that belong to no seat: the community card, a ghost hand, the dealer's."""

    name: str
    cards: list[str] = field(default_factory=list)
    down: int = 0
    note: str = ""


class TablePicture:
    """The table during one hand, for one viewer: changed event by event."""

    def __init__(
        self,
        *,
        game: str,
        names: Mapping[int, str],
        stacks: Mapping[int, int],
        pot: int,
        reserve: int,
        you: Collection[int],
        deal: int | None,
    ) -> None:
        self.game = game
        self.names = dict(names)
        self.you = set(you)
        #: Cards each seat is dealt face down, when the game always deals the same number.
        self.deal = deal
        self.seats = {n: SeatPicture(n, self.name(n), cents) for n, cents in stacks.items()}
        self.places: Counter[str] = Counter({"pot": pot, "reserve": reserve})
        self.start_places = Counter(self.places)
        self.start_stacks = dict(stacks)
        self.board: dict[str, Board] = {}
        self.button: int | None = None
        self.hand_size: int | None = None
        #: Every move of the hand by (source, target); ``paid``: those of play (no bankroll).
        self.moved: Counter[tuple[str, str]] = Counter()
        self.paid: Counter[tuple[str, str]] = Counter()

    def name(self, seat: Any) -> str:
        return self.names.get(seat, f"seat {seat}") if isinstance(seat, int) else "the dealer"

    def seat(self, number: int) -> SeatPicture:
        if number not in self.seats:
            self.seats[number] = SeatPicture(number, self.name(number), 0, present=False)
        return self.seats[number]

    def place_name(self, place: str) -> str:
        kind, _, number = place.partition(":")
        if kind == "stack":
            return self.name(int(number))
        if kind == "bankroll":
            return f"{self.name(int(number))}'s bankroll"
        names = {"pot": "the pot", "reserve": "the reserve", "rake": "the house (rake)"}
        return names.get(kind, "the house")

    def move_record(self, source: str, target: str, cents: int) -> dict[str, Any]:
        """One payment as a step shows it: who paid whom, how much."""
        return {
            "from": self.place_name(source),
            "to": self.place_name(target),
            "amount": cents,
            "text": format_cents(cents),
        }

    def move(self, moves: Sequence[Move]) -> list[dict[str, Any]]:
        """Apply money moves; the step's record of them."""
        for source, target, cents in moves:
            for place, other, sign in ((source, target, -1), (target, source, 1)):
                kind, _, number = place.partition(":")
                if kind == "stack":
                    seat = self.seat(int(number))
                    seat.stack += sign * cents
                    if not other.startswith("bankroll:"):
                        seat.net += sign * cents
                elif kind != "bankroll":
                    self.places[kind] += sign * cents
            self.moved[(source, target)] += cents
            if not (source.startswith("bankroll:") or target.startswith("bankroll:")):
                self.paid[(source, target)] += cents
        return [self.move_record(*move) for move in moves]

    def void(self) -> list[dict[str, Any]]:
        """A void: every move of the hand is reversed, so all is as when the hand began."""
        done = [
            self.move_record(target, source, cents)
            for (source, target), cents in reversed(self.moved.items())
        ]
        for number, seat in self.seats.items():
            seat.stack, seat.net = self.start_stacks.get(number, 0), 0
            seat.present = number in self.start_stacks
            seat.bets = {}
        self.places = Counter(self.start_places)
        self.moved.clear()
        self.paid.clear()
        return done

    def picture(self, acting: int | None) -> dict[str, Any]:
        """The whole table now, as JSON (``acting``: the seat whose step this is)."""
        seats = [
            self._seat_json(seat, acting)
            for _, seat in sorted(self.seats.items())
            if seat.present or seat.net or seat.cards
        ]
        pots = []
        if self.game in ("guts", "classic_guts") or self.places["pot"]:
            pots.append(_pot("Pot", self.places["pot"]))
        if self.places["reserve"] or self.start_places["reserve"]:
            pots.append(_pot("Reserve", self.places["reserve"]))
        if self.game == "three_card_poker":
            # What the house holds of this hand's bets: up while bets are out, then its result.
            house = self.places["house"]
            pots.append({"name": "The house", "amount": house, "text": signed(house)})
        board = [
            {"name": b.name, "cards": list(b.cards), "down": b.down, "note": b.note}
            for b in self.board.values()
        ]
        rake = self.places["rake"]
        text = format_cents(rake)
        return {"seats": seats, "pots": pots, "board": board, "rake": rake, "rake_text": text}

    def _seat_json(self, seat: SeatPicture, acting: int | None) -> dict[str, Any]:
        return {
            "seat": seat.seat,
            "player": seat.player,
            "stack": seat.stack,
            "stack_text": format_cents(seat.stack),
            "cards": list(seat.cards),
            "down": seat.down,
            "choice": seat.choice,
            "note": seat.note,
            "status": seat.status,
            "rows": copy.deepcopy(seat.rows),
            "bets": [
                {"name": name, "amount": cents, "text": format_cents(cents)}
                for name, cents in seat.bets.items()
                if cents
            ],
            "results": list(seat.results),
            "marks": seat.marks,
            "points": list(seat.points),
            "button": self.button == seat.seat,
            "you": seat.seat in self.you,
            "acting": seat.seat == acting,
            "net": seat.net,
            "net_text": signed(seat.net),
        }


def _pot(name: str, cents: int) -> dict[str, Any]:
    return {"name": name, "amount": cents, "text": format_cents(cents)}


# ---------------------------------------------------------------------------------------------
# The events. Each handler changes the picture and returns the acting seat (or None) and the
# step's words; the words follow the seat's name when there is one.

#: The acting seat (or None) and the step's words.
Words = tuple[int | None, str]
Handler = Callable[[TablePicture, Mapping[str, Any]], Words]
HANDLERS: dict[str, Handler] = {}


def _on(*kinds: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        for kind in kinds:
            HANDLERS[kind] = handler
        return handler

    return register


def apply_event(table: TablePicture, data: Mapping[str, Any]) -> Words:
    """Change ``table`` as the event ``data`` says: (the acting seat, the step's words).
    An event the replayer does not know is told as the hand page tells it."""
    handler = HANDLERS.get(str(data.get("type")))
    if handler is None:
        return None, event_words(data, table.names)
    return handler(table, data)


def _seat_of(table: TablePicture, data: Mapping[str, Any], name: str = "seat") -> SeatPicture:
    return table.seat(int(data[name]))


def _cards(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    return [card for card in value or () if isinstance(card, str)]


def _shown(value: Any) -> str:
    return " ".join(_cards(value))


def _listed(names: Sequence[str]) -> str:
    """ "ann", "ann and ben", "ann, ben and cat"."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _why(code: Any) -> str:
    text = str(code or "")
    return REASONS.get(text, text.replace("_", " "))


def _late(data: Mapping[str, Any], key: str = "timed_out") -> str:
    return " (time ran out)" if data.get(key) else ""


def _units(count: int) -> str:
    return f"{count} unit" if count == 1 else f"{count} units"


def _signed_units(count: int) -> str:
    """ "+2 units", "−1 unit", "even"."""
    return ("+" if count > 0 else "−") + _units(abs(count)) if count else "even"


money = format_cents


@_on("player_sat")
def _player_sat(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.present, seat.status = True, ""
    if data.get("player"):
        seat.player = table.names[seat.seat] = str(data["player"])
    return seat.seat, f"sits down with {money(_cents(data, 'amount', 'stack'))}"


@_on("player_left")
def _player_left(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.status = "left"
    cents = _cents(data, "amount", "stack")
    return seat.seat, f"leaves the table with {money(cents)}" if cents else "leaves the table"


@_on("topped_up")
def _topped_up(table: TablePicture, data: Mapping[str, Any]) -> Words:
    return int(data["seat"]), f"adds {money(_cents(data, 'amount'))} to the stack"


@_on("sat_out", "sat_in")
def _sitting_out(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    if data["type"] == "sat_in":
        seat.status = ""
        return seat.seat, "sits in"
    seat.status = "sitting out"
    why = _why(data.get("reason"))
    return seat.seat, f"sits out ({why})" if why else "sits out"


@_on("round_started")
def _round_started(table: TablePicture, data: Mapping[str, Any]) -> Words:
    names = [table.name(number) for number in data.get("seats", [])]
    return None, f"Round {data.get('round')} begins with {_listed(names)}"


@_on("round_ended")
def _round_ended(table: TablePicture, data: Mapping[str, Any]) -> Words:
    why = _why(data.get("reason"))
    return None, f"Round {data.get('round')} is over" + (f" ({why})" if why else "")


@_on("ante_called", "antes_returned", "betting_opened", "betting_closed")
def _announced(table: TablePicture, data: Mapping[str, Any]) -> Words:
    return None, {
        "ante_called": "Antes, please",
        "antes_returned": "Too few players anted: the antes go back",
        "betting_opened": "Bets are open",
        "betting_closed": "Bets are closed",
    }[str(data["type"])]


@_on("ante_posted")
def _ante_posted(table: TablePicture, data: Mapping[str, Any]) -> Words:
    return int(data["seat"]), f"antes {money(_cents(data, 'amount'))}"


@_on("ante_declined")
def _ante_declined(table: TablePicture, data: Mapping[str, Any]) -> Words:
    return int(data["seat"]), f"does not ante{_late(data)}"


@_on("hand_started")
def _hand_started(table: TablePicture, data: Mapping[str, Any]) -> Words:
    if table.game == "three_card_poker":
        seats = [int(bet["seat"]) for bet in data.get("bets", []) if isinstance(bet, dict)]
        table.board["dealer"] = Board("Dealer", down=3)
    else:
        seats = [int(seat) for seat in data.get("seats", [])]
    if isinstance(data.get("button"), int):
        table.button = data["button"]
    for number in seats:
        seat = table.seat(number)
        seat.present, seat.dealt = True, True
        seat.cards, seat.face_up, seat.choice, seat.note, seat.status = [], [], "", "", ""
        seat.down = table.deal or 0
    pot = f" for a pot of {money(data['pot'])}" if data.get("pot") else ""
    names = _listed([table.name(seat) for seat in seats])
    return None, f"Hand {data.get('hand')} is dealt to {names}{pot}"


@_on("cards_dealt")
def _cards_dealt(table: TablePicture, data: Mapping[str, Any]) -> Words:
    cards = _cards(data.get("cards"))
    if not isinstance(data.get("seat"), int):
        board = table.board.setdefault("dealer", Board("Dealer"))
        board.cards, board.down = cards, 0
        return None, f"The dealer is dealt {' '.join(cards)}"
    seat = _seat_of(table, data)
    if table.hand_size is not None and len(seat.cards) + len(cards) > table.hand_size:
        seat.cards = []  # a new deal from the same deck (Toh): the last one's cards are set aside
    seat.cards += cards
    seat.down, seat.dealt = 0, True
    # Every seat dealt in holds as many cards as the viewer's own: the backs the table showed.
    for other in table.seats.values():
        hidden = other.dealt and other.seat not in table.you and not other.cards
        if hidden and other.status != "mucked":
            other.down = len(seat.cards)
    return seat.seat, f"is dealt {' '.join(cards)}"


@_on("face_up_card")
def _face_up_card(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    card = _cards(data.get("card"))
    seat.cards += card
    seat.face_up += card
    return seat.seat, f"is dealt {' '.join(card)} face up"


@_on("community_card")
def _community_card(table: TablePicture, data: Mapping[str, Any]) -> Words:
    board = table.board.setdefault("community", Board("Community"))
    board.cards += _cards(data.get("cards"))
    return None, f"The community card: {' '.join(board.cards)}"


@_on("stage_started")
def _stage_started(table: TablePicture, data: Mapping[str, Any]) -> Words:
    size = int(data.get("hand_size", 0))
    # A stage that holds no more cards than the last is a new deal from the same deck (Toh):
    # the last deal's cards are set aside. Otherwise the stage adds cards to every hand, and
    # a hand that was Out in the last stage plays on in this one.
    new_deal = table.hand_size is not None and size <= table.hand_size
    table.hand_size = size
    for seat in table.seats.values():
        seat.choice = ""
        if not seat.dealt:
            continue
        if new_deal:
            seat.cards, seat.note = [], ""
        if seat.status == "mucked":
            seat.status = ""
        if seat.seat not in table.you:
            seat.down = max(size - len(seat.cards), 0)
    wild = " and ".join(RANK_PLURALS.get(rank, rank) for rank in str(data.get("wild") or ""))
    wild = f", {wild} wild" if wild else ""
    direction = f", {data['direction']}" if data.get("direction") else ""
    cards = "1 card" if size == 1 else f"{size} cards"
    return None, f"Stage {data.get('stage')}: each player holds {cards}{wild}{direction}"


@_on("card_passed")
def _card_passed(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.note = "passed a card"
    return seat.seat, "passes a card to the left"


@_on("card_received")
def _card_received(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    card = _cards(data.get("card"))
    seat.cards += card
    return seat.seat, f"receives {' '.join(card)} from {table.name(data.get('giver'))}"


@_on("decided")
def _decided(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.choice = "decided"
    return seat.seat, "has decided"


@_on("declared")
def _declared(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.choice = str(data.get("choice", ""))
    return seat.seat, f"declares {seat.choice.capitalize()}{_late(data)}"


@_on("hand_shown", "hand_shown_privately")
def _hand_shown(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.cards, seat.down = _cards(data.get("cards")), 0
    seat.note = str(data.get("description", ""))
    private = " to the players In" if data["type"] == "hand_shown_privately" else ""
    return seat.seat, f"shows {' '.join(seat.cards)}{private} ({seat.note})"


@_on("mucked")
def _mucked(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.down, seat.status = 0, "mucked"
    if seat.seat not in table.you:
        # Cards dealt face up were everyone's to see; the rest go into the muck unseen.
        seat.cards = [card for card in seat.cards if card in seat.face_up]
    return seat.seat, "mucks"


@_on("ghost_shown", "deck_hand_shown")
def _board_hand(table: TablePicture, data: Mapping[str, Any]) -> Words:
    ghost = data["type"] == "ghost_shown"
    key, name = ("ghost", "The ghost hand") if ghost else ("deck", "The deck's hand")
    board = table.board.setdefault(key, Board(name))
    board.cards, board.note = _cards(data.get("cards")), str(data.get("description", ""))
    return None, f"{name} shows {' '.join(board.cards)} ({board.note})"


@_on("leg_won", "nut_won", "token_won")
def _mark_won(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    mark = str(data["type"]).removesuffix("_won")
    total = int(data.get("total", 0))
    seat.marks = f"{total} {mark}" + ("" if total == 1 else "s")
    return seat.seat, f"wins a {mark} ({seat.marks} in all)"


@_on("point_won")
def _point_won(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.points += _cards(data.get("card"))
    total = int(data.get("total", 0))
    seat.marks = "1 point" if total == 1 else f"{total} points"
    card = _shown(data.get("card"))
    return seat.seat, f"wins the deal and keeps {card} as a point ({seat.marks} in all)"


@_on("rake_taken")
def _rake_taken(table: TablePicture, data: Mapping[str, Any]) -> Words:
    return None, f"The house takes {money(_cents(data, 'amount'))} in rake"


@_on("pot_won")
def _pot_won(table: TablePicture, data: Mapping[str, Any]) -> Words:
    return int(data["seat"]), f"wins {money(_cents(data, 'amount'))} from the pot"


@_on("pot_matched")
def _pot_matched(table: TablePicture, data: Mapping[str, Any]) -> Words:
    paid = _cents(data, "amount")
    owed = _cents(data, "owed") or paid
    short = f" (of {money(owed)} owed)" if owed != paid else ""
    return int(data["seat"]), f"matches the pot: {money(paid)} into the next pot{short}"


@_on("seat_paid", "payment_made")
def _seat_paid(table: TablePicture, data: Mapping[str, Any]) -> Words:
    payee = data.get("payee", data.get("winner"))
    return int(data["payer"]), f"pays {money(_cents(data, 'amount'))} to {table.name(payee)}"


@_on("pot_carried")
def _pot_carried(table: TablePicture, data: Mapping[str, Any]) -> Words:
    pot = money(_cents(data, "pot"))
    return None, f"Nobody takes the pot: {pot} carries to the next hand"


@_on("reserve_moved")
def _reserve_moved(table: TablePicture, data: Mapping[str, Any]) -> Words:
    way = "from the pot to the reserve" if data.get("to_reserve") else "from the reserve to the pot"
    return None, f"{money(_cents(data, 'amount'))} moves {way}"


@_on("button_moved")
def _button_moved(table: TablePicture, data: Mapping[str, Any]) -> Words:
    table.button = int(data["seat"])
    return None, f"The button moves to {table.name(table.button)}"


@_on("hand_ended")
def _hand_ended(table: TablePicture, data: Mapping[str, Any]) -> Words:
    number = data.get("hand")
    results = data.get("results")
    if isinstance(results, list):  # Three Card Poker: each seat against the house
        parts = [
            f"{table.name(item.get('seat'))} {signed(int(item.get('net', 0)))}"
            for item in results
            if isinstance(item, dict)
        ]
        return None, f"Hand {number} is over: {', '.join(parts) or 'no bets'} against the house"
    units = data.get("units")
    if isinstance(units, dict):  # Chinese Poker: each seat's units
        parts = [
            f"{table.name(int(seat))} {_signed_units(int(value))}" for seat, value in units.items()
        ]
        return None, f"Hand {number} is over: {', '.join(parts) or 'no play'}"
    return None, f"Hand {number} is over"


@_on("hand_voided")
def _hand_voided(table: TablePicture, data: Mapping[str, Any]) -> Words:
    return None, f"The house voids the hand ({data.get('reason')}): every chip goes back"


@_on("leave_pending", "leave_requested")
def _leaving(table: TablePicture, data: Mapping[str, Any]) -> Words:
    return int(data["seat"]), "will leave after this hand"


@_on("hand_fee_paid")
def _hand_fee_paid(table: TablePicture, data: Mapping[str, Any]) -> Words:
    return int(data["seat"]), f"pays the {money(_cents(data, 'amount'))} hand fee"


@_on("rows_set")
def _rows_set(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.rows = {row: _cards(data.get(row)) for row in ("front", "middle", "back")}
    rows = "; ".join(f"{row} {' '.join(cards)}" for row, cards in seat.rows.items())
    return seat.seat, f"sets {rows}"


@_on("natural_declared")
def _natural_declared(table: TablePicture, data: Mapping[str, Any]) -> Words:
    natural = str(data.get("natural"))
    return int(data["seat"]), f"declares a natural: {NATURAL_NAMES.get(natural, natural)}"


@_on("hand_submitted")
def _hand_submitted(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.choice = "set"
    auto = " (set by the cardroom when time ran out)" if data.get("auto") else ""
    return seat.seat, f"has set the hand{auto}"


@_on("surrendered")
def _surrendered(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.status = "surrendered"
    return seat.seat, f"surrenders{_late(data, 'auto')}"


@_on("hand_revealed")
def _hand_revealed(table: TablePicture, data: Mapping[str, Any]) -> Words:
    fouled = []
    for entry in data.get("hands", []):
        if not isinstance(entry, dict) or not isinstance(entry.get("seat"), int):
            continue
        seat = table.seat(entry["seat"])
        seat.rows = {row: _cards(entry.get(row)) for row in ("front", "middle", "back")}
        seat.cards, seat.down = [card for row in seat.rows.values() for card in row], 0
        status, natural = str(entry.get("status", "")), str(entry.get("natural"))
        if status == "natural":
            seat.note = NATURAL_NAMES.get(natural, natural)
        elif status == "foul":
            seat.note = "fouled" + (f": {entry['why']}" if entry.get("why") else "")
            fouled.append(seat.player)
        elif status.startswith("surrender"):
            seat.note = "surrendered"
    tail = f"; {_listed(fouled)} fouled" if fouled else ""
    return None, f"Every hand is turned up{tail}"


@_on("pair_scored")
def _pair_scored(table: TablePicture, data: Mapping[str, Any]) -> Words:
    first, second = data.get("first"), data.get("second")
    total, reason, rows = int(data.get("total", 0)), str(data.get("reason", "")), data.get("rows")
    if total == 0:
        why = EVEN_PAIRS.get(reason, "even")
        pair = f"{table.name(first)} against {table.name(second)}"
        return None, f"{pair}: {why}, nothing changes hands"
    winner, loser = (first, second) if total > 0 else (second, first)
    because = ""
    if reason == "natural":
        because = " (a natural)"
    elif reason in ("foul", "surrender"):
        because = f" ({table.name(loser)} {'fouled' if reason == 'foul' else 'surrendered'})"
    elif isinstance(rows, list) and len(rows) == 3:
        # Each row's value is from the first seat's side: +1 it won the row, -1 it lost.
        won = [_row_winner(table, first, second, value) for value in rows]
        because = f" (front {won[0]}, middle {won[1]}, back {won[2]})"
    units = _units(abs(total))
    return None, f"{table.name(winner)} wins {units} from {table.name(loser)}{because}"


def _row_winner(table: TablePicture, first: Any, second: Any, value: int) -> str:
    return table.name(first) if value > 0 else table.name(second) if value < 0 else "tied"


@_on("bet_placed")
def _bet_placed(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.present = True
    seat.bets = {"Ante": _cents(data, "ante"), "Pair Plus": _cents(data, "pair_plus")}
    pair_plus = _cents(data, "pair_plus")
    extra = f" and {money(pair_plus)} on Pair Plus" if pair_plus else ""
    return seat.seat, f"bets {money(_cents(data, 'ante'))} Ante{extra}"


@_on("bet_missed")
def _bet_missed(table: TablePicture, data: Mapping[str, Any]) -> Words:
    return int(data["seat"]), "places no bet and sits this round out"


@_on("bets_returned")
def _bets_returned(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.bets = {}
    return seat.seat, f"takes back {money(_cents(data, 'amount'))} in bets"


@_on("played")
def _played(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.bets["Play"] = _cents(data, "amount")
    seat.choice = "play"
    return seat.seat, f"plays: {money(_cents(data, 'amount'))} on Play"


@_on("folded")
def _folded(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.choice, seat.status = "fold", "folded"
    seat.bets["Ante"] = 0
    return seat.seat, f"folds and loses the {money(_cents(data, 'ante'))} Ante{_late(data)}"


@_on("dealer_revealed")
def _dealer_revealed(table: TablePicture, data: Mapping[str, Any]) -> Words:
    board = table.board.setdefault("dealer", Board("Dealer"))
    board.cards, board.down = _cards(data.get("cards")), 0
    qualifies = "qualifies" if data.get("qualifies") else "does not qualify"
    board.note = f"{data.get('hand')}, {qualifies}"
    return None, f"The dealer shows {' '.join(board.cards)}: {board.note}"


@_on(*BET_RESULTS)
def _bet_result(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    bet, outcome = BET_RESULTS[str(data["type"])]
    paid, stake = money(_cents(data, "paid")), money(_cents(data, "stake"))
    words, note = {
        "wins": (f"wins on the {bet}: {paid} back", f"{bet} won {paid}"),
        "is returned": (f"gets the {bet} back: {paid}", f"{bet} returned"),
        "loses": (f"loses the {stake} {bet}", f"{bet} lost"),
        "pays": (f"gets an {bet} of {paid}", f"{bet} {paid}"),
    }[outcome]
    seat.results.append(note)
    if bet in seat.bets:
        seat.bets[bet] = 0
    return seat.seat, words
