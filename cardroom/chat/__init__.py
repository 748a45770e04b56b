"""The table chat (docs/protocol.md, "Table chat"): seated players write, everyone watching
reads; each line is checked, stored and committed before it is sent to anyone.

``lines`` says and reads lines; ``mutes`` keeps who muted whom (a player's own choice);
``bans`` answers whether an operator muted a player room-wide (operators record those:
cardroom/operators/chat.py). The sockets that carry the lines are cardroom/realtime/'s.
"""

from cardroom.chat.bans import ban_in_force
from cardroom.chat.lines import (
    HISTORY_LINES,
    RATE_LINES,
    RATE_SECONDS,
    ChatRefused,
    chat_frame,
    chat_text,
    line_say,
    lines_recent,
    lines_seen_by,
)
from cardroom.chat.mutes import mute_add, mute_remove, muted_ids, muted_names, player_named
from cardroom.chat.page import chat_context, chat_panel, page_line

__all__ = [
    "HISTORY_LINES",
    "RATE_LINES",
    "RATE_SECONDS",
    "ChatRefused",
    "ban_in_force",
    "chat_context",
    "chat_frame",
    "chat_panel",
    "chat_text",
    "line_say",
    "lines_recent",
    "lines_seen_by",
    "mute_add",
    "mute_remove",
    "muted_ids",
    "muted_names",
    "page_line",
    "player_named",
]
