"""A hand's events in words, for the hand history page, its replayer and its export (the JSON
stays for programs).

Each event type of the four games has its sentence ("ann anted $1.00", "ben's time ran out:
mucked", "The dealer shows K♠ 9♦ 4♣: king high, does not qualify"); a type without one (added
later) falls back to a generic reading of its fields: seats become names, cents become money.
Seats are named as the hand named them; nobody's cards appear unless the event carries them,
and the caller has already removed events the reader may not see.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from accounts.money import format_cents
from cardroom.presentation.hand_words import hand_name

__all__ = ["cards_words", "event_words"]

log = logging.getLogger(__name__)

#: Fields that hold cents.
MONEY_FIELDS = frozenset(
    {"amount", "pot", "rake", "stack", "owed", "paid", "stake", "net", "returned", "ante",
     "pair_plus", "fee", "match", "house"}
)  # fmt: skip
#: Fields that hold a seat number.
SEAT_FIELDS = frozenset({"seat", "payer", "payee", "winner", "button", "giver", "dealer"})

_SUITS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}

#: Why a Guts seat sat out, as the ``sat_out`` event records it: the whole sentence.
_SAT_OUT_WHY: dict[str, Promise] = {
    "asked": gettext_lazy("%(seat)s sat out"),
    "ante_timeout": gettext_lazy("%(seat)s sat out (no ante in time)"),
    "short_payment": gettext_lazy("%(seat)s sat out (could not pay the pot in full)"),
    "disconnected": gettext_lazy("%(seat)s sat out (lost connection)"),
    "timeout": gettext_lazy("%(seat)s sat out (no decision in time)"),
}
#: Three Card Poker's bets, as its result events name them (``ante_won``, ``pair_plus_lost``):
#: Ante and Pair Plus are names kept in every language (the glossary).
_BETS: dict[str, str | Promise] = {
    "ante": "Ante",
    "play": pgettext_lazy("three card poker bet", "Play"),
    "ante_bonus": gettext_lazy("Ante bonus"),
    "pair_plus": "Pair Plus",
}
#: A bet's result, the whole sentence (``paying``: with what a bet won paid).
_OUTCOMES: dict[str, Promise] = {
    # Translators: "ann's Pair Plus of $5.00 won" ({bet}: Ante, Play, Ante bonus or Pair Plus).
    "won": gettext_lazy("%(seat)s's %(bet)s of %(stake)s won"),
    "returned": gettext_lazy("%(seat)s's %(bet)s of %(stake)s was returned"),
    "lost": gettext_lazy("%(seat)s's %(bet)s of %(stake)s lost"),
    # Translators: "ann's Pair Plus of $5.00 won, paying $20.00".
    "paying": gettext_lazy("%(seat)s's %(bet)s of %(stake)s won, paying %(amount)s"),
}
#: A declared choice, as the ``declared`` event records it.
_CHOICES: dict[str, Promise] = {
    "in": pgettext_lazy("declare", "In"),
    "out": pgettext_lazy("declare", "Out"),
    "high": pgettext_lazy("declare", "High"),
    "low": pgettext_lazy("declare", "Low"),
    "high_low": pgettext_lazy("declare", "High-low"),
}
#: Why a round ended (``round_ended``'s ``reason``), in words.
_ROUND_REASONS: dict[str, Promise] = {
    "no_losers": pgettext_lazy("round ended", "no losers"),
    "single_in": pgettext_lazy("round ended", "single in"),
    "too_few_antes": pgettext_lazy("round ended", "too few antes"),
    "last_player": pgettext_lazy("round ended", "last player"),
    "no_players": pgettext_lazy("round ended", "no players"),
    "pot_empty": pgettext_lazy("round ended", "pot empty"),
    "legs_won": pgettext_lazy("round ended", "legs won"),
    "nuts_won": pgettext_lazy("round ended", "nuts won"),
    "tokens_won": pgettext_lazy("round ended", "tokens won"),
    "points_won": pgettext_lazy("round ended", "points won"),
    "pot_returned": pgettext_lazy("round ended", "the pot went back"),
}
#: Why a Chinese Poker pair scored as it did (``pair_scored``'s ``reason``), in words.
_PAIR_REASONS: dict[str, Promise] = {
    "rows": pgettext_lazy("pair scored", "rows"),
    "natural": pgettext_lazy("pair scored", "natural"),
    "natural_tie": pgettext_lazy("pair scored", "natural tie"),
    "foul": pgettext_lazy("pair scored", "foul"),
    "both_fouled": pgettext_lazy("pair scored", "both fouled"),
    "surrender": pgettext_lazy("pair scored", "surrender"),
    "both_surrendered": pgettext_lazy("pair scored", "both surrendered"),
}
#: Chinese Poker's naturals as the hand history names them.
NATURAL_WORDS: dict[str, Promise] = {
    "thirteen_colors": pgettext_lazy("natural", "thirteen colors"),
    "dragon": pgettext_lazy("natural", "dragon"),
    "twelve_colors": pgettext_lazy("natural", "twelve colors"),
    "trips_five_pairs": pgettext_lazy("natural", "trips five pairs"),
    "three_straights": pgettext_lazy("natural", "three straights"),
    "three_flushes": pgettext_lazy("natural", "three flushes"),
    "six_pairs": pgettext_lazy("natural", "six pairs"),
}
#: Which way a stage plays.
_DIRECTIONS: dict[str, Promise] = {
    "low": pgettext_lazy("stage plays", "low"),
    "high": pgettext_lazy("stage plays", "high"),
}


def _word(words: Mapping[str, str | Promise], key: Any) -> str:
    """``words[key]`` in the reader's language, else the code in words ("natural_tie" →
    "natural tie")."""
    found = words.get(str(key))
    return str(found) if found is not None else str(key).replace("_", " ")


def natural_words(natural: Any) -> str:
    """A natural as the hand history names it: ``three_straights`` → "three straights"."""
    return _word(NATURAL_WORDS, natural)


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
    return " ".join(shown) if shown else _("no cards")


def seat_words(number: Any) -> str:
    """A seat nobody is named for: "seat 3"."""
    return _("seat %(number)s") % {"number": number}


def _named(names: Mapping[int, str], seat: Any) -> str:
    """Who sat in ``seat``, else the seat in words."""
    return names[seat] if seat in names else seat_words(seat)


def foul_words(why: str) -> str:
    """Why a Chinese Poker hand fouled, as the rules word it ("rows out of order", "false
    claim of three straights"), in the reader's language."""
    if why == "rows out of order":
        return _("rows out of order")
    claimed = why.removeprefix("false claim of ")
    if claimed != why:
        # Translators: a hand claimed a natural it does not make: "false claim of six pairs".
        return _("false claim of %(natural)s") % {
            "natural": natural_words(claimed.replace(" ", "_"))
        }
    return why


class _Reader:
    """One event's fields, read as words."""

    def __init__(self, data: Mapping[str, Any], names: Mapping[int, str]) -> None:
        self.data, self.names = data, names

    def seat(self, field: str = "seat") -> str:
        value = self.data.get(field)
        if isinstance(value, int) and not isinstance(value, bool):
            return _named(self.names, value)
        return _("a player")

    def seats(self, field: str = "seats") -> str:
        value = self.data.get(field) or []
        return ", ".join(_named(self.names, seat) for seat in value) or _("nobody")

    def money(self, field: str) -> str:
        value = self.data.get(field)
        return format_cents(value) if isinstance(value, int) else "?"

    def cards(self, field: str = "cards") -> str:
        return cards_words(self.data.get(field))

    def hand(self, field: str = "description") -> str:
        """The rules' English name of a hand, in the reader's language."""
        value = self.data.get(field, "")
        return hand_name(value) if isinstance(value, str) else str(value)

    def get(self, field: str, default: Any = None) -> Any:
        return self.data.get(field, default)


def _seat_money(r: _Reader) -> str:
    """The cents of a ``player_sat`` or ``player_left``: its ``stack``, or, in a Guts row stored
    before every game wrote ``stack``, its ``amount`` (games/events.py)."""
    return r.money("stack") if "stack" in r.data else r.money("amount")


def _sat(r: _Reader) -> str:
    amount = _seat_money(r)
    return _("%(seat)s sat down with %(amount)s") % {"seat": r.seat(), "amount": amount}


def _left(r: _Reader) -> str:
    amount = _seat_money(r)
    return _("%(seat)s left the table with %(amount)s") % {"seat": r.seat(), "amount": amount}


# The hand's own number is the page's (the table's count): the rules' count inside an event can
# differ from it (a Three Card Poker page titled hand #2 once read "Hand started: 1").


def _hand_started(r: _Reader) -> str:
    number = r.get("round")
    if isinstance(r.get("bets"), list | dict):
        if number is not None:
            return _("The hand began (round %(round)s) against the dealer") % {"round": number}
        return _("The hand began against the dealer")
    if number is not None:
        # Translators: {seats}: the players dealt in, "ann, ben".
        words = _("The hand began (round %(round)s): %(seats)s dealt in") % {
            "round": number,
            "seats": r.seats(),
        }
    else:
        # Translators: {seats}: the players dealt in, "ann, ben".
        words = _("The hand began: %(seats)s dealt in") % {"seats": r.seats()}
    if r.get("button") is not None:
        # Translators: a sentence, then who holds the dealer's button.
        words = _("%(words)s, %(seat)s on the button") % {"words": words, "seat": r.seat("button")}
    if r.get("pot"):
        # Translators: a sentence, then the pot the hand began with.
        words = _("%(words)s, pot %(amount)s") % {"words": words, "amount": r.money("pot")}
    return words


def _declared(r: _Reader) -> str:
    if r.get("timed_out"):
        return _("%(seat)s's time ran out: the hand is mucked") % {"seat": r.seat()}
    choice = r.get("choice", "")
    found = _CHOICES.get(str(choice))
    shown = str(found) if found is not None else str(choice).replace("_", "-").capitalize()
    # Translators: {choice}: In, Out, High, Low or High-low.
    return _("%(seat)s declared %(choice)s") % {"seat": r.seat(), "choice": shown}


def _hand_ended(r: _Reader) -> str:
    units = r.get("units")
    if isinstance(units, dict):
        shown = [
            # Translators: a player's units won (+2) or lost (-2) in a hand of Chinese Poker.
            _("%(player)s %(units)s units")
            % {"player": _named(r.names, int(seat)), "units": f"{value:+d}"}
            for seat, value in units.items()
            if value
        ]
        if not shown:
            return _("The hand ended: all square")
        return _("The hand ended: %(results)s") % {"results": ", ".join(shown)}
    if "house" in r.data:
        house = r.get("house")
        if not isinstance(house, int):
            return _("The hand ended")
        amount = {"amount": format_cents(abs(house))}
        if house >= 0:
            return _("The hand ended: the house won %(amount)s") % amount
        return _("The hand ended: the house paid %(amount)s") % amount
    parts = []
    if r.get("pot"):
        parts.append(_("pot %(amount)s") % {"amount": r.money("pot")})
    if r.get("rake"):
        parts.append(_("rake %(amount)s") % {"amount": r.money("rake")})
    if r.get("round_over"):
        parts.append(_("the round is over"))
    if not parts:
        return _("The hand ended")
    # Translators: {results}: the pot, the rake, "the round is over".
    return _("The hand ended: %(results)s") % {"results": ", ".join(parts)}


def _antes_returned(r: _Reader) -> str:
    amounts = r.get("amounts")
    pairs: list[tuple[Any, Any]] = []
    if isinstance(amounts, dict):
        pairs = [(int(seat), value) for seat, value in amounts.items()]
    elif isinstance(amounts, list):
        pairs = [(item[0], item[1]) for item in amounts if isinstance(item, list | tuple)]
    shown = [
        f"{_named(r.names, seat)} {format_cents(value)}"
        for seat, value in pairs
        if isinstance(value, int)
    ]
    if not shown:
        return _("Antes returned")
    # Translators: {amounts}: each player and their ante, "ann $1.00, ben $1.00".
    return _("Antes returned: %(amounts)s") % {"amounts": ", ".join(shown)}


def _ante_called(r: _Reader) -> str:
    """Who is asked to ante, and who has the top-up window to pay what they owe (only one of
    the two may be asked: the players who were In need not ante again)."""
    asked = bool(r.get("seats"))
    owing = bool(r.get("owing"))
    values = {"seats": r.seats(), "owing": r.seats("owing")}
    if asked and owing:
        # Translators: {owing}: players short of what they owe, who may add chips to pay it.
        return _("Antes called from %(seats)s; %(owing)s may top up to pay what they owe") % values
    if owing:
        return _("%(owing)s may top up to pay what they owe") % values
    return _("Antes called from %(seats)s") % values


def _pot_returned(r: _Reader) -> str:
    returns = r.get("returns")
    shares = [
        (str(item[1]), item[2])
        for item in (returns if isinstance(returns, list) else [])
        if isinstance(item, list | tuple) and len(item) == 3 and isinstance(item[2], int)
    ]
    values = {
        "amount": format_cents(sum(amount for _, amount in shares)),
        "returns": ", ".join(f"{name} {format_cents(amount)}" for name, amount in shares),
    }
    # Translators: a table stopped with a pot nobody had won; {returns}: each payer and what
    # they got back, "ann $1.00, ben $2.00".
    return _("The table stopped: the pot of %(amount)s went back to those who paid in: "
             "%(returns)s") % values  # fmt: skip


def _pot_matched(r: _Reader) -> str:
    amount, owed = r.get("amount"), r.get("owed")
    values = {"seat": r.seat(), "amount": r.money("amount")}
    if isinstance(amount, int) and isinstance(owed, int) and owed > amount:
        values["owed"] = format_cents(owed)
        # Translators: a loser matched the pot with all they had, less than they owed.
        return _("%(seat)s matched the pot with %(amount)s of the %(owed)s owed") % values
    return _("%(seat)s matched the pot with %(amount)s") % values


def _bet_placed(r: _Reader) -> str:
    values = {"seat": r.seat(), "ante": r.money("ante")}
    if r.get("pair_plus"):
        values["pair_plus"] = r.money("pair_plus")
        return _("%(seat)s bet an Ante of %(ante)s and Pair Plus of %(pair_plus)s") % values
    return _("%(seat)s bet an Ante of %(ante)s") % values


def _dealer(r: _Reader) -> str:
    values = {"cards": r.cards(), "hand": r.hand("hand")}
    if r.get("qualifies"):
        # Translators: the dealer's cards and hand: "K♠ 9♦ 4♣: king-high".
        return _("The dealer shows %(cards)s: %(hand)s, qualifies") % values
    return _("The dealer shows %(cards)s: %(hand)s, does not qualify") % values


def _revealed(r: _Reader) -> str:
    """Chinese Poker's reveal: each hand's rows, or how it plays instead."""
    shown = []
    for hand in r.get("hands") or []:
        if not isinstance(hand, Mapping):
            continue
        seat = hand.get("seat")
        name = _named(r.names, seat) if isinstance(seat, int) else _("a player")
        status, natural = hand.get("status"), hand.get("natural")
        if status == "surrender":
            shown.append(_("%(player)s surrendered") % {"player": name})
            continue
        # Translators: a Chinese Poker hand's three rows of cards.
        words = _("%(player)s: front %(front)s, middle %(middle)s, back %(back)s") % {
            "player": name,
            "front": cards_words(hand.get("front")),
            "middle": cards_words(hand.get("middle")),
            "back": cards_words(hand.get("back")),
        }
        if status == "natural" and natural:
            # Translators: a hand's rows, then the natural it makes.
            words = _("%(words)s (natural: %(natural)s)") % {
                "words": words,
                "natural": natural_words(natural),
            }
        elif status == "foul":
            if hand.get("why"):
                # Translators: a hand's rows, then why it fouled.
                words = _("%(words)s (fouled: %(why)s)") % {
                    "words": words,
                    "why": foul_words(str(hand.get("why"))),
                }
            else:
                words = _("%(words)s (fouled)") % {"words": words}
        shown.append(words)
    if not shown:
        return _("Every hand is revealed")
    return _("Hands revealed: %(hands)s") % {"hands": "; ".join(shown)}


def _pair_scored(r: _Reader) -> str:
    total = r.get("total", 0)
    values = {"first": r.seat("first"), "second": r.seat("second")}
    if isinstance(total, int):
        # Translators: two Chinese Poker players compared; {units}: the first's units, "+2".
        words = _("%(first)s against %(second)s: %(units)s units") % {
            **values,
            "units": f"{total:+d}",
        }
    else:
        words = _("%(first)s against %(second)s: %(total)s") % {**values, "total": total}
    reason = r.get("reason")
    if not reason:
        return words
    # Translators: a sentence, then why (a Chinese Poker pair's reason: "natural tie").
    return _("%(words)s (%(reason)s)") % {"words": words, "reason": _word(_PAIR_REASONS, reason)}


def _reserve(r: _Reader) -> str:
    if r.get("to_reserve"):
        return _("%(amount)s set aside in the reserve") % {"amount": r.money("amount")}
    return _("%(amount)s brought from the reserve into the pot") % {"amount": r.money("amount")}


def _voided(r: _Reader) -> str:
    values = {"reason": r.get("reason"), "amount": r.money("returned")}
    if r.get("reason") and r.get("returned"):
        # Translators: {reason}: the house's reason, as the operator typed it.
        return _("The hand was voided by the house: %(reason)s; %(amount)s returned") % values
    if r.get("reason"):
        # Translators: {reason}: the house's reason, as the operator typed it.
        return _("The hand was voided by the house: %(reason)s") % values
    if r.get("returned"):
        return _("The hand was voided by the house; %(amount)s returned") % values
    return _("The hand was voided by the house")


def _sat_out(r: _Reader) -> str:
    reason = str(r.get("reason", "asked"))
    template = _SAT_OUT_WHY.get(reason)
    if template is None:
        # Translators: {reason}: why, as the rules recorded it.
        return _("%(seat)s sat out (%(reason)s)") % {"seat": r.seat(), "reason": r.get("reason")}
    return str(template) % {"seat": r.seat()}


def _stage_started(r: _Reader) -> str:
    direction = r.get("direction")
    values = {
        "stage": r.get("stage"),
        "count": r.get("hand_size"),
        "direction": _word(_DIRECTIONS, direction) if direction is not None else None,
        "wild": r.get("wild"),
    }
    if r.get("wild"):
        # Translators: a stage of a Guts game: its cards, high or low, the wild ranks ("5").
        return _("Stage %(stage)s: %(count)s cards, %(direction)s, %(wild)s wild") % values
    # Translators: a stage of a Guts game: its cards, and whether high or low wins.
    return _("Stage %(stage)s: %(count)s cards, %(direction)s") % values


def _folded(r: _Reader) -> str:
    values = {"seat": r.seat(), "ante": r.money("ante")}
    late, ante = r.get("timed_out"), r.get("ante")
    if late and ante:
        return _("%(seat)s folded (time ran out), losing the Ante of %(ante)s") % values
    if late:
        return _("%(seat)s folded (time ran out)") % values
    if ante:
        return _("%(seat)s folded, losing the Ante of %(ante)s") % values
    return _("%(seat)s folded") % values


def _time_bank(r: _Reader) -> str:
    count = round(float(r.get("seconds", 0)))
    return ngettext(
        "%(seat)s's time ran out: the time bank of %(count)s second runs",
        "%(seat)s's time ran out: the time bank of %(count)s seconds runs",
        count,
    ) % {"seat": r.seat(), "count": count}


def _round_ended(r: _Reader) -> str:
    values = {"round": r.get("round")}
    if r.get("reason"):
        values["reason"] = _word(_ROUND_REASONS, r.get("reason"))
        # Translators: {reason}: why the round ended, "no losers".
        return _("Round %(round)s ended (%(reason)s)") % values
    return _("Round %(round)s ended") % values


_SENTENCES: dict[str, Callable[[_Reader], str]] = {
    "connection_changed": lambda r: (
        _("%(seat)s reconnected") % {"seat": r.seat()}
        if r.get("connected")
        else _("%(seat)s lost connection") % {"seat": r.seat()}
    ),
    "connected": lambda r: _("%(seat)s reconnected") % {"seat": r.seat()},
    "disconnected": lambda r: _("%(seat)s lost connection") % {"seat": r.seat()},
    "sat_in": lambda r: _("%(seat)s sat in") % {"seat": r.seat()},
    "sat_out": _sat_out,
    "topped_up": lambda r: (
        _("%(seat)s added %(amount)s in chips") % {"seat": r.seat(), "amount": r.money("amount")}
    ),
    "player_sat": _sat,
    "player_left": _left,
    "leave_pending": lambda r: _("%(seat)s leaves after this hand") % {"seat": r.seat()},
    "leave_requested": lambda r: _("%(seat)s leaves after this hand") % {"seat": r.seat()},
    "round_started": lambda r: (
        _("Round %(round)s began: %(seats)s") % {"round": r.get("round"), "seats": r.seats()}
    ),
    "ante_called": _ante_called,
    "ante_posted": lambda r: (
        _("%(seat)s anted %(amount)s") % {"seat": r.seat(), "amount": r.money("amount")}
    ),
    "ante_declined": lambda r: (
        _("%(seat)s did not ante in time") % {"seat": r.seat()}
        if r.get("timed_out")
        else _("%(seat)s did not ante") % {"seat": r.seat()}
    ),
    "antes_returned": _antes_returned,
    "hand_started": _hand_started,
    "cards_dealt": lambda r: (
        _("%(seat)s was dealt %(cards)s") % {"seat": r.seat(), "cards": r.cards()}
    ),
    "blind_cards_dealt": lambda r: (
        _("%(seat)s was dealt %(cards)s, face down and unseen")
        % {"seat": r.seat(), "cards": r.cards()}
    ),
    "decided": lambda r: _("%(seat)s decided") % {"seat": r.seat()},
    "declared": _declared,
    "hand_shown": lambda r: (
        # Translators: a player's cards and their hand's name, "ann showed A♠ A♦ 2♣: pair of aces".
        _("%(seat)s showed %(cards)s: %(hand)s")
        % {"seat": r.seat(), "cards": r.cards(), "hand": r.hand()}
    ),
    "hand_shown_privately": lambda r: (
        _("%(seat)s showed %(cards)s to the players In: %(hand)s")
        % {"seat": r.seat(), "cards": r.cards(), "hand": r.hand()}
    ),
    "stage_started": _stage_started,
    "leg_won": lambda r: (
        _("%(seat)s took a leg (%(total)s in all)") % {"seat": r.seat(), "total": r.get("total")}
    ),
    "nut_won": lambda r: (
        _("%(seat)s took a nut (%(total)s in all)") % {"seat": r.seat(), "total": r.get("total")}
    ),
    "token_won": lambda r: (
        _("%(seat)s took a token (%(total)s in all)") % {"seat": r.seat(), "total": r.get("total")}
    ),
    "point_won": lambda r: (
        _("%(seat)s took a point with %(card)s (%(total)s in all)")
        % {"seat": r.seat(), "card": r.cards("card"), "total": r.get("total")}
    ),
    "mucked": lambda r: _("%(seat)s mucked") % {"seat": r.seat()},
    "rake_taken": lambda r: _("The house took %(amount)s in rake") % {"amount": r.money("amount")},
    "pot_won": lambda r: (
        _("%(seat)s won %(amount)s") % {"seat": r.seat(), "amount": r.money("amount")}
    ),
    "pot_matched": _pot_matched,
    "seat_paid": lambda r: (
        _("%(payer)s paid %(payee)s %(amount)s")
        % {"payer": r.seat("payer"), "payee": r.seat("payee"), "amount": r.money("amount")}
    ),
    "pot_returned": _pot_returned,
    "pot_carried": lambda r: (
        _("Nobody won: the pot of %(amount)s carries to the next hand") % {"amount": r.money("pot")}
    ),
    "hand_ended": _hand_ended,
    "button_moved": lambda r: _("The button moved to %(seat)s") % {"seat": r.seat()},
    "round_ended": _round_ended,
    "face_up_card": lambda r: (
        _("%(seat)s's %(card)s is face up") % {"seat": r.seat(), "card": r.cards("card")}
    ),
    "community_card": lambda r: _("Community cards: %(cards)s") % {"cards": r.cards()},
    "ghost_shown": lambda r: (
        _("The ghost hand: %(cards)s: %(hand)s") % {"cards": r.cards(), "hand": r.hand()}
    ),
    "deck_hand_shown": lambda r: (
        _("The deck's hand: %(cards)s: %(hand)s") % {"cards": r.cards(), "hand": r.hand()}
    ),
    "card_passed": lambda r: _("%(seat)s passed a card to the left") % {"seat": r.seat()},
    "card_received": lambda r: (
        _("%(seat)s received %(card)s from %(giver)s")
        % {"seat": r.seat(), "card": r.cards("card"), "giver": r.seat("giver")}
    ),
    "reserve_moved": _reserve,
    "hand_fee_paid": lambda r: (
        _("%(seat)s paid the hand fee of %(amount)s")
        % {"seat": r.seat(), "amount": r.money("amount")}
    ),
    "rows_set": lambda r: (
        _("%(seat)s set the rows: front %(front)s, middle %(middle)s, back %(back)s")
        % {
            "seat": r.seat(),
            "front": r.cards("front"),
            "middle": r.cards("middle"),
            "back": r.cards("back"),
        }
    ),
    "natural_declared": lambda r: (
        _("%(seat)s declared a natural: %(natural)s")
        % {"seat": r.seat(), "natural": natural_words(r.get("natural", ""))}
    ),
    "hand_submitted": lambda r: (
        _("%(seat)s submitted (automatically: time ran out)") % {"seat": r.seat()}
        if r.get("auto")
        else _("%(seat)s submitted") % {"seat": r.seat()}
    ),
    "surrendered": lambda r: (
        _("%(seat)s surrendered (automatically: time ran out)") % {"seat": r.seat()}
        if r.get("auto")
        else _("%(seat)s surrendered") % {"seat": r.seat()}
    ),
    "hand_revealed": lambda r: _revealed(r),
    "pair_scored": _pair_scored,
    "payment_made": lambda r: (
        _("%(payer)s paid %(payee)s %(amount)s")
        % {"payer": r.seat("payer"), "payee": r.seat("winner"), "amount": r.money("amount")}
    ),
    "betting_opened": lambda r: _("Bets are open"),
    "bet_placed": _bet_placed,
    "bets_returned": lambda r: (
        _("%(seat)s's bets of %(amount)s were returned")
        % {"seat": r.seat(), "amount": r.money("amount")}
    ),
    "bet_missed": lambda r: _("%(seat)s placed no bet in time") % {"seat": r.seat()},
    "betting_closed": lambda r: _("Bets closed: %(seats)s dealt in") % {"seats": r.seats()},
    "played": lambda r: (
        _("%(seat)s played, betting %(amount)s") % {"seat": r.seat(), "amount": r.money("amount")}
    ),
    "folded": _folded,
    "time_bank": _time_bank,
    "dealer_revealed": _dealer,
    "hand_voided": _voided,
    "hand_not_dealt": lambda r: _("The hand was not dealt: too few players; the antes went back"),
}


def _bet_result(kind: str, r: _Reader) -> str | None:
    bet, _sep, outcome = kind.rpartition("_")
    if bet not in _BETS or outcome not in ("won", "returned", "lost"):
        return None
    values = {"seat": r.seat(), "bet": str(_BETS[bet]), "stake": r.money("stake")}
    paid, stake = r.get("paid"), r.get("stake")
    if outcome == "won" and isinstance(paid, int) and isinstance(stake, int):
        won = paid if bet == "ante_bonus" else paid - stake
        return str(_OUTCOMES["paying"]) % {**values, "amount": format_cents(won)}
    return str(_OUTCOMES[outcome]) % values


def _value(name: str, value: Any, names: Mapping[int, str]) -> str:
    if name in SEAT_FIELDS and isinstance(value, int):
        return _named(names, value)
    if name in MONEY_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return format_cents(value)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return cards_words(value) if value else pgettext("no items", "none")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
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
        # A record of an older shape is read generically; said in the log, since a sentence
        # that fails on a record of today's shape is a defect to fix, not a shape to forgive.
        log.warning("event %r read generically: its sentence failed", kind, exc_info=True)
        text = None
    if text is None:
        return _generic(data, names)
    return text
