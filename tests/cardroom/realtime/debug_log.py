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


class Calls:
    """A stand-in for a formatting function: keeps each call's arguments, formats nothing."""

    def __init__(self) -> None:
        self.made: list[tuple[Any, ...]] = []

    def __call__(self, *args: Any, **kwargs: Any) -> str:
        self.made.append(args)
        return ""
