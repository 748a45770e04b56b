"""Classic Guts on the page: whose turn it is, the reserve, the ghost hand, the community card,
wild ranks and Hi-Lo choices, from the viewer's own view only (cardroom.presentation)."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext, ngettext, pgettext_lazy

from accounts.money import format_cents
from cardroom.presentation import CardFace
from cardroom.presentation.hand_words import hand_name, stage_words

__all__ = ["describe"]

#: The marks a staged game counts per seat, as the view names them, and one of each.
MARKS = {"legs": "leg", "nuts": "nut", "tokens": "token", "points": "point"}

CHOICE_WORDS: dict[str, Promise] = {
    "in": pgettext_lazy("declare", "In"),
    "out": pgettext_lazy("declare", "Out"),
    "high": pgettext_lazy("declare", "High"),
    "low": pgettext_lazy("declare", "Low"),
    "high_low": pgettext_lazy("declare", "High-Low"),
}


def marks_words(mark: str, count: int) -> str:
    """ "1 leg", "3 nuts": a staged game's marks, counted (``mark``: one of ``MARKS``' values)."""
    values = {"count": count}
    if mark == "leg":
        return ngettext("%(count)s leg", "%(count)s legs", count) % values
    if mark == "nut":
        return ngettext("%(count)s nut", "%(count)s nuts", count) % values
    if mark == "token":
        return ngettext("%(count)s token", "%(count)s tokens", count) % values
    if mark == "point":
        return ngettext("%(count)s point", "%(count)s points", count) % values
    return f"{count} {mark if count == 1 else mark + 's'}"


def _a_mark(mark: str) -> str:
    """ "a leg": what a lone In takes."""
    return {
        "leg": gettext("a leg"),
        "nut": gettext("a nut"),
        "token": gettext("a token"),
        "point": gettext("a point"),
    }.get(mark) or gettext("a mark")


def _goal_words(stage: dict[str, Any]) -> str:
    """ "3 legs take the pot." (empty when the stage names no target)."""
    target, mark = stage.get("to_win"), stage.get("mark")
    if not target or not isinstance(target, int):
        return ""
    # Translators: how many marks (legs, nuts, tokens, points) win the pot: "3 legs".
    return gettext("%(marks)s take the pot.") % {"marks": marks_words(str(mark), target)}


def describe(state: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
    """Add the classic table's regions to the page context."""
    view = state["table"]
    names = {seat["seat"]: seat.get("player", "") for seat in view.get("seats", [])}
    turn = view.get("turn")
    ghost = view.get("ghost")
    wild = view.get("wild") or ""
    if wild:
        # Every drawn face of a wild rank is marked, the viewer's own cards too.
        for seat in context["seats"]:
            seat["faces"] = [CardFace.of(face.text, wild) for face in seat["faces"]]
        context["your_faces"] = [CardFace.of(face.text, wild) for face in context["your_faces"]]
    context.update(
        game_partial="cardroom/partials/_classic_table.html",
        turn_name=names.get(turn, "") if turn is not None else "",
        reserve_text=format_cents(view.get("reserve", 0)) if view.get("reserve") else "",
        pot_limit_text=format_cents(view["pot_limit"]) if view.get("pot_limit") else "",
        ghost_faces=[CardFace.of(card, wild) for card in ghost] if isinstance(ghost, list) else [],
        community_faces=[CardFace.of(card, wild) for card in view.get("community") or []],
        wild=view.get("wild", ""),
        stage=_stage(view.get("stage") or {}),
    )
    context["stage_lines"] = _stage_lines(view, names, context["seats"])
    mark = (view.get("stage") or {}).get("mark")
    for seat in context["seats"]:
        if seat.get("choice") in CHOICE_WORDS:
            seat["choice_text"] = str(CHOICE_WORDS[seat["choice"]])
        for name, singular in MARKS.items():
            if name in seat and (mark is None or singular == mark):
                seat["marks_text"] = marks_words(singular, int(seat[name]))
        seat["point_faces"] = [CardFace.of(card) for card in seat.get("point_cards") or []]
    return context


def _stage(stage: dict[str, Any]) -> dict[str, Any]:
    """The view's stage with its words in the reader's language (``words``, as the game writes
    them; ``goal_words``: "3 legs take the pot.")."""
    if not stage:
        return stage
    return {**stage, "words": stage_words(stage.get("words")), "goal_words": _goal_words(stage)}


def _stage_lines(
    view: dict[str, Any], names: dict[int, str], seats: list[dict[str, Any]]
) -> list[str]:
    """The stage just settled in sentences: each hand shown, who pays whom, who takes a mark;
    the hands' names are put on their seats too."""
    stage = view.get("stage") or {}
    mark, target = stage.get("mark") or "mark", stage.get("to_win")
    by_seat = {seat["seat"]: seat for seat in seats}
    somebody = gettext("A player")
    lines = []
    for line in view.get("stage_result") or []:
        if line["kind"] == "shown":
            hand = hand_name(line["hand"])
            lines.append(
                # Translators: a player and the hand they showed, "ann: pair of nines".
                gettext("%(player)s: %(hand)s")
                % {"player": names.get(line["seat"], somebody), "hand": hand}
            )
            if line["seat"] in by_seat:
                by_seat[line["seat"]]["hand"] = hand
        elif line["kind"] == "paid":
            payer, payee = names.get(line["payer"], somebody), names.get(line["payee"], "")
            lines.append(
                gettext("%(payer)s pays %(payee)s %(amount)s")
                % {"payer": payer, "payee": payee, "amount": format_cents(line["amount"])}
            )
        elif line["kind"] == "matched":
            lines.append(
                gettext("%(player)s matches %(amount)s")
                % {
                    "player": names.get(line["seat"], somebody),
                    "amount": format_cents(line["amount"]),
                }
            )
        elif line["kind"] == "mark":
            values = {
                "player": names.get(line["seat"], somebody),
                "mark": _a_mark(mark),
                "total": line["total"],
                "target": target,
            }
            if target:
                lines.append(
                    # Translators: a player takes a leg (nut, token, point): 2 of the 3 that win.
                    gettext("%(player)s takes %(mark)s (%(total)s of %(target)s)") % values
                )
            else:
                # Translators: a player takes a leg (nut, token, point): 2 so far.
                lines.append(gettext("%(player)s takes %(mark)s (%(total)s)") % values)
    return lines
