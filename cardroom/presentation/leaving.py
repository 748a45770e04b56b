"""Leaving a table mid-hand, in words: the Leave button of a player dealt into the hand in play
says that they leave after it, its question says what becomes of the hand, and once they have
pressed it the seat's controls say "You will leave after this hand" until it ends.

What the games do with a ``leave`` from a seat dealt into the hand in play (the runtime passes
it on unchanged: cardroom/tables/runtime.py): every game keeps the seat until the hand ends and
then stands it up with its stack cashed out (``leaving``). Meanwhile:

- Guts, online and classic (games/guts/online.py, games/guts/classic/): a seat that has not
  declared is Out at once; a seat that declared keeps its choice and plays the hand out (a
  match it owes is taken from its stack).
- Chinese Poker (games/chinese_poker/engine.py): the hand stays in play and is scored; rows not
  submitted by the deadline are set by the table's time-out rule.
- Three Card Poker (games/three_card_poker/seating.py): the bets stay and are settled; a hand
  with no decision by the deadline folds.

Between hands a leave is at once, and the button says only "Leave table".
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, pgettext_lazy

if TYPE_CHECKING:
    from cardroom.presentation import ActionButton

__all__ = ["HAND_PHASES", "leaving_words"]

#: The phases in which a seat holding cards is dealt into a hand still being played, by every
#: game's view: a leave then waits for the hand's end.
HAND_PHASES = frozenset({"deal", "pass", "declare", "stage_over", "setting", "dealing", "deciding"})

LEAVE_AFTER = pgettext_lazy("button", "Leave after this hand")
WILL_LEAVE = gettext_lazy("You will leave after this hand.")

#: The question before a leave mid-hand, by game and (Guts) whether the seat has declared.
QUESTIONS: dict[str, Promise] = {
    "undeclared": gettext_lazy(
        "Leave the table? You are Out of this hand at once, and you leave with your stack"
        " when it ends."
    ),
    "declared": gettext_lazy(
        "Leave the table? Your choice stands and you play this hand out; you leave with"
        " your stack when it ends."
    ),
    "chinese_poker": gettext_lazy(
        "Leave the table? Your hand stays in play and is scored (rows not submitted by the"
        " deadline are set for you); you leave with your stack when it ends."
    ),
    "three_card_poker": gettext_lazy(
        "Leave the table? Your bets stay in this hand and are settled (no decision by the"
        " deadline folds); you leave with your stack when it ends."
    ),
}


def in_hand_in_play(view: dict[str, Any], you: dict[str, Any] | None) -> bool:
    """Whether the viewer holds cards of a hand still being played (a leave then waits)."""
    return bool((you or {}).get("cards")) and view.get("phase", "") in HAND_PHASES


def _question(game: str, you: dict[str, Any]) -> str:
    if game in QUESTIONS:
        return str(QUESTIONS[game])
    return str(QUESTIONS["declared" if you.get("choice") else "undeclared"])


def leaving_words(
    buttons: list[ActionButton], state: dict[str, Any], seats: list[dict[str, Any]]
) -> tuple[list[ActionButton], str]:
    """The buttons with the Leave button said for the hand in play, and the note of a seat
    already leaving after it ("" when it is not)."""
    view = state["table"]
    you = state.get("you") or {}
    mine = next((seat for seat in seats if seat.get("is_you")), None)
    leaving = mine is not None and (mine.get("status") == "leaving" or bool(mine.get("leaving")))
    note = str(WILL_LEAVE) if leaving else ""
    if not in_hand_in_play(view, you):
        return buttons, note
    question = _question(view.get("table", {}).get("game", ""), you)
    return [
        replace(button, label=str(LEAVE_AFTER), confirm=question)
        if button.kind == "leave"
        else button
        for button in buttons
    ], note
