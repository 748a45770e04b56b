"""A table socket's login is asked again before each frame it sends (cardroom/realtime/logins.py):
an ended session, a revoked or run-out token and a deactivated account are refused with 4401
even when no message about them arrives, and nothing changes at the table or in the ledger.

The verdicts are timed by ``logins.clock``, set here by hand: a test moves it past
``LOGIN_CHECK_SECONDS`` rather than sleeping.
"""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import LoginSession, User
from accounts.selectors import bankroll_balance
from cardroom.models import ApiToken, Seat
from cardroom.realtime import freshness, logins
from cardroom.realtime.auth import token_create, token_revoke
from cardroom.realtime.consumers import _TableConsumer
from tests.accounts.logins import log_in
from tests.accounts.sockets import a_table, open_socket, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

SIT = {"kind": "sit", "buy_in": 20_000}


class Clock:
    """A monotonic clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock(monkeypatch):
    # Verdicts of earlier tests would be read by this clock's times: none are kept across.
    logins._verdicts.clear()
    fake = Clock()
    monkeypatch.setattr(logins, "clock", fake)
    yield fake
    logins._verdicts.clear()


@pytest.fixture
def reads(monkeypatch):
    """The logins read from the database, in the order they were."""
    read: list[Any] = []
    real = logins.logins_read

    def counted(owed):
        read.extend(owed)
        return real(owed)

    monkeypatch.setattr(logins, "logins_read", counted)
    return read


@pytest.fixture
def pushes_lost(monkeypatch):
    """The ``token.revoked`` group message never reaches a socket, as when the pub/sub layer
    lost it."""

    async def dropped(self, event):
        return None

    monkeypatch.setattr(_TableConsumer, "token_revoked", dropped)


async def frame(socket, message: dict[str, Any], *, page: bool = False, ident: str = "a1") -> None:
    if page:  # a form, as htmx's ws-send posts it (amounts in dollars)
        form = {**message, "HEADERS": {}}
        if "buy_in" in form:
            form["buy_in"] = f"{form['buy_in'] / 100:.2f}"
        await socket.send_to(text_data=json.dumps(form))
    else:
        await socket.send_to(
            text_data=json.dumps({"type": "action", "id": ident, "action": message})
        )


async def eventually(condition: Any, seconds: float = 30.0) -> bool:
    """Whether ``condition()`` holds within ``seconds`` (asked again every 10 ms): as soon as it
    does on a quiet machine, and still in time on a loaded one."""
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds
    while not condition():
        if loop.time() > until:
            return False
        await asyncio.sleep(0.01)
    return True


async def outputs_until_quiet(socket, quiet: float = 0.5) -> list[dict[str, Any]]:
    """Everything the socket sends until it closes or falls quiet."""
    seen: list[dict[str, Any]] = []
    while not await socket.receive_nothing(quiet):
        seen.append(await socket.receive_output(5))
        if seen[-1]["type"] == "websocket.close":
            break
    return seen


def _texts(seen: list[dict[str, Any]]) -> list[str]:
    return [output.get("text", "") for output in seen if output["type"] == "websocket.send"]


async def assert_refused(socket, seen: list[dict[str, Any]]) -> None:
    """The frame was answered by nothing but a close with 4401."""
    assert seen, "the socket said nothing"
    assert seen[-1] == {"type": "websocket.close", "code": 4401, "reason": "logged out"}, seen
    assert not _texts(seen), "a refused socket answered the frame"
    await socket.disconnect()


async def table_untouched(table_id: int, user: User, bankroll: int) -> None:
    assert await Seat.objects.filter(table_id=table_id).acount() == 0
    assert await sync_to_async(bankroll_balance)(user=user) == bankroll


async def a_session_socket(user: User, table_id: int, *, agent: str = "Phone browser"):
    browser = Client()
    await sync_to_async(log_in)(browser, user, agent=agent)
    socket, first = await open_socket(table_id, cookie=await session_cookie(browser), page=True)
    assert first["type"] == "websocket.send"
    return browser, socket


async def a_token_socket(user: User, table_id: int, *, page: bool = False, **made: Any):
    token = await sync_to_async(token_create)(user=user, **made)
    socket, first = await open_socket(table_id, token=token, page=page)
    assert first["type"] == "websocket.send"
    return await ApiToken.objects.aget(user=user), socket


# The four ways a login is taken away, each with no message to the socket.


@pytest.mark.parametrize("page", [False, True], ids=["api", "page"])
async def test_a_revoked_tokens_next_action_is_refused_when_its_message_was_lost(
    alice, clock, pushes_lost, page
):
    table = await a_table()
    bankroll = await sync_to_async(bankroll_balance)(user=alice)
    made, socket = await a_token_socket(alice, table, page=page)
    assert await sync_to_async(token_revoke)(user=alice, token_id=made.pk)
    clock.advance(logins.LOGIN_CHECK_SECONDS)
    await frame(socket, SIT, page=page)
    await assert_refused(socket, await outputs_until_quiet(socket))
    await table_untouched(table, alice, bankroll)


async def test_a_token_that_ran_out_is_refused_at_its_next_action(alice, clock):
    table = await a_table()
    bankroll = await sync_to_async(bankroll_balance)(user=alice)
    made, socket = await a_token_socket(alice, table, expires=timezone.now() + timedelta(hours=1))
    # Its hour is up (moved back rather than waited for).
    await ApiToken.objects.filter(pk=made.pk).aupdate(expires=timezone.now() - timedelta(seconds=1))
    clock.advance(logins.LOGIN_CHECK_SECONDS)
    await frame(socket, SIT)
    await assert_refused(socket, await outputs_until_quiet(socket))
    await table_untouched(table, alice, bankroll)


@pytest.mark.parametrize("login", ["token", "session"])
async def test_a_deactivated_accounts_next_action_is_refused(alice, clock, login):
    table = await a_table()
    bankroll = await sync_to_async(bankroll_balance)(user=alice)
    if login == "token":
        _, socket = await a_token_socket(alice, table)
    else:
        _, socket = await a_session_socket(alice, table)
    await User.objects.filter(pk=alice.pk).aupdate(is_active=False)
    clock.advance(logins.LOGIN_CHECK_SECONDS)
    await frame(socket, SIT, page=login == "session")
    await assert_refused(socket, await outputs_until_quiet(socket))
    await table_untouched(table, alice, bankroll)


async def test_a_session_ended_from_another_browser_is_refused_at_its_next_action(alice, clock):
    table = await a_table()
    bankroll = await sync_to_async(bankroll_balance)(user=alice)
    _, socket = await a_session_socket(alice, table, agent="Phone browser")
    laptop = Client()
    await sync_to_async(log_in)(laptop, alice, agent="Laptop browser")
    phone = await LoginSession.objects.aget(user_agent="Phone browser")
    ended = await sync_to_async(laptop.post)(reverse("account-session-end", args=[phone.pk]))
    assert ended.status_code == 302
    clock.advance(logins.LOGIN_CHECK_SECONDS)
    await frame(socket, SIT, page=True)
    await assert_refused(socket, await outputs_until_quiet(socket))
    await table_untouched(table, alice, bankroll)


async def test_a_password_change_elsewhere_refuses_the_other_sessions_sockets(alice, clock):
    table = await a_table()
    bankroll = await sync_to_async(bankroll_balance)(user=alice)
    _, socket = await a_session_socket(alice, table, agent="Phone browser")
    laptop = Client()
    await sync_to_async(log_in)(laptop, alice, agent="Laptop browser")
    changed = await sync_to_async(laptop.post)(
        reverse("password_change"),
        {
            "old_password": "pw-alice",
            "new_password1": "a-much-longer-pass-7",
            "new_password2": "a-much-longer-pass-7",
        },
    )
    assert changed.status_code == 302
    clock.advance(logins.LOGIN_CHECK_SECONDS)
    await frame(socket, SIT, page=True)
    await assert_refused(socket, await outputs_until_quiet(socket))
    await table_untouched(table, alice, bankroll)


async def test_a_password_set_without_ending_sessions_refuses_their_sockets(alice, clock):
    """An operator's ``set_password`` (the admin, ``changepassword``) deletes no session, but a
    session made with the old password logs nobody in any more, on a page or a socket."""
    table = await a_table()
    bankroll = await sync_to_async(bankroll_balance)(user=alice)
    _, socket = await a_session_socket(alice, table)

    def reset() -> None:
        user = User.objects.get(pk=alice.pk)
        user.set_password("set-by-an-operator-9")
        user.save()

    await sync_to_async(reset)()
    clock.advance(logins.LOGIN_CHECK_SECONDS)
    await frame(socket, SIT, page=True)
    await assert_refused(socket, await outputs_until_quiet(socket))
    await table_untouched(table, alice, bankroll)


async def test_a_read_is_refused_too(alice, clock, pushes_lost):
    """``sync`` sends the viewer's own cards: it needs the login as much as an action does."""
    table = await a_table()
    made, socket = await a_token_socket(alice, table)
    assert await sync_to_async(token_revoke)(user=alice, token_id=made.pk)
    clock.advance(logins.LOGIN_CHECK_SECONDS)
    await socket.send_to(text_data=json.dumps({"type": "sync"}))
    await assert_refused(socket, await outputs_until_quiet(socket))


