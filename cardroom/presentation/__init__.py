"""How a table looks to one viewer: the game's view turned into what the templates draw.

Only the game's view (``cardroom.tables.selectors.table_state``) is read here, so a page can show no
more than the JSON protocol would: hidden cards are simply not in the input. The "How to play"
pages (``howto``) serve the rules in docs/rules/.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy, pgettext, pgettext_lazy

from accounts.money import format_cents
from cardroom.presentation.hand_words import SUIT_NAMES, hand_name
from cardroom.presentation.leaving import leaving_words
from cardroom.presentation.seat_map import seat_map
from cardroom.presentation.time_bank import seat_time_bank, time_bank_ring
from games.words import words

__all__ = ["ActionButton", "CardFace", "cents_from_dollars", "describe_table"]

SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
SUIT_LETTERS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
RANK_LABELS = {"T": "10"}

#: The phase of the hand as the table shows it (said when shown: see ``translated``).
PHASE_WORDS: dict[str, str | Promise] = {
    "waiting": gettext_lazy("Waiting for players"),
    "pause": gettext_lazy("Next hand shortly"),
    "ante": gettext_lazy("Antes, please"),
    "deal": gettext_lazy("Dealing"),
    "declare": gettext_lazy("In or Out?"),
    "stage_over": gettext_lazy("Stage result"),
    "pass": gettext_lazy("Pass a card to the left"),
    "showdown": gettext_lazy("Showdown"),
    "betting": gettext_lazy("Place your bets"),
    "decide": gettext_lazy("Play or fold?"),
    "set": gettext_lazy("Set your hand"),
    "idle": gettext_lazy("Waiting for bets"),
}

#: Phases in which someone must act before the deadline (the countdown turns red near its end
#: only then; a pause between hands is not urgent).
DECISION_PHASES = frozenset({"ante", "declare", "pass", "betting", "decide", "set"})

#: A table the house has paused or is closing says so where the phase is shown: a paused table
#: otherwise reads "Next hand shortly" under a countdown stuck at 0.
TABLE_STATUS_WORDS: dict[str, tuple[str | Promise, str | Promise]] = {
    "paused": (
        gettext_lazy("Paused by the house"),
        gettext_lazy("Play resumes when the house resumes the table."),
    ),
    "closing": (
        pgettext_lazy("table status", "Closing"),
        gettext_lazy("The house is closing this table: it closes after this hand."),
    ),
    "closed": (
        pgettext_lazy("table status", "Closed"),
        gettext_lazy("The house has closed this table."),
    ),
}

#: Why the viewer's own seat is not playing, and what brings it back: a seat that only says
#: "waiting" or "sitting out" leaves a new player wondering whether anything will happen.
YOUR_STATUS_NOTES: dict[str, str | Promise] = {
    "waiting": gettext_lazy("You are seated. You will be dealt in when the next hand begins."),
    "seated": gettext_lazy("You are seated. You will be dealt in when the next hand begins."),
}

#: A seat sitting out is told which button brings it back, by the label the button shows
#: (``ACTION_LABELS["sit_in"]``), so the two never disagree.
SITTING_OUT_NOTE = gettext_lazy(
    "You are sitting out: you are not dealt in (after a missed ante or decision, a lost"
    " connection, or at your request). Press “%(button)s” to play the next hand."
)

#: A game in stages (3-5-7, Nuts, Toh...) deals newcomers in at its next game, not its next deal.
STAGED_WAITING = gettext_lazy(
    "You are seated. This game is played in stages until someone takes the pot; you will be"
    " dealt in when the next game begins."
)

#: A seat's part in the game, under its player's name.
STATUS_WORDS: dict[str, str | Promise] = {
    "in_hand": pgettext_lazy("seat status", "in the hand"),
    "in_round": pgettext_lazy("seat status", "in the round"),
    "in_game": pgettext_lazy("seat status", "in the game"),
    "owes": pgettext_lazy("seat status", "owes the pot"),
    "sitting_out": pgettext_lazy("seat status", "sitting out"),
    "waiting": pgettext_lazy("seat status", "waiting"),
    "leaving": pgettext_lazy("seat status", "leaving"),
}

#: The table's game → the module that adds its own regions to the context (``describe``).
GAME_PRESENTATIONS = {
    "classic_guts": "cardroom.presentation.classic",
    "chinese_poker": "cardroom.presentation.chinese",
    "three_card_poker": "cardroom.presentation.tcp",
}

ACTION_LABELS: dict[str, str | Promise] = {
    "ante": pgettext_lazy("button", "Ante"),
    "decline": gettext_lazy("Sit out this round"),
    "sit_out": gettext_lazy("Sit out from the next hand"),
    "sit_in": gettext_lazy("Deal me in again"),
    "leave": gettext_lazy("Leave table"),
}

#: Controls of the seat rather than of the hand: drawn apart, in a fixed place, so the hand's
#: decisions do not jump about as they come and go between phases.
SEAT_CONTROLS = frozenset({"sit_out", "sit_in", "leave", "top_up", "decline"})


def translated(words: Mapping[str, str | Promise], key: str, default: str = "") -> str:
    """``words[key]`` in the reader's language (the tables hold lazy translations: a page and
    a socket each say them in their own reader's language), else ``default``."""
    found = words.get(key)
    return default if found is None else str(found)


