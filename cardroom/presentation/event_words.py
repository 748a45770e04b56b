"""A hand's events in words, for the hand history page, its replayer and its export (the JSON
stays for programs).

Each event type of the four games has its sentence ("ann anted $1.00", "ben's time ran out:
mucked", "The dealer shows K♠ 9♦ 4♣: king high, does not qualify"); a type without one (added
later) falls back to a generic reading of its fields: seats become names, cents become money.
Seats are named as the hand named them; nobody's cards appear unless the event carries them,
and the caller has already removed events the reader may not see.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from accounts.money import format_cents

__all__ = ["cards_words", "event_words"]

#: Fields that hold cents.
MONEY_FIELDS = frozenset(
    {"amount", "pot", "rake", "stack", "owed", "paid", "stake", "net", "returned", "ante",
     "pair_plus", "fee", "match", "house"}
)  # fmt: skip
#: Fields that hold a seat number.
SEAT_FIELDS = frozenset({"seat", "payer", "payee", "winner", "button", "giver", "dealer"})

_SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}

#: Why a Guts seat sat out, as the ``sat_out`` event records it.
_SAT_OUT_WHY = {
    "asked": "",
    "ante_timeout": " (no ante in time)",
    "short_payment": " (could not pay the pot in full)",
    "disconnected": " (lost connection)",
    "timeout": " (no decision in time)",
}
#: Three Card Poker's bets, as its result events name them (``ante_won``, ``pair_plus_lost``).
_BETS = {"ante": "Ante", "play": "Play", "ante_bonus": "Ante bonus", "pair_plus": "Pair Plus"}
_OUTCOMES = {"won": "won", "returned": "was returned", "lost": "lost"}


def cards_words(cards: Any) -> str:
    """``["As", "Td"]`` or ``"As Td"`` → "A♠ 10♦"."""
    items = cards.split() if isinstance(cards, str) else list(cards or [])
    shown = []
    for card in items:
        text = str(card)
        if len(text) == 2 and text[1] in _SUITS:
            rank = "10" if text[0] == "T" else text[0]
            shown.append(rank + _SUITS[text[1]])
        else:
            shown.append(text)
    return " ".join(shown) if shown else "no cards"


class _Reader:
    """One event's fields, read as words."""

    def __init__(self, data: Mapping[str, Any], names: Mapping[int, str]) -> None:
        self.data, self.names = data, names

    def seat(self, field: str = "seat") -> str:
        value = self.data.get(field)
        if isinstance(value, int) and not isinstance(value, bool):
            return self.names.get(value, f"seat {value}")
        return "a player"

    def seats(self, field: str = "seats") -> str:
        value = self.data.get(field) or []
        return ", ".join(self.names.get(seat, f"seat {seat}") for seat in value) or "nobody"

    def money(self, field: str) -> str:
        value = self.data.get(field)
        return format_cents(value) if isinstance(value, int) else "?"

    def cards(self, field: str = "cards") -> str:
        return cards_words(self.data.get(field))

    def get(self, field: str, default: Any = None) -> Any:
        return self.data.get(field, default)


def _sat(r: _Reader) -> str:
    amount = r.money("amount") if "amount" in r.data else r.money("stack")
    return f"{r.seat()} sat down with {amount}"


def _left(r: _Reader) -> str:
    amount = r.money("amount") if "amount" in r.data else r.money("stack")
    return f"{r.seat()} left the table with {amount}"


# The hand's own number is the page's (the table's count): the rules' count inside an event can
# differ from it (a Three Card Poker page titled hand #2 once read "Hand started: 1").


def _hand_started(r: _Reader) -> str:
    words = "The hand began"
    if r.get("round") is not None:
        words += f" (round {r.get('round')})"
    if isinstance(r.get("bets"), list | dict):
        return words + " against the dealer"
    words += f": {r.seats()} dealt in"
    if r.get("button") is not None:
        words += f", {r.seat('button')} on the button"
    if r.get("pot"):
        words += f", pot {r.money('pot')}"
    return words


def _declared(r: _Reader) -> str:
    if r.get("timed_out"):
        return f"{r.seat()}'s time ran out: the hand is mucked"
    return f"{r.seat()} declared {str(r.get('choice', '')).replace('_', '-').capitalize()}"


