"""Classic Guts on the page: whose turn it is, the reserve, the ghost hand, the community card,
wild ranks and Hi-Lo choices, from the viewer's own view only (cardroom.presentation)."""

from __future__ import annotations

from typing import Any

from accounts.money import format_cents
from cardroom.presentation import CardFace

__all__ = ["describe"]

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
    )
    for seat in context["seats"]:
        if seat.get("choice") in CHOICE_WORDS:
            seat["choice_text"] = CHOICE_WORDS[seat["choice"]]
    return context
