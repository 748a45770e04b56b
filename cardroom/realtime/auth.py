"""Who a table socket speaks for: bearer tokens for programs, and the checks on both logins.

A token (``python manage.py api_token``, or the account page) is shown once; only its SHA-256
is kept, with its name, its expiry, when it was last used and when it was revoked.
``TokenAuthMiddleware`` logs a socket in by its token when no session did. A token that
matches nothing usable (unknown, revoked, expired) counts as a failed login from the client's
address (accounts/lockouts.py), and while that address is locked out every bearer handshake is
refused with 4429. A session whose user has two-factor on but has not given a code this
session is no login here (4401), as it is no login on the pages (accounts/two_factor.py).

Revoking a token also closes the sockets open with it: each joins its token's channel group,
and a revocation sent to the group closes them with 4401. That message is the fast way, not the
only one: an open socket asks again whether its login holds before each frame it sends
(cardroom/realtime/logins.py), so a lost message, an ended session, a token that ran out and a
deactivated account are refused too. The handshake's read counts as the first such check
(``scope["login_read_at"]``).
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from asgiref.sync import async_to_sync
from channels.auth import AuthMiddleware, get_user
from channels.layers import get_channel_layer
from channels.sessions import CookieMiddleware, InstanceSessionWrapper, SessionMiddleware
from django.contrib.auth.models import AnonymousUser
from django.db import transaction
from django.utils import timezone

from accounts.api_tokens import TokenRow
from accounts.lockouts import address_lockout, bearer_failed
from accounts.models import User
from accounts.two_factor import session_passes
from cardroom.models import ApiToken
from cardroom.realtime import logins
from cardroom.realtime.threads import in_read_thread
from cardroom.realtime.token_stamps import stamp_soon
from cardroom.storage.rows import usable_token
from games.words import words

__all__ = [
    "API_TOKENS",
    "TokenAuthMiddleware",
    "token_create",
    "token_lookup",
    "token_revoke",
    "token_user",
]

#: ``last_used`` is written at most this often per token: a busy bot's reconnects cost no write.
LAST_USED_EVERY = timedelta(minutes=1)
#: Close codes and reasons of refused handshakes (docs/protocol.md, "Connecting"); the consumer
#: says a reason in the socket's language (at most 123 bytes, else the English).
NOT_LOGGED_IN = 4401
LOCKED_OUT = 4429
TWO_FACTOR_NEEDED = words("two-factor code needed: enter it on the site first")
REVOKED = words("token revoked")


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_group(token_id: int) -> str:
    """The channel group of the sockets open with one token."""
    return f"api-token-{token_id}"


def token_create(*, user: User, name: str = "", expires: datetime | None = None) -> str:
    """A new token for ``user``; only its digest is kept, so it is shown once."""
    token = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, digest=_digest(token), name=name, expires=expires)
    return token


def token_lookup(token: str, *, stamp: bool = True) -> ApiToken | None:
    """The token's record if it may be used now (not revoked, not expired), with its user;
    its ``last_used`` is stamped, in one UPDATE at most once a minute (``stamp``: now; else
    the caller stamps it: a socket's handshake with the others',
    cardroom/realtime/token_stamps.py)."""
    now = timezone.now()
    # Hand-written (the same row and instances as the ORM's): every API socket's handshake
    # reads it, and when a room opens the handshakes are most of the server's work.
    found = usable_token(_digest(token), now)
    if found is None:
        return None
    if stamp:
        token_stamp(found, now)
    return found


def stamp_owed(found: ApiToken, now: datetime) -> bool:
    """Whether the token's ``last_used`` is due for a stamp (at most once a minute)."""
    return found.last_used is None or now - found.last_used >= LAST_USED_EVERY


def token_stamp(found: ApiToken, now: datetime) -> None:
    """Stamp the token's ``last_used``, at most once a minute."""
    if stamp_owed(found, now):
        ApiToken.objects.filter(pk=found.pk).update(last_used=now)
        found.last_used = now


def token_user(token: str) -> User | None:
    """The active user a usable token belongs to, or None."""
    found = token_lookup(token)
    return found.user if found is not None and found.user.is_active else None


def token_revoke(*, user: User, token_id: int) -> bool:
    """Revoke one of ``user``'s tokens and close its open sockets; False if there is none
    such (or it was revoked already)."""
    with transaction.atomic():
        revoked = ApiToken.objects.filter(pk=token_id, user=user, revoked__isnull=True).update(
            revoked=timezone.now()
        )
        if revoked:
            transaction.on_commit(lambda: _close_sockets(token_id))
    return bool(revoked)


def _close_sockets(token_id: int) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(token_group(token_id), {"type": "token.revoked"})


class AccountTokens:
    """The account page's view of the tokens (accounts/api_tokens.py, ``TokenStore``)."""

    #: The page lists this many of the newest tokens, revoked ones included.
    LISTED = 50

    def tokens_of(self, user: User) -> list[TokenRow]:
        return [
            TokenRow(
                id=token.pk,
                name=token.name,
                created=token.created,
                last_used=token.last_used,
                expires=token.expires,
                revoked=token.revoked,
            )
            for token in ApiToken.objects.filter(user=user).order_by("-created", "-pk")[
                : self.LISTED
            ]
        ]

    def token_issue(self, user: User, *, name: str, expires: datetime | None) -> str:
        return token_create(user=user, name=name, expires=expires)

    def token_revoke(self, user: User, token_id: int) -> bool:
        return token_revoke(user=user, token_id=token_id)