def _hand_ended(r: _Reader) -> str:
    words = "The hand ended"
    units = r.get("units")
    if isinstance(units, dict):
        shown = [
            f"{r.names.get(int(seat), f'seat {seat}')} {value:+d} units"
            for seat, value in units.items()
            if value
        ]
        return words + (": " + ", ".join(shown) if shown else ": all square")
    if "house" in r.data:
        house = r.get("house")
        return words + (f": the house {'won' if house >= 0 else 'paid'} {format_cents(abs(house))}"
                        if isinstance(house, int) else "")  # fmt: skip
    parts = []
    if r.get("pot"):
        parts.append(f"pot {r.money('pot')}")
    if r.get("rake"):
        parts.append(f"rake {r.money('rake')}")
    if r.get("round_over"):
        parts.append("the round is over")
    return words + (": " + ", ".join(parts) if parts else "")


def _antes_returned(r: _Reader) -> str:
    amounts = r.get("amounts")
    pairs: list[tuple[Any, Any]] = []
    if isinstance(amounts, dict):
        pairs = [(int(seat), value) for seat, value in amounts.items()]
    elif isinstance(amounts, list):
        pairs = [(item[0], item[1]) for item in amounts if isinstance(item, list | tuple)]
    shown = [
        f"{r.names.get(seat, f'seat {seat}')} {format_cents(value)}"
        for seat, value in pairs
        if isinstance(value, int)
    ]
    return "Antes returned" + (f": {', '.join(shown)}" if shown else "")


def _pot_matched(r: _Reader) -> str:
    amount, owed = r.get("amount"), r.get("owed")
    words = f"{r.seat()} matched the pot with {r.money('amount')}"
    if isinstance(amount, int) and isinstance(owed, int) and owed > amount:
        words += f" of the {format_cents(owed)} owed"
    return words


def _bet_placed(r: _Reader) -> str:
    words = f"{r.seat()} bet an Ante of {r.money('ante')}"
    if r.get("pair_plus"):
        words += f" and Pair Plus of {r.money('pair_plus')}"
    return words


def _dealer(r: _Reader) -> str:
    qualifies = "qualifies" if r.get("qualifies") else "does not qualify"
    return f"The dealer shows {r.cards()}: {r.get('hand', '')}, {qualifies}"


def _revealed(r: _Reader) -> str:
    """Chinese Poker's reveal: each hand's rows, or how it plays instead."""
    shown = []
    for hand in r.get("hands") or []:
        if not isinstance(hand, Mapping):
            continue
        seat = hand.get("seat")
        name = r.names.get(seat, f"seat {seat}") if isinstance(seat, int) else "a player"
        status, natural = hand.get("status"), hand.get("natural")
        if status == "surrender":
            shown.append(f"{name} surrendered")
            continue
        words = (
            f"{name}: front {cards_words(hand.get('front'))}, middle"
            f" {cards_words(hand.get('middle'))}, back {cards_words(hand.get('back'))}"
        )
        if status == "natural" and natural:
            words += f" (natural: {str(natural).replace('_', ' ')})"
        elif status == "foul":
            words += " (fouled" + (f": {hand.get('why')})" if hand.get("why") else ")")
        shown.append(words)
    return "Hands revealed: " + "; ".join(shown) if shown else "Every hand is revealed"


def _pair_scored(r: _Reader) -> str:
    total = r.get("total", 0)
    words = f"{r.seat('first')} against {r.seat('second')}: "
    words += f"{total:+d} units" if isinstance(total, int) else str(total)
    reason = r.get("reason")
    return words + (f" ({str(reason).replace('_', ' ')})" if reason else "")


def _reserve(r: _Reader) -> str:
    if r.get("to_reserve"):
        return f"{r.money('amount')} set aside in the reserve"
    return f"{r.money('amount')} brought from the reserve into the pot"


def _voided(r: _Reader) -> str:
    words = "The hand was voided by the house"
    if r.get("reason"):
        words += f": {r.get('reason')}"
    return words + (f"; {r.money('returned')} returned" if r.get("returned") else "")


