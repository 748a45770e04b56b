"""Classic Guts on the page: whose turn it is, the reserve, the ghost hand, the community card,
wild ranks and Hi-Lo choices, from the viewer's own view only (cardroom.presentation)."""

from __future__ import annotations

from typing import Any

from accounts.money import format_cents
from cardroom.presentation import CardFace

__all__ = ["describe"]

#: The marks a staged game counts per seat, as the view names them, and one of each.
MARKS = {"legs": "leg", "nuts": "nut", "tokens": "token", "points": "point"}

CHOICE_WORDS = {"in": "In", "out": "Out", "high": "High", "low": "Low", "high_low": "High-Low"}


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
        stage=view.get("stage") or {},
    )
    context["stage_lines"] = _stage_lines(view, names, context["seats"])
    mark = (view.get("stage") or {}).get("mark")
    for seat in context["seats"]:
        if seat.get("choice") in CHOICE_WORDS:
            seat["choice_text"] = CHOICE_WORDS[seat["choice"]]
        for name, singular in MARKS.items():
            if name in seat and (mark is None or singular == mark):
                count = int(seat[name])
                seat["marks_text"] = f"{count} {singular if count == 1 else name}"
        seat["point_faces"] = [CardFace.of(card) for card in seat.get("point_cards") or []]
    return context


def _stage_lines(
    view: dict[str, Any], names: dict[int, str], seats: list[dict[str, Any]]
) -> list[str]:
    """The stage just settled in sentences: each hand shown, who pays whom, who takes a mark;
    the hands' names are put on their seats too."""
    stage = view.get("stage") or {}
    mark, target = stage.get("mark") or "mark", stage.get("to_win")
    by_seat = {seat["seat"]: seat for seat in seats}
    lines = []
    for line in view.get("stage_result") or []:
        if line["kind"] == "shown":
            lines.append(f"{names.get(line['seat'], 'A player')}: {line['hand']}")
            if line["seat"] in by_seat:
                by_seat[line["seat"]]["hand"] = line["hand"]
        elif line["kind"] == "paid":
            payer, payee = names.get(line["payer"], "A player"), names.get(line["payee"], "")
            lines.append(f"{payer} pays {payee} {format_cents(line['amount'])}")
        elif line["kind"] == "mark":
            total = line["total"]
            of = f" ({total} of {target})" if target else f" ({total})"
            lines.append(f"{names.get(line['seat'], 'A player')} takes a {mark}{of}")
    return lines
