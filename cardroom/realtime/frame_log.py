"""autobahn's debug lines, their highlighted values formatted only when a line is written.

Hand-made: for every frame it sends, autobahn's ``WebSocketProtocol.sendData`` highlights the
values of a debug line (its own method's qualified name, the peer, the length, with click's
colours) before calling the logger, whether debug lines are written or not (what that costs a
frame: docs/performance.md, "One send a batch"); autobahn has no setting for it.
:func:`install` gives autobahn's protocol module an ``hltype`` and an ``hlval`` that hand back
a :class:`Highlighted`, which calls autobahn's own when (if ever) the line is formatted. That
module uses both names only for its log lines' values. Where it no longer has them as
autobahn's own, nothing is changed.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import Any

__all__ = ["Highlighted", "install"]


class Highlighted:
    """``highlight(*args, **kwargs)``, made when the log line is formatted."""

    __slots__ = ("args", "highlight", "kwargs")

    def __init__(self, highlight: Callable[..., str], *args: Any, **kwargs: Any) -> None:
        self.highlight = highlight
        self.args = args
        self.kwargs = kwargs

    def __str__(self) -> str:
        return self.highlight(*self.args, **self.kwargs)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    __repr__ = __str__


def _when_written(own: Callable[..., str]) -> Callable[..., Highlighted]:
    def when_written(*args: Any, **kwargs: Any) -> Highlighted:
        return Highlighted(own, *args, **kwargs)

    return when_written


def install() -> None:
    """Give autobahn's protocol module the ``hltype`` and ``hlval`` above (idempotent)."""
    protocol: Any = import_module("autobahn.websocket.protocol")  # its names, typed or not
    util: Any = import_module("autobahn.util")
    for name in ("hltype", "hlval"):
        own = getattr(util, name, None)
        if own is None or getattr(protocol, name, None) is not own:
            continue  # installed already, or not the autobahn this was written against
        setattr(protocol, name, _when_written(getattr(util, name)))
