"""How a table looks to one viewer: the game's view turned into what the templates draw.

Only the game's view (``cardroom.tables.selectors.table_state``) is read here, so a page can show no
more than the JSON protocol would: hidden cards are simply not in the input.
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass, replace
from typing import Any

from accounts.money import format_cents

__all__ = ["ActionButton", "CardFace", "cents_from_dollars", "describe_table"]

SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
RANK_LABELS = {"T": "10"}

PHASE_WORDS = {
    "waiting": "Waiting for players",
    "pause": "Next hand shortly",
    "ante": "Antes, please",
    "deal": "Dealing",
    "declare": "In or Out?",
    "stage_over": "Stage result",
    "pass": "Pass a card to the left",
    "showdown": "Showdown",
    "betting": "Place your bets",
    "decide": "Play or fold?",
    "set": "Set your hand",
    "idle": "Waiting for bets",
}

#: Phases in which someone must act before the deadline (the countdown turns red near its end
#: only then; a pause between hands is not urgent).
DECISION_PHASES = frozenset({"ante", "declare", "pass", "betting", "decide", "set"})

#: A table the house has paused or is closing says so where the phase is shown: a paused table
#: otherwise reads "Next hand shortly" under a countdown stuck at 0.
TABLE_STATUS_WORDS = {
    "paused": ("Paused by the house", "Play resumes when the house resumes the table."),
    "closing": ("Closing", "The house is closing this table: it closes after this hand."),
    "closed": ("Closed", "The house has closed this table."),
}

#: Why the viewer's own seat is not playing, and what brings it back: a seat that only says
#: "waiting" or "sitting out" leaves a new player wondering whether anything will happen.
YOUR_STATUS_NOTES = {
    "sitting_out": (
        "You are sitting out: you are not dealt in (after a missed ante or decision, a lost"
        " connection, or at your request). Press Sit in to play the next hand."
    ),
    "waiting": "You are seated. You will be dealt in when the next hand begins.",
    "seated": "You are seated. You will be dealt in when the next hand begins.",
}

#: A game in stages (3-5-7, Nuts, Toh...) deals newcomers in at its next game, not its next deal.
STAGED_WAITING = (
    "You are seated. This game is played in stages until someone takes the pot; you will be"
    " dealt in when the next game begins."
)

STATUS_WORDS = {
    "in_hand": "in the hand",
    "in_round": "in the round",
    "in_game": "in the game",
    "owes": "owes the pot",
    "sitting_out": "sitting out",
    "waiting": "waiting",
    "leaving": "leaving",
}

#: The table's game → the module that adds its own regions to the context (``describe``).
GAME_PRESENTATIONS = {
    "classic_guts": "cardroom.presentation.classic",
    "chinese_poker": "cardroom.presentation.chinese",
    "three_card_poker": "cardroom.presentation.tcp",
}

ACTION_LABELS = {
    "ante": "Ante",
    "decline": "Sit out this round",
    "sit_out": "Sit out from the next hand",
    "sit_in": "Deal me in again",
    "leave": "Leave table",
}

#: Controls of the seat rather than of the hand: drawn apart, in a fixed place, so the hand's
#: decisions do not jump about as they come and go between phases.
SEAT_CONTROLS = frozenset({"sit_out", "sit_in", "leave", "top_up", "decline"})


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
            suit=SUIT_NAMES[suit],
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

EXTRA_DECIMALS = re.compile(r"\$?[\d,]{1,16}\.\d{3,7}", re.ASCII)


def cents_from_dollars(text: object) -> int:
    """A dollar amount typed by a person ("200", "200.50") as whole cents; ValueError if not.

    >>> cents_from_dollars("200.5"), cents_from_dollars("3"), cents_from_dollars("$1,250.05")
    (20050, 300, 125005)
    >>> cents_from_dollars("1e999997")
    Traceback (most recent call last):
    ...
    ValueError: not an amount in dollars: '1e999997'
    """
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise ValueError("an amount is a number of dollars, such as 25 or 25.50")
    typed = str(text).strip() if isinstance(text, str) else str(text)
    found = DOLLARS.fullmatch(typed) if len(typed) <= 24 else None
    if found is None:
        shown = typed if len(typed) <= 24 else typed[:20] + "..."
        if EXTRA_DECIMALS.fullmatch(shown):
            raise ValueError(f"an amount has at most two decimals: {shown!r}")
        raise ValueError(f"not an amount in dollars: {shown!r}")
    whole = int(found["whole"].replace(",", ""))
    cents = int((found["cents"] or "0").ljust(2, "0"))
    return whole * 100 + cents


def _buttons(legal: list[dict[str, Any]]) -> list[ActionButton]:
    buttons: list[ActionButton] = []
    for action in legal:
        kind = action["kind"]
        if kind == "declare":
            for choice in action.get("choices", ("in", "out")):
                buttons.append(
                    ActionButton(
                        kind, "In" if choice == "in" else "Out", {"choice": choice},
                        key=choice[0].upper(), primary=choice == "in",
                    )
                )  # fmt: skip
        elif kind in ("sit", "top_up"):
            low, high = action.get("min"), action.get("max")
            buttons.append(
                ActionButton(
                    kind, "Sit down" if kind == "sit" else "Add chips", {},
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
            label = f"Ante {format_cents(amount)}"
            buttons.append(ActionButton(kind, label, {}, key="A", primary=True))
        elif kind == "decline" and action.get("owed"):
            label = (
                f"Pay {format_cents(action['pays'])} of {format_cents(action['owed'])} and sit out"
            )
            buttons.append(ActionButton(kind, label, {}))
        else:
            buttons.append(ActionButton(kind, ACTION_LABELS.get(kind, kind.replace("_", " ")), {}))
    return buttons


def _one_sit_out(buttons: list[ActionButton]) -> list[ActionButton]:
    """While the ante is called, "Sit out this round" is the way to sit out: a second control
    that sits out from the next hand as well would be one too many."""
    if any(button.kind == "decline" for button in buttons):
        return [button for button in buttons if button.kind != "sit_out"]
    return buttons


def _confirm_leaving(buttons: list[ActionButton], *, holding: bool) -> list[ActionButton]:
    """Leaving with cards in hand gives the hand up: the page asks first."""
    if not holding:
        return buttons
    return [
        replace(button, confirm="Leave the table? Your hand in play will be folded.")
        if button.kind == "leave"
        else button
        for button in buttons
    ]


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
                "status_text": STATUS_WORDS.get(entry.get("status", ""), entry.get("status", "")),
            }
        )
    phase_words = PHASE_WORDS.get(view.get("phase", ""), view.get("phase", ""))
    deadline = view.get("deadline")
    status = view.get("table", {}).get("status", "")
    house = TABLE_STATUS_WORDS.get(status)
    if house is not None and status != "closing":
        # Nothing runs on the clock while paused or closed: no countdown to show.
        phase_words, deadline = house[0], None
    buttons = _confirm_leaving(
        _one_sit_out(_buttons((you or {}).get("legal_actions", []))),
        holding=bool((you or {}).get("cards")),
    )
    mine = next((seat for seat in seats if seat["is_you"]), None)
    your_note = YOUR_STATUS_NOTES.get(mine.get("status", "")) if mine else None
    if your_note and mine and mine.get("status") == "waiting" and view.get("stage"):
        your_note = STAGED_WAITING
    context = {
        "your_note": your_note or "",
        "version": state["version"],
        "view": view,
        "phase": view.get("phase", ""),
        "phase_words": phase_words,
        "house_note": house[1] if house else "",
        "decision": view.get("phase", "") in DECISION_PHASES and deadline is not None,
        "deadline": deadline,
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
    buttons = context["buttons"]
    context["decisions"] = [button for button in buttons if button.kind not in SEAT_CONTROLS]
    context["seat_controls"] = [button for button in buttons if button.kind in SEAT_CONTROLS]
    return context
