"""The chat as the table page draws it (templates/cardroom/partials/_chat*.html)."""

from __future__ import annotations

from typing import Any

from cardroom.chat.lines import lines_recent
from cardroom.chat.mutes import muted_ids, muted_names

__all__ = ["chat_context", "chat_panel", "page_line"]


def page_line(line: dict[str, Any]) -> dict[str, Any]:
    """A line as the page's templates read it (``from`` is a Python word)."""
    return {**line, "name": line["from"]}


def chat_context(lines: list[dict[str, Any]], muted: list[str]) -> dict[str, Any]:
    """The chat panel's context: the lines as the page shows them, and whom the viewer muted."""
    return {"lines": [page_line(line) for line in lines], "muted": muted}


def chat_panel(*, table_id: int, user_id: int) -> dict[str, Any]:
    """The panel as the page first draws it: the recent lines, less the viewer's mutes."""
    muted = muted_ids(user_id)
    lines = lines_recent(table_id=table_id, hidden=muted)
    return chat_context(lines, muted_names(user_id) if muted else [])
