"""autobahn's debug line of a new connection's options, formatted only when it is written.

Hand-made: on every connection autobahn's ``WebSocketProtocol._connectionMade`` pretty-prints
the connection's options (about thirty of them) for a debug line, whether debug lines are
written or not, which is a noticeable share of a handshake's work in a room that opens
(docs/performance.md); autobahn has no setting for it. :func:`install` gives autobahn's
protocol module a ``pformat`` that, called from that method only, hands back the options in a
wrapper formatted when (if ever) the line is written; called from anywhere else (autobahn's
``Timings``), it is the standard ``pformat``. Where autobahn no longer has that method,
nothing is changed.
"""

from __future__ import annotations

import sys
from importlib import import_module
from pprint import pformat
from types import CodeType
from typing import Any

__all__ = ["Formatted", "install", "pformat_when_written"]

#: The code of the one caller whose result is only ever logged; None until :func:`install`.
_logged_only: CodeType | None = None


class Formatted:
    """``pformat(obj)``, made when the log line is formatted (``str``, ``format``, ``repr``)."""

    __slots__ = ("obj",)

    def __init__(self, obj: Any) -> None:
        self.obj = obj

    def __str__(self) -> str:
        return pformat(self.obj)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    __repr__ = __str__


def pformat_when_written(obj: Any, *args: Any, **kwargs: Any) -> Any:
    """``pformat``, but for the options' debug line (see the module)."""
    if not args and not kwargs and sys._getframe(1).f_code is _logged_only:
        return Formatted(obj)
    return pformat(obj, *args, **kwargs)


def install() -> None:
    """Give autobahn's protocol module the ``pformat`` above (once; idempotent)."""
    global _logged_only
    protocol: Any = import_module("autobahn.websocket.protocol")  # its names, typed or not

    method = getattr(protocol.WebSocketProtocol, "_connectionMade", None)
    code = getattr(method, "__code__", None)
    if code is None or getattr(protocol, "pformat", None) not in (pformat, pformat_when_written):
        return  # not the autobahn this was written against: leave it as it is
    _logged_only = code
    protocol.pformat = pformat_when_written
