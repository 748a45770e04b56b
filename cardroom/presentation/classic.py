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
    context.update(
        game_partial="cardroom/partials/_classic_table.html",
        turn_name=names.get(turn, "") if turn is not None else "",
        reserve_text=format_cents(view.get("reserve", 0)) if view.get("reserve") else "",
        pot_limit_text=format_cents(view["pot_limit"]) if view.get("pot_limit") else "",
        ghost_faces=[CardFace.of(card) for card in ghost] if isinstance(ghost, list) else [],
        community_faces=[CardFace.of(card) for card in view.get("community") or []],
        wild=view.get("wild", ""),
        stage=view.get("stage") or {},
    )
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
