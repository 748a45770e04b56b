"""autobahn's debug line of each frame sent (cardroom/realtime/frame_log.py): its highlighted
values not made when the line is not written, the same text as autobahn's own when it is."""

from __future__ import annotations

from collections import deque
from importlib import import_module
from typing import Any

import pytest
from autobahn.twisted.websocket import WebSocketServerProtocol

from cardroom.realtime import frame_log
from tests.cardroom.realtime.debug_log import Calls, Log

protocol: Any = import_module("autobahn.websocket.protocol")  # its names, typed or not
util: Any = import_module("autobahn.util")

LINE = "{func} sent {data_len} bytes for peer {peer}"


class Transport:
    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(protocol, "hltype", util.hltype)
    monkeypatch.setattr(protocol, "hlval", util.hlval)
    frame_log.install()
    assert protocol.hltype is not util.hltype and protocol.hlval is not util.hlval


def sent(log: Log, data: bytes) -> Any:
    """A frame's bytes through autobahn's ``sendData``, as daphne sends every frame."""
    made: Any = WebSocketServerProtocol()
    made.log = log
    made.transport = Transport()
    made.send_queue = deque()
    made.peer = "tcp:127.0.0.1:50000"
    made.state = WebSocketServerProtocol.STATE_OPEN
    made.trafficStats = protocol.TrafficStats()
    made.logOctets = False
    made.sendData(data)
    return made


def test_a_frames_values_are_not_highlighted_unless_the_line_is_written(
    installed: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = Calls()
    monkeypatch.setattr(util, "hl", calls)
    made = sent(Log(write=False), b"frame")
    assert made.transport.written == [b"frame"]  # the frame itself goes as before
    assert calls.made == []
    values = made.log.kept[0]
    assert set(values) == {"func", "peer", "data_len"}
    assert all(isinstance(value, frame_log.Highlighted) for value in values.values())


def test_a_written_line_is_autobahns_own(installed: None) -> None:
    made = sent(Log(write=True), b"frame")
    own = LINE.format(
        func=util.hltype(made.sendData), peer=util.hlval(made.peer), data_len=util.hlval(5)
    )
    assert made.log.lines == [own]
    assert "sendData" in own and "127.0.0.1" in own


def test_installing_twice_changes_nothing_more(installed: None) -> None:
    first = (protocol.hltype, protocol.hlval)
    frame_log.install()
    assert (protocol.hltype, protocol.hlval) == first