async def test_a_listening_socket_is_closed_by_the_freshness_round(alice, clock, pushes_lost):
    """A socket that sends nothing still gets its viewer's state with every push: the
    freshness round asks after its login too."""
    table = await a_table()
    made, socket = await a_token_socket(alice, table)
    assert await sync_to_async(token_revoke)(user=alice, token_id=made.pk)
    await freshness.freshness_round()
    assert await socket.receive_nothing(0.3)  # the handshake's verdict is still fresh
    clock.advance(logins.LOGIN_CHECK_SECONDS)
    await freshness.freshness_round()
    await assert_refused(socket, await outputs_until_quiet(socket))


# A login that holds, and what its checks cost.


async def test_a_socket_whose_login_holds_acts_and_is_read_once_a_bound(alice, clock, reads):
    table = await a_table()
    _, socket = await a_token_socket(alice, table)
    await frame(socket, SIT)
    answered = [json.loads(text) for text in _texts(await outputs_until_quiet(socket))]
    assert {"type": "ack", "id": "a1"} in answered
    assert reads == []  # the handshake's read was the check
    clock.advance(logins.LOGIN_CHECK_SECONDS - 0.01)
    await socket.send_to(text_data=json.dumps({"type": "sync"}))
    assert [json.loads(t)["type"] for t in _texts(await outputs_until_quiet(socket))] == ["state"]
    assert reads == []  # still fresh: a look-up, no query
    clock.advance(0.01)
    await frame(socket, {"kind": "sit_out"}, ident="a2")
    answered = [json.loads(text) for text in _texts(await outputs_until_quiet(socket))]
    assert {"type": "ack", "id": "a2"} in answered
    assert len(reads) == 1  # the bound passed: read again, and it holds
    assert await Seat.objects.filter(table_id=table, user=alice, left__isnull=True).aexists()
    await socket.disconnect()


