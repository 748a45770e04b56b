"""A logger for autobahn's debug lines, for the tests of what formats them
(cardroom/realtime/handshake_log.py, cardroom/realtime/frame_log.py)."""

from __future__ import annotations

from typing import Any


class Log:
    """A logger that keeps what autobahn asks to log at debug level, formatted or not."""

    def __init__(self, write: bool) -> None:
        self.write = write
        self.lines: list[str] = []
        self.kept: list[dict[str, Any]] = []

    def debug(self, text: str, **values: Any) -> None:
        self.kept.append(values)
        if self.write:
            self.lines.append(text.format(**values))

    def __getattr__(self, level: str) -> Any:
        return lambda *args, **kwargs: None