_SENTENCES: dict[str, Callable[[_Reader], str]] = {
    "connection_changed": lambda r: (
        f"{r.seat()} {'reconnected' if r.get('connected') else 'lost connection'}"
    ),
    "connected": lambda r: f"{r.seat()} reconnected",
    "disconnected": lambda r: f"{r.seat()} lost connection",
    "sat_in": lambda r: f"{r.seat()} sat in",
    "sat_out": lambda r: (
        f"{r.seat()} sat out"
        + _SAT_OUT_WHY.get(str(r.get("reason", "asked")), f" ({r.get('reason')})")
    ),
    "topped_up": lambda r: f"{r.seat()} added {r.money('amount')} in chips",
    "player_sat": _sat,
    "player_left": _left,
    "leave_pending": lambda r: f"{r.seat()} leaves after this hand",
    "leave_requested": lambda r: f"{r.seat()} leaves after this hand",
    "round_started": lambda r: f"Round {r.get('round')} began: {r.seats()}",
    "ante_called": lambda r: f"Antes called from {r.seats()}",
    "ante_posted": lambda r: f"{r.seat()} anted {r.money('amount')}",
    "ante_declined": lambda r: (
        f"{r.seat()} did not ante" + (" in time" if r.get("timed_out") else "")
    ),
    "antes_returned": _antes_returned,
    "hand_started": _hand_started,
    "cards_dealt": lambda r: f"{r.seat()} was dealt {r.cards()}",
    "blind_cards_dealt": lambda r: f"{r.seat()} was dealt {r.cards()}, face down and unseen",
    "decided": lambda r: f"{r.seat()} decided",
    "declared": _declared,
    "hand_shown": lambda r: f"{r.seat()} showed {r.cards()}: {r.get('description', '')}",
    "hand_shown_privately": lambda r: (
        f"{r.seat()} showed {r.cards()} to the players In: {r.get('description', '')}"
    ),
    "stage_started": lambda r: (
        f"Stage {r.get('stage')}: {r.get('hand_size')} cards, {r.get('direction')}"
        + (f", {r.get('wild')} wild" if r.get("wild") else "")
    ),
    "leg_won": lambda r: f"{r.seat()} took a leg ({r.get('total')} in all)",
    "nut_won": lambda r: f"{r.seat()} took a nut ({r.get('total')} in all)",
    "token_won": lambda r: f"{r.seat()} took a token ({r.get('total')} in all)",
    "point_won": lambda r: (
        f"{r.seat()} took a point with {r.cards('card')} ({r.get('total')} in all)"
    ),
    "mucked": lambda r: f"{r.seat()} mucked",
    "rake_taken": lambda r: f"The house took {r.money('amount')} in rake",
    "pot_won": lambda r: f"{r.seat()} won {r.money('amount')}",
    "pot_matched": _pot_matched,
    "seat_paid": lambda r: f"{r.seat('payer')} paid {r.seat('payee')} {r.money('amount')}",
    "pot_carried": lambda r: f"Nobody won: the pot of {r.money('pot')} carries to the next hand",
    "hand_ended": _hand_ended,
    "button_moved": lambda r: f"The button moved to {r.seat()}",
    "round_ended": lambda r: (
        f"Round {r.get('round')} ended"
        + (f" ({str(r.get('reason')).replace('_', ' ')})" if r.get("reason") else "")
    ),
    "face_up_card": lambda r: f"{r.seat()}'s {r.cards('card')} is face up",
    "community_card": lambda r: f"Community cards: {r.cards()}",
    "ghost_shown": lambda r: f"The ghost hand: {r.cards()}: {r.get('description', '')}",
    "deck_hand_shown": lambda r: f"The deck's hand: {r.cards()}: {r.get('description', '')}",
    "card_passed": lambda r: f"{r.seat()} passed a card to the left",
    "card_received": lambda r: f"{r.seat()} received {r.cards('card')} from {r.seat('giver')}",
    "reserve_moved": _reserve,
    "hand_fee_paid": lambda r: f"{r.seat()} paid the hand fee of {r.money('amount')}",
    "rows_set": lambda r: (
        f"{r.seat()} set the rows: front {r.cards('front')}, middle {r.cards('middle')},"
        f" back {r.cards('back')}"
    ),
    "natural_declared": lambda r: (
        f"{r.seat()} declared a natural: {str(r.get('natural', '')).replace('_', ' ')}"
    ),
    "hand_submitted": lambda r: (
        f"{r.seat()} submitted" + (" (automatically: time ran out)" if r.get("auto") else "")
    ),
    "surrendered": lambda r: (
        f"{r.seat()} surrendered" + (" (automatically: time ran out)" if r.get("auto") else "")
    ),
    "hand_revealed": lambda r: _revealed(r),
    "pair_scored": _pair_scored,
    "payment_made": lambda r: f"{r.seat('payer')} paid {r.seat('winner')} {r.money('amount')}",
    "betting_opened": lambda r: "Bets are open",
    "bet_placed": _bet_placed,
    "bets_returned": lambda r: f"{r.seat()}'s bets of {r.money('amount')} were returned",
    "bet_missed": lambda r: f"{r.seat()} placed no bet in time",
    "betting_closed": lambda r: f"Bets closed: {r.seats()} dealt in",
    "played": lambda r: f"{r.seat()} played, betting {r.money('amount')}",
    "folded": lambda r: (
        f"{r.seat()} folded"
        + (" (time ran out)" if r.get("timed_out") else "")
        + (f", losing the Ante of {r.money('ante')}" if r.get("ante") else "")
    ),
    "dealer_revealed": _dealer,
    "hand_voided": _voided,
    "hand_not_dealt": lambda r: "The hand was not dealt: too few players; the antes went back",
}


