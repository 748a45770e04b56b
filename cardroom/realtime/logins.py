"""Whether a table socket's login still holds, asked again of every frame the socket sends.

A socket is logged in once, at its handshake (cardroom/realtime/auth.py): by a session or by an
API token. That login can be taken away while the socket is open: the session ends (logging
out, ending it or every other one on the account page, a password change or reset), the token
is revoked or runs out, the account is deactivated. The message that closes a revoked token's
sockets at once (``token.revoked``) is best effort, as everything on the Redis pub/sub layer
is (at most once); the others have no message at all. So the socket asks, before it reads or
applies any frame, whether its login still holds, and closes with 4401 when it does not.

The verdict on a login is kept in this process for ``LOGIN_CHECK_SECONDS``, shared by the
sockets of that login: a frame within that time of the last check costs one dictionary look-up
and no query. That is the one bound of the whole scheme: a login taken away anywhere (on any
process, by any means) is refused on every socket's next frame at most ``LOGIN_CHECK_SECONDS``
later. A socket that only listens is checked by the freshness round
(cardroom/realtime/freshness.py), every ``FRESHNESS_SECONDS``. So that a frame seldom waits for
a read of its own, each process reads again every ``REFRESH_SECONDS`` the logins of all its open
sockets, in one query.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.utils import timezone

from accounts.login_sessions import session_logs_in
from cardroom.realtime.threads import in_read_thread
from cardroom.storage.tokens import tokens_usable
from games.words import words

__all__ = [
    "LOGIN_CHECK_SECONDS",
    "LOGIN_ENDED",
    "REFRESH_SECONDS",
    "Login",
    "login_closed",
    "login_holds",
    "login_of",
    "login_opened",
    "login_seen",
    "logins_hold",
]

log = logging.getLogger(__name__)

#: How long this process trusts a verdict on a login: the most time between a login being
#: taken away and its sockets' frames being refused (docs/protocol.md, "Connecting").
LOGIN_CHECK_SECONDS = 1.0
#: The close reason of a socket whose login no longer holds (with code 4401).
LOGIN_ENDED = words("logged out")

#: The clock verdicts are timed by (a monotonic one; the tests set their own).
clock: Callable[[], float] = time.monotonic
#: How often a process reads again, in one query, the logins of all its open sockets, so that
#: a frame finds a fresh verdict rather than waiting for a read of its own (None: never; the
#: test suite turns it off, but for the test of it: a read in the background of every test
#: would race the test database's teardown).
REFRESH_SECONDS: float | None = None if settings.TESTING else LOGIN_CHECK_SECONDS / 2


@dataclass(frozen=True, slots=True)
class Login:
    """What a socket logged in with: a session's key or a token's id, for one user."""

    user_id: int
    session_key: str | None = None
    token_id: int | None = None


#: Login -> (whether it holds, ``clock()`` just before it was read). In the order the verdicts
#: were read, oldest first, so the stale ones are dropped from the front.
_verdicts: dict[Login, tuple[bool, float]] = {}


def login_of(scope: dict[str, Any]) -> Login | None:
    """The login of a let-in socket's scope (cardroom/realtime/auth.py put it there); None if it
    has none that can be checked again, which is refused like a login that ended."""
    user = scope.get("user")
    if user is None or user.pk is None:
        return None
    token_id = scope.get("api_token_id")
    if token_id is not None:
        return Login(user_id=user.pk, token_id=token_id)
    session = scope.get("session")
    key = getattr(session, "session_key", None)
    return Login(user_id=user.pk, session_key=key) if key else None


def login_seen(login: Login, at: float) -> None:
    """Record that ``login`` held when read at ``at`` (a handshake's check), unless a later
    verdict is known."""
    known = _verdicts.get(login)
    if known is None or known[1] < at:
        _keep(login, True, at)


def _keep(login: Login, holds: bool, at: float) -> None:
    _verdicts.pop(login, None)
    _verdicts[login] = (holds, at)
    # The verdicts of logins no socket asks about any more go once stale: nothing else keeps
    # the table from growing with every login this process has seen.
    stale = clock() - LOGIN_CHECK_SECONDS
    while _verdicts:
        oldest = next(iter(_verdicts))
        if _verdicts[oldest][1] >= stale:
            break
        del _verdicts[oldest]


async def login_holds(login: Login | None) -> bool:
    """Whether ``login`` still holds: from this process's verdict if it is younger than
    ``LOGIN_CHECK_SECONDS``, else read (in the thread pool: a read) and kept."""
    if login is None:
        return False
    now = clock()
    known = _verdicts.get(login)
    if known is not None and now - known[1] < LOGIN_CHECK_SECONDS:
        return known[0]
    holds: bool = await in_read_thread(login_read, login)
    _keep(login, holds, now)  # timed from before the read: it is at least that fresh
    return holds


async def logins_hold(
    logins: Iterable[Login | None], *, within: float = LOGIN_CHECK_SECONDS
) -> dict[Login | None, bool]:
    """``login_holds`` for many logins at once: those with no verdict younger than ``within``
    are read together, in one trip to the thread pool."""
    now = clock()
    verdicts: dict[Login | None, bool] = {None: False}
    owed: list[Login] = []
    for login in set(logins) - {None}:
        assert login is not None
        known = _verdicts.get(login)
        if known is not None and now - known[1] < within:
            verdicts[login] = known[0]
        else:
            owed.append(login)
    if owed:
        read = await in_read_thread(logins_read, owed)
        for login, holds in read.items():
            _keep(login, holds, now)
            verdicts[login] = holds
    return verdicts


#: Per event loop, the logins of its open sockets (a count each) and the task refreshing them.
_open: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Counter[Login]] = (
    weakref.WeakKeyDictionary()
)
_refreshing: set[asyncio.Task[None]] = set()


def login_opened(login: Login) -> None:
    """A socket of ``login`` opened on this loop: its verdict is kept fresh from now on."""
    loop = asyncio.get_running_loop()
    counts = _open.get(loop)
    if counts is None:
        counts = _open[loop] = Counter()
        if REFRESH_SECONDS is not None:
            task = loop.create_task(_refresh(loop, REFRESH_SECONDS))
            _refreshing.add(task)
            task.add_done_callback(_refreshing.discard)
    counts[login] += 1


def login_closed(login: Login) -> None:
    """A socket of ``login`` closed on this loop."""
    counts = _open.get(asyncio.get_running_loop())
    if counts is not None:
        counts[login] -= 1
        if counts[login] <= 0:
            del counts[login]


async def _refresh(loop: asyncio.AbstractEventLoop, every: float) -> None:
    """Read again, every ``every`` seconds, the verdicts of the loop's open sockets that are
    older than that, in one query; stop once no socket is open."""
    while True:
        await asyncio.sleep(every)
        counts = _open.get(loop)
        if not counts:
            _open.pop(loop, None)  # the next socket to open starts another
            return
        try:
            await logins_hold(list(counts), within=every)
        except Exception:  # a failed read is retried at the next round, or by the frame itself
            log.exception("the logins of the open sockets could not be read again")


def login_read(login: Login) -> bool:
    """Whether ``login`` holds now, read from the database."""
    return logins_read([login])[login]


def logins_read(logins: list[Login]) -> dict[Login, bool]:
    """Whether each login holds now: a token's in one query for them all (not revoked, not run
    out, its user active), a session's as a page would find it
    (accounts/login_sessions.py, ``session_logs_in``)."""
    verdicts: dict[Login, bool] = {}
    tokens = {token for login in logins if (token := login.token_id) is not None}
    if tokens:
        usable = tokens_usable(tokens, timezone.now())
        for login in logins:
            if login.token_id is not None:
                verdicts[login] = (login.token_id, login.user_id) in usable
    for login in logins:
        if login.token_id is None:
            key = login.session_key
            verdicts[login] = key is not None and session_logs_in(key, login.user_id)
    return verdicts