async def test_a_verdict_is_trusted_for_the_bound_and_no_longer(alice, bob, clock, pushes_lost):
    """Within ``LOGIN_CHECK_SECONDS`` of the last check a revoked token's frame is still
    answered (the bound is the price of no query per frame); at the bound it is refused."""
    table = await a_table()
    made, socket = await a_token_socket(alice, table)
    assert await sync_to_async(token_revoke)(user=alice, token_id=made.pk)
    clock.advance(logins.LOGIN_CHECK_SECONDS - 0.01)
    await socket.send_to(text_data=json.dumps({"type": "sync"}))
    assert [json.loads(t)["type"] for t in _texts(await outputs_until_quiet(socket))] == ["state"]
    clock.advance(0.01)
    await socket.send_to(text_data=json.dumps({"type": "sync"}))
    await assert_refused(socket, await outputs_until_quiet(socket))


async def test_the_sockets_of_one_login_share_its_verdict(alice, clock, reads):
    table = await a_table()
    token = await sync_to_async(token_create)(user=alice)
    sockets = [(await open_socket(table, token=token))[0] for _ in range(3)]
    clock.advance(logins.LOGIN_CHECK_SECONDS)
    for socket in sockets:
        await socket.send_to(text_data=json.dumps({"type": "sync"}))
        assert [json.loads(t)["type"] for t in _texts(await outputs_until_quiet(socket))] == [
            "state"
        ]
    assert len(reads) == 1
    for socket in sockets:
        await socket.disconnect()


async def test_a_process_keeps_its_sockets_verdicts_fresh_in_one_read(
    alice, monkeypatch, reads, pushes_lost
):
    """Each process reads again, in the background, the logins of its open sockets: a frame
    finds a fresh verdict (here, that the token was revoked) and waits for no read of its own."""
    monkeypatch.setattr(logins, "REFRESH_SECONDS", 0.05)
    table = await a_table()
    made, socket = await a_token_socket(alice, table)
    assert await eventually(lambda: reads), "the open socket's login was not read again"
    assert await sync_to_async(token_revoke)(user=alice, token_id=made.pk)
    # Two background rounds after the revoke: the second began after it.
    revoked_at = len(reads)
    assert await eventually(lambda: len(reads) >= revoked_at + 2), "no background read"
    before, bankroll = len(reads), await sync_to_async(bankroll_balance)(user=alice)
    await frame(socket, SIT)
    await assert_refused(socket, await outputs_until_quiet(socket))
    assert len(reads) - before <= 1  # at most a background round meanwhile: the frame read none
    await table_untouched(table, alice, bankroll)
    loop = asyncio.get_running_loop()
    # The socket closed: the loop's refreshing stops.
    assert await eventually(lambda: loop not in logins._open)
