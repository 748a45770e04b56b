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

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from accounts.money import format_cents
from cardroom.presentation.chinese import natural_name
from cardroom.presentation.classic import marks_words
from cardroom.presentation.event_words import event_words, foul_words
from cardroom.presentation.hand_words import hand_name, rank_plural

__all__ = [
    "BET_RESULTS",
    "QUIET",
    "SECTIONS",
    "TablePicture",
    "apply_event",
    "event_moves",
    "place_words",
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
    "payment_made", "hand_ended", "hand_voided", "pot_returned", *BET_RESULTS,
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
EVEN_PAIRS: dict[str, Promise] = {
    "natural_tie": gettext_lazy("naturals of equal rank"),
    "both_fouled": gettext_lazy("both fouled"),
    "both_surrendered": gettext_lazy("both surrendered"),
}

#: Reasons the games give (sitting out, a round's end), in words.
REASONS: dict[str, str | Promise] = {
    "ante_timeout": pgettext_lazy("reason", "did not ante in time"),
    "short_payment": pgettext_lazy("reason", "could not pay in full"),
    "asked": "",
    "no_losers": pgettext_lazy("reason", "nobody lost"),
    "single_in": pgettext_lazy("reason", "one player was In alone"),
    "last_player": pgettext_lazy("reason", "one player is left"),
    "no_players": pgettext_lazy("reason", "nobody is left"),
    "pot_returned": pgettext_lazy("reason", "the table stopped and the pot went back"),
}

#: Three Card Poker's bets as a seat shows them (the picture keeps them by their English name).
BET_WORDS: dict[str, str | Promise] = {
    "Ante": "Ante",
    "Pair Plus": "Pair Plus",
    "Play": pgettext_lazy("three card poker bet", "Play"),
    "Ante bonus": gettext_lazy("Ante bonus"),
}

#: A seat's status in the picture (kept as a code: the replay reads it), as a seat shows it.
STATUS_WORDS: dict[str, Promise] = {
    "mucked": pgettext_lazy("seat status", "mucked"),
    "sitting out": pgettext_lazy("seat status", "sitting out"),
    "left": pgettext_lazy("seat status", "left"),
    "folded": pgettext_lazy("seat status", "folded"),
    "surrendered": pgettext_lazy("seat status", "surrendered"),
}

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
    if kind == "player_sat":
        moves = [(f"bankroll:{seat}", stack, _seat_cents(data))]
    elif kind == "topped_up":
        moves = [(f"bankroll:{seat}", stack, _cents(data, "amount"))]
    elif kind == "player_left":
        moves = [(stack, f"bankroll:{seat}", _seat_cents(data))]
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
    elif kind == "pot_returned":
        moves = [("reserve", "pot", _cents(data, "reserve"))]
        for entry in data.get("returns", []):
            if isinstance(entry, list | tuple) and len(entry) == 3 and isinstance(entry[2], int):
                place, number = str(entry[0]), str(entry[0]).partition(":")[2]
                moves.append(("pot", f"stack:{number}", entry[2]))
                if place.startswith("bankroll:"):
                    moves.append((f"stack:{number}", place, entry[2]))
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
    """The first of ``names`` that holds cents (0 if none does)."""
    for name in names:
        value = data.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return 0


def _seat_cents(data: Mapping[str, Any]) -> int:
    """The cents a ``player_sat`` or ``player_left`` moved: its ``stack``, or, in a Guts row
    stored before every game wrote ``stack``, its ``amount`` (games/events.py).

    >>> _seat_cents({"type": "player_sat", "seat": 1, "stack": 500})
    500
    >>> _seat_cents({"type": "player_left", "seat": 1, "amount": 300})
    300
    """
    return _cents(data, "stack", "amount")


def signed(cents: int) -> str:
    """A result in words: "+$1.91", "−$4.00", "even".

    >>> signed(191), signed(-400), signed(0)
    ('+$1.91', '−$4.00', 'even')
    """
    if cents == 0:
        return pgettext("result", "even")
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
        return _seat_name(self.names, seat)

    def seat(self, number: int) -> SeatPicture:
        if number not in self.seats:
            self.seats[number] = SeatPicture(number, self.name(number), 0, present=False)
        return self.seats[number]

    def place_name(self, place: str) -> str:
        return place_words(place, self.names)

    def move_record(self, source: str, target: str, cents: int) -> dict[str, Any]:
        """One payment as a step shows it: who paid whom, how much (``source`` and
        ``target``: the places, as :func:`event_moves` names them)."""
        return {
            "from": self.place_name(source),
            "to": self.place_name(target),
            "amount": cents,
            "text": format_cents(cents),
            "source": source,
            "target": target,
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
            pots.append(_pot(_("Pot"), self.places["pot"]))
        if self.places["reserve"] or self.start_places["reserve"]:
            pots.append(_pot(_("Reserve"), self.places["reserve"]))
        if self.game == "three_card_poker":
            # What the house holds of this hand's bets: up while bets are out, then its result.
            house = self.places["house"]
            pots.append({"name": _("The house"), "amount": house, "text": signed(house)})
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
            "status": _word(STATUS_WORDS, seat.status),
            "rows": copy.deepcopy(seat.rows),
            "bets": [
                {"name": _word(BET_WORDS, name), "amount": cents, "text": format_cents(cents)}
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


def _word(words: Mapping[str, str | Promise], key: str) -> str:
    """``words[key]`` in the reader's language, else ``key`` as it is."""
    found = words.get(key)
    return key if found is None else str(found)


def _seat_name(names: Mapping[int, str], seat: Any) -> str:
    if not isinstance(seat, int):
        return _("the dealer")
    return names[seat] if seat in names else _("seat %(number)s") % {"number": seat}


def place_words(place: str, names: Mapping[int, str]) -> str:
    """A place money moves between (``stack:2``, ``pot``...) in words: the seat's player, "the
    pot", "the house (rake)"."""
    kind, _sep, number = place.partition(":")
    if kind == "stack":
        return _seat_name(names, int(number))
    if kind == "bankroll":
        return _("%(player)s's bankroll") % {"player": _seat_name(names, int(number))}
    if kind == "pot":
        return _("the pot")
    if kind == "reserve":
        return _("the reserve")
    if kind == "rake":
        return _("the house (rake)")
    return _("the house")


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


def _and(first: str, second: str) -> str:
    # Translators: the last two of a list, "ann and ben", "ann, ben and cat".
    return _("%(first)s and %(second)s") % {"first": first, "second": second}


def _listed(names: Sequence[str]) -> str:
    """ "ann", "ann and ben", "ann, ben and cat"."""
    if len(names) <= 1:
        return "".join(names)
    return _and(", ".join(names[:-1]), names[-1])


def _why(code: Any) -> str:
    text = str(code or "")
    found = REASONS.get(text)
    return text.replace("_", " ") if found is None else str(found)


def _units(count: int, shown: str | None = None) -> str:
    """ "1 unit", "3 units" (``shown``: the count as written, "+3")."""
    return ngettext("%(count)s unit", "%(count)s units", count) % {
        "count": str(count) if shown is None else shown
    }


def _signed_units(count: int) -> str:
    """ "+2 units", "−1 unit", "even"."""
    if not count:
        return pgettext("result", "even")
    return _units(abs(count), ("+" if count > 0 else "−") + str(abs(count)))


def _hand(value: Any) -> str:
    """A hand's name as the rules recorded it, in the reader's language."""
    return hand_name(value) if isinstance(value, str) else str(value)


money = format_cents

# Each step's words follow the acting seat's name when there is one ("ann: antes $1.00"): the
# sentences without a subject below are said of that player.


@_on("player_sat")
def _player_sat(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.present, seat.status = True, ""
    if data.get("player"):
        seat.player = table.names[seat.seat] = str(data["player"])
    # Translators: said of a player, after their name: "ann: sits down with $200.00".
    return seat.seat, _("sits down with %(amount)s") % {"amount": money(_seat_cents(data))}


@_on("player_left")
def _player_left(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.status = "left"
    cents = _seat_cents(data)
    if cents:
        return seat.seat, _("leaves the table with %(amount)s") % {"amount": money(cents)}
    return seat.seat, _("leaves the table")


@_on("topped_up")
def _topped_up(table: TablePicture, data: Mapping[str, Any]) -> Words:
    amount = money(_cents(data, "amount"))
    return int(data["seat"]), _("adds %(amount)s to the stack") % {"amount": amount}


@_on("sat_out", "sat_in")
def _sitting_out(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    if data["type"] == "sat_in":
        seat.status = ""
        return seat.seat, _("sits in")
    seat.status = "sitting out"
    why = _why(data.get("reason"))
    if why:
        # Translators: {why}: why the player sits out, "did not ante in time".
        return seat.seat, _("sits out (%(why)s)") % {"why": why}
    return seat.seat, _("sits out")


@_on("round_started")
def _round_started(table: TablePicture, data: Mapping[str, Any]) -> Words:
    names = [table.name(number) for number in data.get("seats", [])]
    return None, _("Round %(round)s begins with %(players)s") % {
        "round": data.get("round"),
        "players": _listed(names),
    }


@_on("round_ended")
def _round_ended(table: TablePicture, data: Mapping[str, Any]) -> Words:
    why = _why(data.get("reason"))
    values = {"round": data.get("round"), "why": why}
    if why:
        # Translators: {why}: why the round ended, "nobody lost".
        return None, _("Round %(round)s is over (%(why)s)") % values
    return None, _("Round %(round)s is over") % values


@_on("ante_called", "antes_returned", "betting_opened", "betting_closed")
def _announced(table: TablePicture, data: Mapping[str, Any]) -> Words:
    kind = str(data["type"])
    if kind == "ante_called":
        return None, _("Antes, please")
    if kind == "antes_returned":
        return None, _("Too few players anted: the antes go back")
    if kind == "betting_opened":
        return None, _("Bets are open")
    if kind == "betting_closed":
        return None, _("Bets are closed")
    raise KeyError(kind)


@_on("ante_posted")
def _ante_posted(table: TablePicture, data: Mapping[str, Any]) -> Words:
    return int(data["seat"]), _("antes %(amount)s") % {"amount": money(_cents(data, "amount"))}


@_on("ante_declined")
def _ante_declined(table: TablePicture, data: Mapping[str, Any]) -> Words:
    if data.get("timed_out"):
        return int(data["seat"]), _("does not ante (time ran out)")
    return int(data["seat"]), _("does not ante")


@_on("hand_started")
def _hand_started(table: TablePicture, data: Mapping[str, Any]) -> Words:
    if table.game == "three_card_poker":
        seats = [int(bet["seat"]) for bet in data.get("bets", []) if isinstance(bet, dict)]
        table.board["dealer"] = Board(_("Dealer"), down=3)
    else:
        seats = [int(seat) for seat in data.get("seats", [])]
    if isinstance(data.get("button"), int):
        table.button = data["button"]
    for number in seats:
        seat = table.seat(number)
        seat.present, seat.dealt = True, True
        seat.cards, seat.face_up, seat.choice, seat.note, seat.status = [], [], "", "", ""
        seat.down = table.deal or 0
    values = {
        "hand": data.get("hand"),
        "players": _listed([table.name(seat) for seat in seats]),
        "amount": money(data["pot"]) if data.get("pot") else "",
    }
    if data.get("pot"):
        return None, _("Hand %(hand)s is dealt to %(players)s for a pot of %(amount)s") % values
    return None, _("Hand %(hand)s is dealt to %(players)s") % values


@_on("cards_dealt")
def _cards_dealt(table: TablePicture, data: Mapping[str, Any]) -> Words:
    cards = _cards(data.get("cards"))
    if not isinstance(data.get("seat"), int):
        board = table.board.setdefault("dealer", Board(_("Dealer")))
        board.cards, board.down = cards, 0
        return None, _("The dealer is dealt %(cards)s") % {"cards": " ".join(cards)}
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
    return seat.seat, _("is dealt %(cards)s") % {"cards": " ".join(cards)}


@_on("face_up_card")
def _face_up_card(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    card = _cards(data.get("card"))
    seat.cards += card
    seat.face_up += card
    return seat.seat, _("is dealt %(cards)s face up") % {"cards": " ".join(card)}


@_on("community_card")
def _community_card(table: TablePicture, data: Mapping[str, Any]) -> Words:
    board = table.board.setdefault("community", Board(pgettext("community card", "Community")))
    board.cards += _cards(data.get("cards"))
    return None, _("The community card: %(cards)s") % {"cards": " ".join(board.cards)}


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
    # "twos", "twos and threes", "twos, threes and fives".
    wild = _listed([rank_plural(rank) for rank in str(data.get("wild") or "")])
    direction = data.get("direction")
    values = {
        "stage": data.get("stage"),
        "cards": ngettext("%(count)s card", "%(count)s cards", size) % {"count": size},
        "wild": wild,
        "direction": _direction(direction) if direction else "",
    }
    if wild and direction:
        # Translators: a stage of a Guts game: its cards, wild ranks, and high or low.
        words = _("Stage %(stage)s: each player holds %(cards)s, %(wild)s wild, %(direction)s")
    elif wild:
        words = _("Stage %(stage)s: each player holds %(cards)s, %(wild)s wild")
    elif direction:
        # Translators: a stage of a Guts game: its cards, and whether high or low wins.
        words = _("Stage %(stage)s: each player holds %(cards)s, %(direction)s")
    else:
        words = _("Stage %(stage)s: each player holds %(cards)s")
    return None, words % values


def _direction(direction: Any) -> str:
    if direction == "low":
        return pgettext("stage plays", "low")
    if direction == "high":
        return pgettext("stage plays", "high")
    return str(direction)


@_on("card_passed")
def _card_passed(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.note = _("passed a card")
    return seat.seat, _("passes a card to the left")


@_on("card_received")
def _card_received(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    card = _cards(data.get("card"))
    seat.cards += card
    return seat.seat, _("receives %(cards)s from %(player)s") % {
        "cards": " ".join(card),
        "player": table.name(data.get("giver")),
    }


@_on("decided")
def _decided(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.choice = "decided"
    return seat.seat, _("has decided")


#: A declared choice in words (the picture keeps the code).
CHOICE_WORDS: dict[str, Promise] = {
    "in": pgettext_lazy("declare", "In"),
    "out": pgettext_lazy("declare", "Out"),
    "high": pgettext_lazy("declare", "High"),
    "low": pgettext_lazy("declare", "Low"),
}


@_on("declared")
def _declared(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.choice = str(data.get("choice", ""))
    choice = _word(CHOICE_WORDS, seat.choice) if seat.choice in CHOICE_WORDS else None
    values = {"choice": choice or seat.choice.capitalize()}
    if data.get("timed_out"):
        return seat.seat, _("declares %(choice)s (time ran out)") % values
    # Translators: {choice}: In, Out, High or Low.
    return seat.seat, _("declares %(choice)s") % values


@_on("hand_shown", "hand_shown_privately")
def _hand_shown(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.cards, seat.down = _cards(data.get("cards")), 0
    seat.note = _hand(data.get("description", ""))
    values = {"cards": " ".join(seat.cards), "hand": seat.note}
    if data["type"] == "hand_shown_privately":
        return seat.seat, _("shows %(cards)s to the players In (%(hand)s)") % values
    # Translators: a player's cards and the hand's name, "shows A♠ A♦ 2♣ (pair of aces)".
    return seat.seat, _("shows %(cards)s (%(hand)s)") % values


@_on("mucked")
def _mucked(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.down, seat.status = 0, "mucked"
    if seat.seat not in table.you:
        # Cards dealt face up were everyone's to see; the rest go into the muck unseen.
        seat.cards = [card for card in seat.cards if card in seat.face_up]
    return seat.seat, _("mucks")


@_on("ghost_shown", "deck_hand_shown")
def _board_hand(table: TablePicture, data: Mapping[str, Any]) -> Words:
    ghost = data["type"] == "ghost_shown"
    key, name = ("ghost", _("The ghost hand")) if ghost else ("deck", _("The deck's hand"))
    board = table.board.setdefault(key, Board(name))
    board.cards, board.note = _cards(data.get("cards")), _hand(data.get("description", ""))
    values = {"cards": " ".join(board.cards), "hand": board.note}
    if ghost:
        return None, _("The ghost hand shows %(cards)s (%(hand)s)") % values
    return None, _("The deck's hand shows %(cards)s (%(hand)s)") % values


@_on("leg_won", "nut_won", "token_won")
def _mark_won(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    mark = str(data["type"]).removesuffix("_won")
    total = int(data.get("total", 0))
    seat.marks = marks_words(mark, total)
    values = {"marks": seat.marks}
    if mark == "leg":
        # Translators: {marks}: how many the player holds now, "2 legs".
        return seat.seat, _("wins a leg (%(marks)s in all)") % values
    if mark == "nut":
        return seat.seat, _("wins a nut (%(marks)s in all)") % values
    return seat.seat, _("wins a token (%(marks)s in all)") % values


@_on("point_won")
def _point_won(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.points += _cards(data.get("card"))
    total = int(data.get("total", 0))
    seat.marks = marks_words("point", total)
    card = _shown(data.get("card"))
    # Translators: Toh: the best card of a deal is kept as a point; {marks}: "2 points".
    return seat.seat, _("wins the deal and keeps %(card)s as a point (%(marks)s in all)") % {
        "card": card,
        "marks": seat.marks,
    }


@_on("rake_taken")
def _rake_taken(table: TablePicture, data: Mapping[str, Any]) -> Words:
    return None, _("The house takes %(amount)s in rake") % {"amount": money(_cents(data, "amount"))}


@_on("pot_won")
def _pot_won(table: TablePicture, data: Mapping[str, Any]) -> Words:
    amount = money(_cents(data, "amount"))
    return int(data["seat"]), _("wins %(amount)s from the pot") % {"amount": amount}


@_on("pot_matched")
def _pot_matched(table: TablePicture, data: Mapping[str, Any]) -> Words:
    paid = _cents(data, "amount")
    owed = _cents(data, "owed") or paid
    values = {"amount": money(paid), "owed": money(owed)}
    if owed != paid:
        # Translators: a loser matched the pot with all they had, less than they owed.
        return int(data["seat"]), _(
            "matches the pot: %(amount)s into the next pot (of %(owed)s owed)"
        ) % values
    return int(data["seat"]), _("matches the pot: %(amount)s into the next pot") % values


@_on("seat_paid", "payment_made")
def _seat_paid(table: TablePicture, data: Mapping[str, Any]) -> Words:
    payee = data.get("payee", data.get("winner"))
    return int(data["payer"]), _("pays %(amount)s to %(player)s") % {
        "amount": money(_cents(data, "amount")),
        "player": table.name(payee),
    }


@_on("pot_carried")
def _pot_carried(table: TablePicture, data: Mapping[str, Any]) -> Words:
    pot = money(_cents(data, "pot"))
    return None, _("Nobody takes the pot: %(amount)s carries to the next hand") % {"amount": pot}


@_on("reserve_moved")
def _reserve_moved(table: TablePicture, data: Mapping[str, Any]) -> Words:
    values = {"amount": money(_cents(data, "amount"))}
    if data.get("to_reserve"):
        return None, _("%(amount)s moves from the pot to the reserve") % values
    return None, _("%(amount)s moves from the reserve to the pot") % values


@_on("button_moved")
def _button_moved(table: TablePicture, data: Mapping[str, Any]) -> Words:
    table.button = int(data["seat"])
    return None, _("The button moves to %(player)s") % {"player": table.name(table.button)}


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
        if not parts:
            return None, _("Hand %(hand)s is over: no bets against the house") % {"hand": number}
        # Translators: {results}: each player's result against the house, "ann +$2.00".
        return None, _("Hand %(hand)s is over: %(results)s against the house") % {
            "hand": number,
            "results": ", ".join(parts),
        }
    units = data.get("units")
    if isinstance(units, dict):  # Chinese Poker: each seat's units
        parts = [
            f"{table.name(int(seat))} {_signed_units(int(value))}" for seat, value in units.items()
        ]
        if not parts:
            return None, _("Hand %(hand)s is over: no play") % {"hand": number}
        # Translators: {results}: each player's units, "ann +2 units, ben −2 units".
        return None, _("Hand %(hand)s is over: %(results)s") % {
            "hand": number,
            "results": ", ".join(parts),
        }
    return None, _("Hand %(hand)s is over") % {"hand": number}


@_on("hand_voided")
def _hand_voided(table: TablePicture, data: Mapping[str, Any]) -> Words:
    # Translators: {reason}: the house's reason, as the operator typed it.
    return None, _("The house voids the hand (%(reason)s): every chip goes back") % {
        "reason": data.get("reason")
    }


@_on("leave_pending", "leave_requested")
def _leaving(table: TablePicture, data: Mapping[str, Any]) -> Words:
    return int(data["seat"]), _("will leave after this hand")


@_on("hand_fee_paid")
def _hand_fee_paid(table: TablePicture, data: Mapping[str, Any]) -> Words:
    amount = money(_cents(data, "amount"))
    return int(data["seat"]), _("pays the %(amount)s hand fee") % {"amount": amount}


#: Chinese Poker's rows as a step names them.
ROW_WORDS: dict[str, Promise] = {
    "front": pgettext_lazy("chinese poker row", "front"),
    "middle": pgettext_lazy("chinese poker row", "middle"),
    "back": pgettext_lazy("chinese poker row", "back"),
}


@_on("rows_set")
def _rows_set(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.rows = {row: _cards(data.get(row)) for row in ("front", "middle", "back")}
    rows = "; ".join(
        f"{_word(ROW_WORDS, row)} {' '.join(cards)}" for row, cards in seat.rows.items()
    )
    # Translators: {rows}: each row and its cards, "front A♠ A♦ 2♣; middle ...".
    return seat.seat, _("sets %(rows)s") % {"rows": rows}


@_on("natural_declared")
def _natural_declared(table: TablePicture, data: Mapping[str, Any]) -> Words:
    natural = str(data.get("natural"))
    return int(data["seat"]), _("declares a natural: %(natural)s") % {
        "natural": natural_name(natural, natural)
    }


@_on("hand_submitted")
def _hand_submitted(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.choice = "set"
    if data.get("auto"):
        return seat.seat, _("has set the hand (set by the cardroom when time ran out)")
    return seat.seat, _("has set the hand")


@_on("surrendered")
def _surrendered(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.status = "surrendered"
    if data.get("auto"):
        return seat.seat, _("surrenders (time ran out)")
    return seat.seat, _("surrenders")


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
            seat.note = natural_name(natural, natural)
        elif status == "foul":
            if entry.get("why"):
                # Translators: why a Chinese Poker hand fouled, "fouled: rows out of order".
                seat.note = _("fouled: %(why)s") % {"why": foul_words(str(entry["why"]))}
            else:
                seat.note = pgettext("chinese poker hand", "fouled")
            fouled.append(seat.player)
        elif status.startswith("surrender"):
            seat.note = pgettext("chinese poker hand", "surrendered")
    if fouled:
        return None, _("Every hand is turned up; %(players)s fouled") % {"players": _listed(fouled)}
    return None, _("Every hand is turned up")


@_on("pair_scored")
def _pair_scored(table: TablePicture, data: Mapping[str, Any]) -> Words:
    first, second = data.get("first"), data.get("second")
    total, reason, rows = int(data.get("total", 0)), str(data.get("reason", "")), data.get("rows")
    if total == 0:
        found = EVEN_PAIRS.get(reason)
        why = pgettext("result", "even") if found is None else str(found)
        # Translators: two Chinese Poker hands compared, and why nothing changes hands.
        return None, _("%(first)s against %(second)s: %(why)s, nothing changes hands") % {
            "first": table.name(first),
            "second": table.name(second),
            "why": why,
        }
    winner, loser = (first, second) if total > 0 else (second, first)
    values = {
        "winner": table.name(winner),
        "loser": table.name(loser),
        "units": _units(abs(total)),
    }
    if reason == "natural":
        return None, _("%(winner)s wins %(units)s from %(loser)s (a natural)") % values
    if reason == "foul":
        return None, _("%(winner)s wins %(units)s from %(loser)s (%(loser)s fouled)") % values
    if reason == "surrender":
        return None, _("%(winner)s wins %(units)s from %(loser)s (%(loser)s surrendered)") % values
    if isinstance(rows, list) and len(rows) == 3:
        # Each row's value is from the first seat's side: +1 it won the row, -1 it lost.
        won = [_row_winner(table, first, second, value) for value in rows]
        # Translators: who won each row: a player's name, or "tied".
        return None, _(
            "%(winner)s wins %(units)s from %(loser)s (front %(front)s, middle %(middle)s,"
            " back %(back)s)"
        ) % {**values, "front": won[0], "middle": won[1], "back": won[2]}
    return None, _("%(winner)s wins %(units)s from %(loser)s") % values


def _row_winner(table: TablePicture, first: Any, second: Any, value: int) -> str:
    if value > 0:
        return table.name(first)
    if value < 0:
        return table.name(second)
    return pgettext("chinese poker row", "tied")


@_on("bet_placed")
def _bet_placed(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.present = True
    seat.bets = {"Ante": _cents(data, "ante"), "Pair Plus": _cents(data, "pair_plus")}
    pair_plus = _cents(data, "pair_plus")
    values = {"ante": money(_cents(data, "ante")), "pair_plus": money(pair_plus)}
    if pair_plus:
        return seat.seat, _("bets %(ante)s Ante and %(pair_plus)s on Pair Plus") % values
    return seat.seat, _("bets %(ante)s Ante") % values


@_on("bet_missed")
def _bet_missed(table: TablePicture, data: Mapping[str, Any]) -> Words:
    return int(data["seat"]), _("places no bet and sits this round out")


@_on("bets_returned")
def _bets_returned(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.bets = {}
    return seat.seat, _("takes back %(amount)s in bets") % {"amount": money(_cents(data, "amount"))}


@_on("played")
def _played(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.bets["Play"] = _cents(data, "amount")
    seat.choice = "play"
    return seat.seat, _("plays: %(amount)s on Play") % {"amount": money(_cents(data, "amount"))}


@_on("folded")
def _folded(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    seat.choice, seat.status = "fold", "folded"
    seat.bets["Ante"] = 0
    values = {"amount": money(_cents(data, "ante"))}
    if data.get("timed_out"):
        return seat.seat, _("folds and loses the %(amount)s Ante (time ran out)") % values
    return seat.seat, _("folds and loses the %(amount)s Ante") % values


@_on("dealer_revealed")
def _dealer_revealed(table: TablePicture, data: Mapping[str, Any]) -> Words:
    board = table.board.setdefault("dealer", Board(_("Dealer")))
    board.cards, board.down = _cards(data.get("cards")), 0
    hand = _hand(data.get("hand"))
    if data.get("qualifies"):
        # Translators: the dealer's hand, and that it qualifies: "king-high, qualifies".
        board.note = _("%(hand)s, qualifies") % {"hand": hand}
    else:
        board.note = _("%(hand)s, does not qualify") % {"hand": hand}
    return None, _("The dealer shows %(cards)s: %(note)s") % {
        "cards": " ".join(board.cards),
        "note": board.note,
    }


@_on(*BET_RESULTS)
def _bet_result(table: TablePicture, data: Mapping[str, Any]) -> Words:
    seat = _seat_of(table, data)
    bet, outcome = BET_RESULTS[str(data["type"])]
    values = {
        "bet": _word(BET_WORDS, bet),
        "paid": money(_cents(data, "paid")),
        "stake": money(_cents(data, "stake")),
    }
    if outcome == "wins":
        # Translators: {bet}: Ante, Play or Pair Plus; {paid}: the stake and its winnings.
        words, note = _("wins on the %(bet)s: %(paid)s back"), _("%(bet)s won %(paid)s")
    elif outcome == "is returned":
        words, note = _("gets the %(bet)s back: %(paid)s"), _("%(bet)s returned")
    elif outcome == "loses":
        words, note = _("loses the %(stake)s %(bet)s"), _("%(bet)s lost")
    else:
        # Translators: {bet}: "Ante bonus", paid on a strong hand whatever the dealer holds.
        words, note = _("gets an %(bet)s of %(paid)s"), _("%(bet)s %(paid)s")
    seat.results.append(note % values)
    if bet in seat.bets:
        seat.bets[bet] = 0
    return seat.seat, words % values
