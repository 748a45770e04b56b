"""Frames written at once (cardroom/realtime/socket_writes.py): on twisted's own TCP connection
over a real socket pair, with a reactor that records what it is asked to watch."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any, cast

import pytest
from twisted.internet import tcp
from twisted.internet._newtls import ConnectionMixin

from cardroom.realtime import socket_writes


class Reactor:
    """What a connection asks of its reactor while writing: to watch it for room, or stop."""

    def __init__(self) -> None:
        self.writers: list[Any] = []
        self.later: list[tuple[Any, tuple[Any, ...]]] = []

    def addWriter(self, writer: Any) -> None:  # twisted's names
        if writer not in self.writers:  # as a real reactor, which watches a socket once
            self.writers.append(writer)

    def removeWriter(self, writer: Any) -> None:
        if writer in self.writers:
            self.writers.remove(writer)

    def removeReader(self, reader: Any) -> None:
        pass

    def callLater(self, delay: float, call: Any, *args: Any) -> None:
        self.later.append((call, args))


class Protocol:
    def makeConnection(self, transport: Any) -> None:
        pass


@pytest.fixture
def installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The patch on twisted's own write, undone after the test (the class is the process's,
    and a test that loaded cardroom/asgi.py under twisted may have patched it already)."""
    monkeypatch.setattr(tcp.Connection, "write", ConnectionMixin.write)
    monkeypatch.setattr(socket_writes, "_buffered_write", None)
    socket_writes.install()


@pytest.fixture
def pair(installed: None) -> Iterator[tuple[tcp.Connection, socket.socket, Reactor]]:
    ours, theirs = socket.socketpair()
    ours.setblocking(False)
    theirs.setblocking(False)
    reactor = Reactor()
    connection = tcp.Connection(ours, cast(Any, Protocol()), cast(Any, reactor))
    connection.connected = 1
    yield connection, theirs, reactor
    ours.close()
    theirs.close()


def received(peer: socket.socket) -> bytes:
    chunks: list[bytes] = []
    while True:
        try:
            chunk = peer.recv(1 << 16)
        except BlockingIOError:
            return b"".join(chunks)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def test_install_keeps_twisteds_write_once(installed: None) -> None:
    socket_writes.install()  # again: twisted's write stays the one kept
    assert tcp.Connection.write is socket_writes.write_at_once
    assert socket_writes._buffered_write is ConnectionMixin.write


def test_a_frame_leaves_at_once_without_watching_the_socket(pair: Any) -> None:
    connection, peer, reactor = pair
    connection.write(b"frame one")
    connection.write(b"frame two")
    assert received(peer) == b"frame oneframe two"
    assert reactor.writers == []
    assert connection._tempDataBuffer == []


def test_what_the_kernel_does_not_take_waits_in_order(pair: Any) -> None:
    connection, peer, reactor = pair
    big = bytes(range(256)) * 8192  # 2 MB: more than a socket pair's buffers hold
    connection.write(big)
    assert reactor.writers == [connection]  # the rest waits for room
    connection.write(b"after")  # must not overtake what waits
    assert connection._tempDataBuffer[-1] == b"after"
    got = b""
    for _ in range(10_000):
        got += received(peer)
        if not reactor.writers:
            break
        connection.doWrite()
    got += received(peer)
    assert got == big + b"after"
    assert reactor.writers == []


def test_a_closing_connection_keeps_twisteds_way(pair: Any) -> None:
    connection, peer, reactor = pair
    connection.disconnecting = True
    connection.write(b"last words")
    assert received(peer) == b""
    assert connection._tempDataBuffer == [b"last words"]
    assert reactor.writers == [connection]


def test_nothing_leaves_after_an_abort(pair: Any) -> None:
    connection, peer, reactor = pair
    connection.abortConnection()  # twisted drops writes from here on, until the loss is seen
    assert [call.__name__ for call, _ in reactor.later] == ["connectionLost"]
    connection.write(b"after the abort")
    assert received(peer) == b""


def test_an_error_on_send_is_left_to_twisted(pair: Any) -> None:
    connection, peer, reactor = pair
    peer.close()
    # The first send to a closed peer may raise or be taken; either way nothing is lost
    # from twisted's view: what was not sent is buffered for its doWrite to fail on.
    for _ in range(3):
        connection.write(b"x" * 100_000)
    assert connection._tempDataBuffer
    assert reactor.writers == [connection]
    assert connection.doWrite() is not None  # twisted sees the lost connection