@dataclass(frozen=True, slots=True)
class CardFace:
    """One card as drawn: ``label`` such as "10", ``symbol`` ♥, ``red`` for hearts/diamonds."""

    text: str
    label: str
    symbol: str
    suit: str
    red: bool
    #: Wild at this table now (classic Guts' wild ranks): drawn marked, read out as wild.
    wild: bool = False

    @classmethod
    def of(cls, text: str, wild_ranks: str = "") -> CardFace:
        rank, suit = text[0], text[1]
        return cls(
            text=text,
            label=RANK_LABELS.get(rank, rank),
            symbol=SUIT_SYMBOLS[suit],
            suit=str(SUIT_NAMES[SUIT_LETTERS[suit]]),
            red=suit in "dh",
            wild=bool(wild_ranks) and rank in wild_ranks,
        )


@dataclass(frozen=True, slots=True)
class ActionButton:
    """One action the viewer may take: its form fields and how it is labelled."""

    kind: str
    label: str
    fields: dict[str, Any]
    key: str = ""
    amount_input: dict[str, Any] | None = None
    primary: bool = False
    #: Asked before sending (the page's script): an action that gives up a hand in play.
    confirm: str = ""


#: A dollar amount as people type it: "200", "$1,250.50", "0.05". No exponent, sign, NaN or
#: infinity, and at most twelve digits of dollars: parsing must cost the same whatever a client
#: sends (a "1e999997" once made Decimal build a million-digit integer on the event loop).
DOLLARS = re.compile(
    r"\$?(?P<whole>\d{1,3}(?:,\d{3}){1,3}|\d{1,12})(?:\.(?P<cents>\d{1,2}))?", re.ASCII
)
#: The Spanish and Norwegian way, read only on their pages: a decimal comma, thousands by
#: spaces ("1 250,50"). There a comma that is not a decimal comma ("1,250") is refused rather
#: than guessed, as is a dot between thousands ("1.250"): one digit more or less must never
#: mean a thousand times the money.
DECIMAL_COMMA = re.compile(r"(?P<whole>\d{1,3}(?:[ \xa0]\d{3}){1,3}|\d{1,12}),(?P<cents>\d{1,2})")

EXTRA_DECIMALS = re.compile(r"\$?[\d,]{1,16}\.\d{3,7}", re.ASCII)