API_TOKENS = AccountTokens()


def _bearer(scope: dict[str, Any]) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            scheme, _, token = str(value.decode("latin1")).partition(" ")
            if scheme.lower() == "bearer" and token.strip():
                return token.strip()
    return None


def _header(scope: dict[str, Any], wanted: bytes) -> str:
    for name, value in scope.get("headers", []):
        if name == wanted:
            return str(value.decode("latin1"))
    return ""


def _bearer_login(
    token: str, *, address: str | None, user_agent: str, path: str
) -> tuple[ApiToken | None, tuple[int, str] | None]:
    """The usable token, or None with the refusal to close with (None: plain 4401)."""
    lockout = address_lockout(address=address, user_agent=user_agent, path=path)
    if lockout is not None:
        at = lockout.until.astimezone(UTC).strftime("%H:%M")
        # Translators: {time} is a time of day in UTC, such as 14:05
        reason = words("too many failed logins from this address; try after {time} UTC", time=at)
        return None, (LOCKED_OUT, reason)
    found = token_lookup(token, stamp=False)  # stamped by the caller, where writes go
    if found is None:
        bearer_failed(address=address, user_agent=user_agent, path=path)
        return None, None
    if not found.user.is_active:
        return None, None
    return found, None


class SessionAuthMiddleware(AuthMiddleware):  # type: ignore[misc]
    """Channels' session login (``AuthMiddleware``), with the session read in the pool.

    Channels reads the session and its user in its one database thread, which on SQLite is
    also the thread every write goes through: when a room opened, each socket's handshake
    waited there behind the sits of the sockets before it. The look-up is a read.
    """

    async def resolve_scope(self, scope: dict[str, Any]) -> None:
        scope["login_read_at"] = logins.clock()  # the session is read from here on
        if scope["session"].session_key is None:
            # No session cookie: Channels' look-up would find no user without a query. A
            # program's socket (a bearer token) never has one, so its handshake makes no trip
            # to the pool for it.
            scope["user"]._wrapped = AnonymousUser()
            return
        # The two-factor check (``TokenAuthMiddleware``) in the same trip to the pool.
        user, passes = await in_read_thread(_session_login, scope)
        scope["user"]._wrapped = user
        scope["session_passes"] = passes


def _session_login(scope: dict[str, Any]) -> tuple[Any, bool]:
    """The session's user as Channels reads it, and whether the session may act for them
    (``session_passes``; True where there is no user)."""
    user = get_user.func(scope)
    return user, not user.is_authenticated or session_passes(user, scope["session"])


def session_and_token_auth(inner: Any) -> Any:
    """What ``AuthMiddlewareStack`` does (cookies, session, its user), with the session read
    in the pool, then the bearer tokens of the JSON protocol."""
    return CookieMiddleware(SocketSessions(SessionAuthMiddleware(TokenAuthMiddleware(inner))))


class SocketSessions(SessionMiddleware):  # type: ignore[misc]
    """Channels' ``SessionMiddleware`` for sockets: the session in the scope, as it puts it
    there, and the server's own ``send`` to the socket. Channels' wrapper of ``send`` saves a
    session and sets its cookie only with an ``http.response.start``, which a socket never
    sends, yet reads the session's state before every frame (docs/performance.md, "One send a
    batch"). The sockets only read their session: nothing here is left unsaved."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        wrapper = InstanceSessionWrapper(scope, send)
        await wrapper.resolve_session()
        return await self.inner(wrapper.scope, receive, send)


class TokenAuthMiddleware:
    """Sets ``scope["user"]`` from ``Authorization: Bearer <token>`` when no session did, and
    takes a session's user away when two-factor is owed. A refusal's code and reason go in
    ``scope["auth_refusal"]`` for the consumer to close with."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        user = scope.get("user")
        if user is not None and user.is_authenticated:
            # Off the one thread Channels keeps for database work: reads, mostly, and a
            # handshake must not queue behind the actions. Read with the session's user
            # (``SessionAuthMiddleware``) where that middleware read it.
            passes = scope.get("session_passes")
            if passes is None:
                passes = await in_read_thread(session_passes, user, scope["session"])
            if not passes:
                scope = {
                    **scope,
                    "user": AnonymousUser(),
                    "auth_refusal": (NOT_LOGGED_IN, TWO_FACTOR_NEEDED),
                }
            return await self.app(scope, receive, send)
        token = _bearer(scope)
        if token is None:
            return await self.app(scope, receive, send)
        client = scope.get("client")
        read_at = logins.clock()
        # A read, and at most one small write a minute (``last_used``): in the pool.
        found, refusal = await in_read_thread(
            _bearer_login,
            token,
            address=client[0] if client else None,
            user_agent=_header(scope, b"user-agent"),
            path=scope.get("path", ""),
        )
        if found is None:
            if refusal is not None:
                scope = {**scope, "auth_refusal": refusal}
            return await self.app(scope, receive, send)
        now = timezone.now()
        if stamp_owed(found, now):
            # Written a moment later with the other handshakes' stamps, in one statement
            # (cardroom/realtime/token_stamps.py); the handshake does not wait for it.
            stamp_soon(found.pk, now)
        # The consumer joins the token's group (token_group) on its own channel, so that a
        # revocation closes the socket with no second receive loop per socket.
        scope = {**scope, "user": found.user, "api_token_id": found.pk, "login_read_at": read_at}
        return await self.app(scope, receive, send)
