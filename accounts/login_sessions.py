"""Login sessions: each browser a user is logged in on, for the account page to list and end.

A session is recorded when its user logs in (``user_logged_in``), and
:class:`LoginSessionMiddleware` notes when it was last seen, at most once a minute (the time
of the last note is kept in the session itself, so most requests write nothing), and follows
its key when Django renews it (a password change does). Ending a session deletes its Django
session, so its cookie no longer logs anyone in; logging out ends it too.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, logout
from django.contrib.sessions.backends.base import SessionBase
from django.http import HttpRequest, HttpResponse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.utils.translation import gettext as _

from accounts.lockouts import client_address
from accounts.models import LoginSession, User
from accounts.two_factor import session_passes

__all__ = [
    "LoginSessionMiddleware",
    "SessionRow",
    "connect",
    "device_words",
    "session_end",
    "session_logs_in",
    "sessions_active",
    "sessions_end_others",
]

#: Where a session keeps the id of its record, when it last noted the time, and its key then.
RECORD_KEY = "_login_session_id"
SEEN_KEY = "_login_session_seen"
KEY_KEY = "_login_session_key"
SEEN_EVERY_SECONDS = 60


def _store(session_key: str | None = None) -> SessionBase:
    store: SessionBase = import_module(settings.SESSION_ENGINE).SessionStore(session_key)
    return store


def _record(request: HttpRequest, user: User) -> LoginSession:
    session = request.session
    if session.session_key is None:
        session.save()
    now = timezone.now()
    record = LoginSession.objects.create(
        user=user,
        session_key=session.session_key or "",
        last_seen=now,
        ip_address=client_address(request),
        user_agent=request.META.get("HTTP_USER_AGENT", "")[:300],
    )
    session[RECORD_KEY] = record.pk
    session[SEEN_KEY] = now.timestamp()
    session[KEY_KEY] = session.session_key
    return record


def _logged_in(sender: Any, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    if request is not None and hasattr(request, "session"):
        _record(request, user)


def _logged_out(sender: Any, request: HttpRequest | None, user: User | None, **kwargs: Any) -> None:
    if request is None or user is None or not hasattr(request, "session"):
        return
    record_id = request.session.get(RECORD_KEY)
    if record_id is not None:
        LoginSession.objects.filter(pk=record_id, ended=None).update(ended=timezone.now())


def connect() -> None:
    """Called once from the app's ``ready``."""
    from django.contrib.auth.signals import user_logged_in, user_logged_out

    user_logged_in.connect(_logged_in, dispatch_uid="accounts.login_sessions.in")
    user_logged_out.connect(_logged_out, dispatch_uid="accounts.login_sessions.out")