def _bet_result(kind: str, r: _Reader) -> str | None:
    bet, _, outcome = kind.rpartition("_")
    if bet not in _BETS or outcome not in _OUTCOMES:
        return None
    words = f"{r.seat()}'s {_BETS[bet]} of {r.money('stake')} {_OUTCOMES[outcome]}"
    paid, stake = r.get("paid"), r.get("stake")
    if outcome == "won" and isinstance(paid, int) and isinstance(stake, int):
        won = paid if bet == "ante_bonus" else paid - stake
        words += f", paying {format_cents(won)}"
    return words


def _value(name: str, value: Any, names: Mapping[int, str]) -> str:
    if name in SEAT_FIELDS and isinstance(value, int):
        return names.get(value, f"seat {value}")
    if name in MONEY_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return format_cents(value)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return cards_words(value) if value else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | dict):
        return _compact(value, names)
    return str(value)


def _compact(value: Any, names: Mapping[int, str]) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{key} {_value(str(key), item, names)}" for key, item in value.items())
    return "; ".join(_compact(item, names) if isinstance(item, list | dict) else str(item)
                     for item in value)  # fmt: skip


def _generic(data: Mapping[str, Any], names: Mapping[int, str]) -> str:
    kind = str(data.get("type", "event")).replace("_", " ").capitalize()
    details = []
    for name, value in data.items():
        if name == "type":
            continue
        text = _value(name, value, names)
        # A seat, cards or a choice speak for themselves; anything else is named.
        bare = name in SEAT_FIELDS or name in ("cards", "choice", "hand", "description")
        details.append(text if bare else f"{name.replace('_', ' ')} {text}")
    return f"{kind}: {', '.join(details)}" if details else kind


def event_words(data: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """One event as a sentence.

    >>> event_words({"type": "pot_won", "seat": 1, "amount": 291}, {1: "ben"})
    'ben won $2.91'
    >>> event_words({"type": "cards_dealt", "seat": 0, "cards": ["As", "Td"]}, {})
    'seat 0 was dealt A♠ 10♦'
    >>> event_words({"type": "declared", "seat": 2, "choice": "out", "timed_out": True}, {})
    "seat 2's time ran out: the hand is mucked"
    >>> event_words({"type": "something_new", "seat": 1, "amount": 5}, {1: "ben"})
    'Something new: ben, amount $0.05'
    """
    kind = str(data.get("type", ""))
    reader = _Reader(data, names)
    sentence = _SENTENCES.get(kind)
    try:
        text = sentence(reader) if sentence else _bet_result(kind, reader)
    except (TypeError, ValueError, KeyError, IndexError):
        text = None  # a record of an older shape: read generically
    if text is None:
        return _generic(data, names)
    return text
