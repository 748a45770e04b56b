"""Login throttling: repeated failures lock an account, or an address, for a while.

django-axes counts failed logins in the database, so every server process sees one count, and
refuses a login (even with the right password) once an account or, separately, an address has
failed ``settings.LOGIN_FAILURE_LIMIT`` times within ``settings.LOGIN_COOL_OFF``. This module
holds what axes is configured with (cardroom/settings.py names each): the client's address,
what a failure counts against, and the page that says in words what happened and until when.

Bearer tokens on the sockets are not a login form, but a guessed token is a guessed password:
:func:`bearer_failed` counts one against the client's address, and :func:`address_lockout`
tells the socket to refuse every bearer handshake from a locked address.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.handlers.proxy import AxesProxyHandler
from axes.models import AccessAttempt
from axes.utils import reset
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.db import connection
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.sql import bound

__all__ = [
    "BEARER",
    "Lockout",
    "LockoutBackend",
    "address_lockout",
    "bearer_failed",
    "client_address",
    "lockout_of",
    "lockout_parameters",
    "lockout_response",
    "lockouts_release",
]

#: The name a failed bearer token is recorded under in the admin's access attempts: it names
#: no account (no username may hold brackets or spaces), and is counted by address only.
BEARER = "(API token)"


class LockoutBackend(AxesStandaloneBackend):  # type: ignore[misc]
    """Axes' check before the password is tried. An ``authenticate()`` without a request (the
    test client's ``login()``, a shell) is no login from anyone: nothing to count or refuse, so
    the password backend alone decides. Every login page passes its request."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        super().authenticate(request, username, password, **kwargs)
        return None


def client_address(request: HttpRequest) -> str | None:
    """The client's address as the server saw it: never a header the client wrote.

    Behind nginx, daphne runs with ``--proxy-headers`` and takes the address from the
    ``X-Forwarded-For`` that nginx itself sets (deploy/nginx/cardroom.conf).
    """
    return request.META.get("REMOTE_ADDR") or None


def lockout_parameters(
    request_or_attempt: Any, credentials: dict[str, Any] | None = None
) -> list[str]:
    """A login counts against its username and, separately, its address; a bearer token, which
    names no account, against its address only."""
    username = (credentials or {}).get("username", getattr(request_or_attempt, "username", None))
    if getattr(request_or_attempt, "cardroom_bearer", False) or username == BEARER:
        return ["ip_address"]
    return ["username", "ip_address"]


@dataclass(frozen=True)
class Lockout:
    """Why logins are refused, and until when."""

    by: str  # "account" or "address"
    until: datetime

    @property
    def message(self) -> str:
        at = self.until.astimezone(UTC).strftime("%H:%M")
        if self.by == "account":
            text = _(
                # Translators: %(at)s is a time of day such as 14:05.
                "Too many failed logins for this account. Try again after %(at)s UTC, or reset "
                "your password."
            )
        else:
            # Translators: %(at)s is a time of day such as 14:05.
            text = _("Too many failed logins from your address. Try again after %(at)s UTC.")
        return text % {"at": at}


def lockout_of(*, username: str | None, address: str | None) -> Lockout | None:
    """The lockout in force for this username or this address, the later one if both."""
    now = timezone.now()
    found = []
    for by, field, value in (("account", "username", username), ("address", "ip_address", address)):
        if by == "account" and not value:
            continue
        rows = (
            AccessAttempt.objects.filter(attempt_time__gte=now - settings.LOGIN_COOL_OFF)
            .filter(**{field: value})
            .order_by("-attempt_time")
            .values_list("attempt_time", "failures_since_start")
        )
        # The lock lasts while the failures still inside the cool-off add up to the limit: it
        # ends when the attempt that reached the limit, counting back from the newest, ages out.
        total = 0
        for attempt_time, failures in rows:
            total += failures
            if total >= settings.LOGIN_FAILURE_LIMIT:
                found.append(Lockout(by=by, until=attempt_time + settings.LOGIN_COOL_OFF))
                break
    return max(found, key=lambda lockout: lockout.until, default=None)


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """The page a locked-out login gets instead of the form (axes' ``AXES_LOCKOUT_CALLABLE``).

    The username is read from the request: axes' asynchronous middleware passes its arguments
    shifted by one, so ``credentials`` cannot be trusted to be the credentials.
    """
    stored = getattr(request, "axes_credentials", None)
    username = (stored or {}).get("username") or request.POST.get("username") or None
    lockout = lockout_of(username=username, address=client_address(request))
    message = (
        lockout.message
        if lockout
        else _("Too many failed logins. Try again in a few minutes, or reset your password.")
    )
    return render(request, "registration/locked_out.html", {"message": message}, status=429)


def _socket_request(*, address: str | None, user_agent: str, path: str) -> HttpRequest:
    """What axes reads of a request, for a socket's handshake (which has no HttpRequest)."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = path
    request.META = {
        "REMOTE_ADDR": address or "",
        "HTTP_USER_AGENT": user_agent or "<unknown>",
        "PATH_INFO": path,
    }
    request.cardroom_bearer = True  # type: ignore[attr-defined]
    return request


def address_lockout(*, address: str | None, user_agent: str = "", path: str = "") -> Lockout | None:
    """The lockout of this address if bearer handshakes from it must be refused, else None."""
    if not getattr(settings, "AXES_ENABLED", True):
        return None
    if address is not None and _nothing_failed_from(address):
        return None  # axes would count no failure, so refuse nothing
    request = _socket_request(address=address, user_agent=user_agent, path=path)
    if AxesProxyHandler.is_allowed(request, {"username": BEARER}):
        return None
    return lockout_of(username=None, address=address) or Lockout(
        by="address", until=timezone.now() + settings.LOGIN_COOL_OFF
    )


def _nothing_failed_from(address: str) -> bool:
    """No failed login recorded from ``address`` within the cool-off (and no address is barred
    by a list): every socket's handshake asks, and almost always the answer is this, which one
    prepared statement gives for a fraction of axes' own aggregate query through the ORM."""
    if getattr(settings, "AXES_IP_BLACKLIST", None):
        return False
    table = AccessAttempt._meta.db_table
    quote = connection.ops.quote_name
    sql = (
        f"SELECT 1 FROM {quote(table)} WHERE {quote('ip_address')} = %s"
        f" AND {quote('attempt_time')} >= %s LIMIT 1"
    )
    with bound.cursor() as cursor:
        cursor.execute(sql, [address, timezone.now() - settings.LOGIN_COOL_OFF])
        return cursor.fetchone() is None


def bearer_failed(*, address: str | None, user_agent: str = "", path: str = "") -> None:
    """Count a bearer token that matched nothing usable as a failed login from ``address``."""
    request = _socket_request(address=address, user_agent=user_agent, path=path)
    user_login_failed.send(sender=__name__, credentials={"username": BEARER}, request=request)


def lockouts_release(*, username: str) -> int:
    """Forget the failed logins of ``username`` (the account's lock, and what those failures
    added to their addresses' counts); how many records went."""
    released: int = reset(username=username)
    return released