class LoginSessionMiddleware:
    """Notes when each logged-in session was last seen, and follows a renewed session key."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        # After the view: a password change renews the key in the view, and a logout empties
        # the session (nothing to note then).
        session = getattr(request, "session", None)
        user = getattr(request, "user", None)
        if session is None or user is None or SESSION_KEY not in session:
            return response
        if not user.is_authenticated:
            return response
        record_id = session.get(RECORD_KEY)
        if record_id is None:
            # A session from before sessions were recorded, or made without a login.
            _record(request, user)
            return response
        now = time.time()
        if now - session.get(SEEN_KEY, 0) >= SEEN_EVERY_SECONDS or (
            session.get(KEY_KEY) != session.session_key
        ):
            LoginSession.objects.filter(pk=record_id).update(
                last_seen=timezone.now(), session_key=session.session_key or ""
            )
            session[SEEN_KEY] = now
            session[KEY_KEY] = session.session_key
        return response


@dataclass(frozen=True)
class SessionRow:
    """A logged-in session as the account page shows it."""

    id: int
    created: datetime
    last_seen: datetime
    ip_address: str | None
    user_agent: str
    current: bool

    @property
    def device(self) -> str:
        return device_words(self.user_agent)


#: Browsers and systems by a word of their user agent, the first found naming it; order matters
#: (Edge and Opera also say Chrome, Chrome also says Safari, Android also says Linux).
_BROWSERS = (("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"),
             ("Safari/", "Safari"))  # fmt: skip
_SYSTEMS = (("Android", "Android"), ("iPhone", "iOS"), ("iPad", "iPadOS"), ("Windows", "Windows"),
            ("Mac OS X", "macOS"), ("CrOS", "ChromeOS"), ("Linux", "Linux"))  # fmt: skip


def device_words(user_agent: str) -> str:
    """A browser's user agent in a few words: ``Firefox on Windows``.

    >>> device_words("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/120 Safari/537")
    'Chrome on Linux'
    >>> device_words("my-bot/1.0")
    'my-bot/1.0'
    """
    browser = next((name for word, name in _BROWSERS if word in user_agent), None)
    system = next((name for word, name in _SYSTEMS if word in user_agent), None)
    if browser and system:
        # Translators: a browser on a system, such as "Firefox on Windows".
        return _("%(browser)s on %(system)s") % {"browser": browser, "system": system}
    return browser or system or (user_agent[:60] or _("an unknown browser"))


def _names(store: SessionBase, user: User) -> bool:
    """The session exists, has not expired, is ``user``'s, and was made with the user's current
    password (or under a fallback secret key, as Django's own login check allows)."""
    if str(store.get(SESSION_KEY)) != str(user.pk):  # an ended or expired session reads empty
        return False
    given = store.get(HASH_SESSION_KEY) or ""
    return bool(given) and (
        constant_time_compare(given, user.get_session_auth_hash())
        or any(constant_time_compare(given, old) for old in user.get_session_auth_fallback_hash())
    )


def _alive(record: LoginSession, user: User) -> bool:
    """The session still logs its user in (``_names``)."""
    return _names(_store(record.session_key), user)


def session_logs_in(session_key: str, user_id: int) -> bool:
    """Whether the session with this key still logs in ``user_id``, as a page would find it:
    the session exists and has not expired (logging out, ending it on the account page, a
    password change or reset delete it), it is that user's and made with their current
    password, the user is active, and it has given its two-factor code if the user has one
    (the table sockets ask this of their session on each frame: cardroom/realtime/logins.py)."""
    user = User.objects.filter(pk=user_id, is_active=True).first()
    if user is None:
        return False
    store = _store(session_key)  # read once, at its first ``get``
    return _names(store, user) and session_passes(user, store)


def sessions_active(user: User, *, current_id: int | None) -> list[SessionRow]:
    """The user's sessions that still log in, most recently seen first; those that no longer
    do (expired, or from before a password change) are marked ended on the way."""
    rows = []
    gone = []
    for record in LoginSession.objects.filter(user=user, ended=None).order_by("-last_seen"):
        if record.pk != current_id and not _alive(record, user):
            gone.append(record.pk)
            continue
        rows.append(
            SessionRow(
                id=record.pk,
                created=record.created,
                last_seen=record.last_seen,
                ip_address=record.ip_address,
                user_agent=record.user_agent,
                current=record.pk == current_id,
            )
        )
    if gone:
        LoginSession.objects.filter(pk__in=gone).update(ended=timezone.now())
    return rows


def session_end(request: HttpRequest, session_id: int) -> bool:
    """End one of the requesting user's sessions (this one logs out); False if none such."""
    user: User = request.user  # type: ignore[assignment]
    record = LoginSession.objects.filter(pk=session_id, user=user, ended=None).first()
    if record is None:
        return False
    if record.pk == request.session.get(RECORD_KEY):
        logout(request)
        return True
    _store().delete(record.session_key)
    LoginSession.objects.filter(pk=record.pk).update(ended=timezone.now())
    return True


def sessions_end_others(user: User, *, keep_id: int | None = None) -> int:
    """End every session of the user but ``keep_id`` (after a password change or reset)."""
    records = LoginSession.objects.filter(user=user, ended=None)
    if keep_id is not None:
        records = records.exclude(pk=keep_id)
    ended = 0
    for record in records:
        _store().delete(record.session_key)
        ended += 1
    records.update(ended=timezone.now())
    return ended
