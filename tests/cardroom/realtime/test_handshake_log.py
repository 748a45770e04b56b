"""autobahn's debug line of a connection's options (cardroom/realtime/handshake_log.py): not
formatted on a connection whose debug line is not written, the same text when it is, and the
standard ``pformat`` for every other caller."""

from __future__ import annotations

from importlib import import_module
from pprint import pformat
from typing import Any

import pytest
from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol
from autobahn.websocket.protocol import Timings

from cardroom.realtime import handshake_log
from tests.cardroom.realtime.debug_log import Calls, Log

protocol: Any = import_module("autobahn.websocket.protocol")  # its names, typed or not


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protocol, "pformat", pformat)
    monkeypatch.setattr(handshake_log, "_logged_only", None)
    handshake_log.install()
    assert protocol.pformat is handshake_log.pformat_when_written


def connection_made(log: Log) -> WebSocketServerProtocol:
    made = WebSocketServerProtocol()
    made.factory = WebSocketServerFactory()  # type: ignore[no-untyped-call]
    made.log = log
    protocol.WebSocketProtocol._connectionMade(made)
    return made


def the_options(made: WebSocketServerProtocol) -> list[tuple[str, Any, str]]:
    return [(name, getattr(made, name), "WebSocketServerFactory") for name in made.CONFIG_ATTRS]


def test_the_options_are_not_formatted_unless_the_line_is_written(
    installed: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = Calls()
    monkeypatch.setattr(handshake_log, "pformat", calls)
    made = connection_made(Log(write=False))
    assert calls.made == []
    assert isinstance(made.log.kept[0]["attrs"], handshake_log.Formatted)


def test_a_written_line_holds_the_options_as_pformat_gives_them(installed: None) -> None:
    log = Log(write=True)
    made = connection_made(log)
    assert log.lines[0] == "\n" + pformat(the_options(made))
    assert "openHandshakeTimeout" in log.lines[0]


def test_every_other_caller_gets_pformat_itself(installed: None) -> None:
    timings = Timings()  # type: ignore[no-untyped-call]
    timings.track("opened")
    assert isinstance(str(timings), str)
    assert str(timings) == pformat(timings._timings)
    assert protocol.pformat({"b": 1, "a": [2]}) == pformat({"b": 1, "a": [2]})


def test_installing_twice_changes_nothing_more(installed: None) -> None:
    handshake_log.install()
    assert protocol.pformat is handshake_log.pformat_when_written
