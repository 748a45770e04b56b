"""New sockets wait, a bounded time, for the actions in hand (cardroom/realtime/admission.py).

The table's work is replaced by a function held on a threading event, so each test decides
when the action in hand is answered. No table is read, but the queue's thread still tidies its
database connection before and after, hence the mark.
"""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

import cardroom.realtime.admission
import cardroom.realtime.queue
from cardroom.realtime.admission import HandshakeAdmission
from cardroom.realtime.queue import actions_quiet, submit

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def held(monkeypatch) -> threading.Event:
    """Actions are applied only once the returned event is set."""
    release = threading.Event()

    def applied(*, table_id: int, requests: list[Any], held: Any) -> tuple[list[Any], None]:
        release.wait(5)
        return ["applied"] * len(requests), None

    monkeypatch.setattr(cardroom.realtime.queue, "held_act", applied)
    yield release
    release.set()  # a failing test leaves no thread waiting


def action() -> asyncio.Task:
    return asyncio.ensure_future(
        submit(table_id=1, user=None, action={"kind": "ante"}, action_id=None)  # type: ignore[arg-type]
    )


async def in_hand(monkeypatch, bound: float) -> asyncio.Task:
    """An action in hand, the handshakes' wait bounded at ``bound`` seconds."""
    monkeypatch.setattr(cardroom.realtime.admission, "HANDSHAKE_WAIT_SECONDS", bound)
    sitting = action()
    await asyncio.sleep(0.02)
    return sitting


def handshake(app: Any) -> Any:
    return HandshakeAdmission(app)({"type": "websocket"}, None, None)


class Inner:
    """The app behind the gate: records when each scope reached it."""

    def __init__(self) -> None:
        self.reached: list[str] = []

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.reached.append(scope["type"])


async def test_nothing_in_hand_lets_a_socket_in_at_once(monkeypatch):
    # A bound far off, so only "nothing in hand" can let the socket in within the wait below.
    monkeypatch.setattr(cardroom.realtime.admission, "HANDSHAKE_WAIT_SECONDS", 60.0)
    inner = Inner()
    assert await actions_quiet(5.0) is True
    await asyncio.wait_for(handshake(inner), 10.0)
    assert inner.reached == ["websocket"]


async def test_a_handshake_waits_until_the_action_in_hand_is_answered(held, monkeypatch):
    # A bound far off, so only the action's answer can let the socket in.
    sitting = await in_hand(monkeypatch, 60.0)
    inner = Inner()
    opening = asyncio.ensure_future(handshake(inner))
    await asyncio.sleep(0.1)
    assert inner.reached == [] and not sitting.done()  # the socket waits for the sit
    held.set()
    assert await sitting == "applied"
    await asyncio.wait_for(opening, 10.0)
    assert inner.reached == ["websocket"]


async def test_the_wait_is_bounded(held, monkeypatch):
    sitting = await in_hand(monkeypatch, 0.05)
    inner = Inner()
    # A socket is let in after the bound though the action waits on (up to 5 s: see ``held``).
    await asyncio.wait_for(handshake(inner), 3.0)
    assert inner.reached == ["websocket"]
    assert not sitting.done()
    assert await actions_quiet(0.01) is False
    held.set()
    await sitting
    assert await actions_quiet(0.01) is True


class Held(Inner):
    """An app whose handshakes are answered (accepted) only when the test says so."""

    def __init__(self) -> None:
        super().__init__()
        self.answer: dict[int, asyncio.Event] = {}

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        self.reached.append(scope["n"])
        await self.answer.setdefault(scope["n"], asyncio.Event()).wait()
        await send({"type": "websocket.accept"})
        await asyncio.sleep(3600)  # the open socket


async def test_a_few_handshakes_at_a_time_each_place_freed_once_answered(monkeypatch):
    monkeypatch.setattr(cardroom.realtime.admission, "HANDSHAKES_AT_ONCE", 2)
    monkeypatch.setattr(cardroom.realtime.admission, "HANDSHAKE_WAIT_SECONDS", 5.0)
    inner, sent = Held(), []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message["type"])

    gate = HandshakeAdmission(inner)
    sockets = [
        asyncio.ensure_future(gate({"type": "websocket", "n": n}, None, send)) for n in range(3)
    ]
    await asyncio.sleep(0.05)
    assert inner.reached == [0, 1]  # the third waits for a place
    inner.answer.setdefault(0, asyncio.Event()).set()
    await asyncio.sleep(0.05)
    assert inner.reached == [0, 1, 2] and sent == ["websocket.accept"]
    sockets[1].cancel()  # gone before it was answered: its place is given back too
    await asyncio.sleep(0.01)
    fourth = asyncio.ensure_future(gate({"type": "websocket", "n": 3}, None, send))
    await asyncio.sleep(0.05)
    assert inner.reached == [0, 1, 2, 3]
    for socket in [*sockets, fourth]:
        socket.cancel()


async def test_a_handshake_cancelled_while_it_waits_gives_its_place_back(held, monkeypatch):
    monkeypatch.setattr(cardroom.realtime.admission, "HANDSHAKES_AT_ONCE", 1)
    sitting = await in_hand(monkeypatch, 5.0)
    inner, gate = Inner(), HandshakeAdmission(Inner())
    waiting = asyncio.ensure_future(gate({"type": "websocket"}, None, None))
    await asyncio.sleep(0.05)  # it holds the one place and waits for the sit
    waiting.cancel()
    held.set()
    await sitting
    gate.app = inner
    await asyncio.wait_for(gate({"type": "websocket"}, None, None), 0.5)
    assert inner.reached == ["websocket"]