def cents_from_dollars(text: object) -> int:
    """A dollar amount typed by a person ("200", "200.50") as whole cents; ValueError if not.

    In English a comma groups thousands; in Spanish and Norwegian it is the decimal comma (a
    dot is read as a decimal point too, as those players often type it).

    >>> cents_from_dollars("200.5"), cents_from_dollars("3"), cents_from_dollars("$1,250.05")
    (20050, 300, 125005)
    >>> from django.utils import translation
    >>> with translation.override("es"):
    ...     cents_from_dollars("25,50"), cents_from_dollars("1 250,05 $"), cents_from_dollars("2.5")
    (2550, 125005, 250)
    >>> with translation.override("nb"):
    ...     cents_from_dollars("1,250")
    Traceback (most recent call last):
    ...
    ValueError: an amount has at most two decimals: '1,250'
    >>> cents_from_dollars("25,50")
    Traceback (most recent call last):
    ...
    ValueError: not an amount in dollars: '25,50'
    >>> cents_from_dollars("1e999997")
    Traceback (most recent call last):
    ...
    ValueError: not an amount in dollars: '1e999997'
    """
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise ValueError(words("an amount is a number of dollars, such as 25 or 25.50"))
    typed = str(text).strip() if isinstance(text, str) else str(text)
    comma_decimal = not (translation.get_language() or "en").startswith("en")
    found = None
    if len(typed) <= 24 and comma_decimal and "," in typed:
        # "25,50 $", "$25,50", "1 250,50": the dollar sign on either side.
        found = DECIMAL_COMMA.fullmatch(typed.removeprefix("$").removesuffix("$").strip(" \xa0"))
    elif len(typed) <= 24:
        found = DOLLARS.fullmatch(typed)
    if found is None:
        typed_shown = typed if len(typed) <= 24 else typed[:20] + "..."
        three = re.fullmatch(r"\$?\d{1,12},\d{3,7}", typed_shown) if comma_decimal else None
        if EXTRA_DECIMALS.fullmatch(typed_shown) or three:
            raise ValueError(
                # Translators: {amount} is what the player typed, in quotes.
                words("an amount has at most two decimals: {amount}", amount=repr(typed_shown))
            )
        # Translators: {amount} is what the player typed, in quotes.
        raise ValueError(words("not an amount in dollars: {amount}", amount=repr(typed_shown)))
    whole = int(re.sub(r"[, \xa0]", "", found["whole"]))
    cents = int((found["cents"] or "0").ljust(2, "0"))
    return whole * 100 + cents


def _buttons(legal: list[dict[str, Any]]) -> list[ActionButton]:
    buttons: list[ActionButton] = []
    for action in legal:
        kind = action["kind"]
        if kind == "declare":
            for choice in action.get("choices", ("in", "out")):
                label = pgettext("declare", "In") if choice == "in" else pgettext("declare", "Out")
                buttons.append(
                    ActionButton(
                        kind, label, {"choice": choice},
                        key=choice[0].upper(), primary=choice == "in",
                    )
                )  # fmt: skip
        elif kind in ("sit", "top_up"):
            low, high = action.get("min"), action.get("max")
            buttons.append(
                ActionButton(
                    kind, gettext("Sit down") if kind == "sit" else gettext("Add chips"), {},
                    amount_input={
                        "name": "buy_in" if kind == "sit" else "amount",
                        "min": low, "max": high,
                        "min_text": format_cents(low) if low else "",
                        "max_text": format_cents(high) if high else "",
                        "value": f"{low // 100}" if kind == "sit" and low else "",
                    },
                    primary=kind == "sit",
                )
            )  # fmt: skip
        elif kind == "ante":
            amount = action.get("amount", 0)
            # Translators: the ante button, "Ante $1.00".
            label = gettext("Ante %(amount)s") % {"amount": format_cents(amount)}
            buttons.append(ActionButton(kind, label, {}, key="A", primary=True))
        elif kind == "decline" and action.get("owed"):
            # Translators: a seat that owes the pot pays what it can and sits out.
            label = gettext("Pay %(pays)s of %(owed)s and sit out") % {
                "pays": format_cents(action["pays"]),
                "owed": format_cents(action["owed"]),
            }
            buttons.append(ActionButton(kind, label, {}))
        else:
            buttons.append(
                ActionButton(kind, translated(ACTION_LABELS, kind, kind.replace("_", " ")), {})
            )
    return buttons


def _one_sit_out(buttons: list[ActionButton]) -> list[ActionButton]:
    """While the ante is called, "Sit out this round" is the way to sit out: a second control
    that sits out from the next hand as well would be one too many."""
    if any(button.kind == "decline" for button in buttons):
        return [button for button in buttons if button.kind != "sit_out"]
    return buttons


def describe_table(state: dict[str, Any]) -> dict[str, Any]:
    """The template context of one viewer's table, from the ``state`` message."""
    view = state["table"]
    you = state.get("you") or None
    seats = []
    for entry in view.get("seats", []):
        if "player" not in entry:
            continue
        up = entry.get("face_up") or []
        seats.append(
            {
                **entry,
                # Cards this viewer may see, else only those dealt face up, then the backs.
                "faces": [CardFace.of(card) for card in entry.get("cards") or up],
                "backs": range(max(0, entry.get("card_count", 0) - len(entry.get("cards") or up))),
                "is_you": you is not None and entry["seat"] == you.get("seat"),
                "stack_text": format_cents(entry.get("stack", 0)),
                # The rules name a hand in English: said again in the reader's language.
                **(
                    {"hand": hand_name(entry["hand"])} if isinstance(entry.get("hand"), str) else {}
                ),
                "status_text": translated(
                    STATUS_WORDS, entry.get("status", ""), entry.get("status", "")
                ),
                **seat_time_bank(entry),
            }
        )
    phase_words = translated(PHASE_WORDS, view.get("phase", ""), view.get("phase", ""))
    deadline = view.get("deadline")
    status = view.get("table", {}).get("status", "")
    house = TABLE_STATUS_WORDS.get(status)
    if house is not None and status != "closing":
        # Nothing runs on the clock while paused or closed: no countdown to show.
        phase_words, deadline = str(house[0]), None
    buttons = _one_sit_out(_buttons((you or {}).get("legal_actions", [])))
    mine = next((seat for seat in seats if seat["is_you"]), None)
    ring = time_bank_ring(seats, mine, deadline)
    your_note = translated(YOUR_STATUS_NOTES, mine.get("status", "")) if mine else None
    if mine and mine.get("status") == "sitting_out":
        your_note = str(SITTING_OUT_NOTE) % {"button": translated(ACTION_LABELS, "sit_in")}
    if your_note and mine and mine.get("status") == "waiting" and view.get("stage"):
        your_note = str(STAGED_WAITING)
    context = {
        "your_note": your_note or "",
        "version": state["version"],
        "view": view,
        "phase": view.get("phase", ""),
        "phase_words": phase_words,
        "house_note": str(house[1]) if house else "",
        "decision": view.get("phase", "") in DECISION_PHASES and deadline is not None,
        "deadline": ring["deadline"],
        "time_bank": ring["time_bank"],
        "pot_text": format_cents(view.get("pot", 0)),
        "seats": seats,
        "you": you,
        "your_faces": [CardFace.of(card) for card in (you or {}).get("cards") or []],
        "buttons": buttons,
        "seated": you is not None,
    }
    module = GAME_PRESENTATIONS.get(view.get("table", {}).get("game", ""))
    if module is not None:
        context = importlib.import_module(module).describe(state, context)
    # Split last: a game's own presentation may relabel or replace the buttons.
    buttons, context["leaving_note"] = leaving_words(context["buttons"], state, context["seats"])
    context["buttons"] = buttons
    # The seat map draws the seats as described, the game's own changes included.
    placed = seat_map(view.get("seats", []), context["seats"], (you or {}).get("seat"))
    context["map_rows"], context["places"] = placed["rows"], placed["places"]
    context["sit_here"] = next((button for button in buttons if button.kind == "sit"), None)
    context["decisions"] = [button for button in buttons if button.kind not in SEAT_CONTROLS]
    context["seat_controls"] = [button for button in buttons if button.kind in SEAT_CONTROLS]
    return context
