"""Two-factor authentication: an authenticator app (TOTP) with recovery codes, via django-otp.

Staff (``is_staff``, superusers, and the Operators and Auditors groups) must have it before the
operator console or the admin opens; any player may turn it on for themselves. Once a user has
it, every page of a logged-in session asks for a code first (:class:`TwoFactorMiddleware`,
after django-otp's ``OTPMiddleware``, which marks the session verified), and the table sockets
refuse a session that has not given one (:func:`session_passes`). Recovery codes are
django-otp's static tokens: ten, shown once, each good for one login.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlencode

import qrcode
import qrcode.image.svg
from django.contrib.sessions.backends.base import SessionBase
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.translation import gettext as _
from django_otp import DEVICE_ID_SESSION_KEY
from django_otp import login as otp_login
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import User

__all__ = [
    "RECOVERY_CODES",
    "STAFF_GROUPS",
    "TwoFactorMiddleware",
    "code_verify",
    "is_staff_role",
    "qr_svg",
    "recovery_codes_renew",
    "session_passes",
    "setup_confirm",
    "setup_device",
    "two_factor_disable",
    "two_factor_enabled",
]

#: The roles (cardroom/audit/roles.py) whose members must use a second factor, besides staff.
STAFF_GROUPS = ("Operators", "Auditors")
RECOVERY_CODES = 10
APP_NAME = "Authenticator app"
CODES_NAME = "Recovery codes"


def is_staff_role(user: User) -> bool:
    """Staff, a superuser, or in a staff role: the people the second factor is required of."""
    if user.is_staff or user.is_superuser:
        return True
    in_role: bool = user.groups.filter(name__in=STAFF_GROUPS).exists()
    return in_role


def two_factor_enabled(user: User) -> bool:
    """The user has a confirmed authenticator app."""
    enabled: bool = TOTPDevice.objects.filter(user=user, confirmed=True).exists()
    return enabled


def session_passes(user: User, session: SessionBase) -> bool:
    """A session may act for its user, unless the user has two-factor on and this session has
    not given a code yet (the sockets' check; pages have the middleware)."""
    if not two_factor_enabled(user):
        return True
    persistent_id = session.get(DEVICE_ID_SESSION_KEY)
    device = Device.from_persistent_id(persistent_id) if persistent_id else None
    return device is not None and device.user_id == user.pk and device.confirmed


def setup_device(user: User) -> TOTPDevice:
    """The authenticator being set up: the same key on every visit until it is confirmed."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("-pk").first()
    return device or TOTPDevice.objects.create(user=user, name=APP_NAME, confirmed=False)


def _clean(code: str) -> str:
    return "".join(code.split()).replace("-", "").lower()


@transaction.atomic
def setup_confirm(request: HttpRequest, device: TOTPDevice, code: str) -> list[str] | None:
    """Confirm the app with a code from it: two-factor is on, this session is verified, and
    the new recovery codes are returned (to be shown once). None if the code is wrong."""
    device = TOTPDevice.objects.select_for_update().get(pk=device.pk)
    if not device.verify_token(_clean(code)):
        return None
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    TOTPDevice.objects.filter(user=device.user).exclude(pk=device.pk).delete()
    codes = recovery_codes_renew(device.user)
    otp_login(request, device)
    return codes


@transaction.atomic
def recovery_codes_renew(user: User) -> list[str]:
    """Ten new recovery codes; the old ones stop working. Stored as django-otp keeps them."""
    # One set of codes, on the device that may have verified this session (deleting it would
    # undo that); another, say from `addstatictoken`, goes.
    device = StaticDevice.objects.filter(user=user).order_by("pk").first()
    if device is None:
        device = StaticDevice.objects.create(user=user, name=CODES_NAME, confirmed=True)
    StaticDevice.objects.filter(user=user).exclude(pk=device.pk).delete()
    device.token_set.all().delete()
    tokens = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=token) for token in tokens)
    return [f"{token[:4]}-{token[4:]}" for token in tokens]


def code_verify(user: User, code: str) -> tuple[Device | None, str]:
    """The device that accepts ``code`` (the app's six digits, or a recovery code, which is
    then used up), or None with the reason in words."""
    cleaned = _clean(code)
    if not cleaned:
        return None, _("Enter the code from your authenticator app, or a recovery code.")
    # The app's codes are six digits; a recovery code is eight letters and digits.
    app_code = len(cleaned) == 6 and cleaned.isdigit()
    model: type[Device] = TOTPDevice if app_code else StaticDevice
    with transaction.atomic():
        devices = model.objects.filter(user=user, confirmed=True).select_for_update()
        for device in devices:
            allowed, data = device.verify_is_allowed()
            if not allowed:
                wait = (data or {}).get("locked_until", timezone.now()) - timezone.now()
                seconds = max(1, int(wait.total_seconds()) + 1)
                wait_words = _("Too many wrong codes in a row: wait %(seconds)s s and try again.")
                return None, wait_words % {"seconds": seconds}
            if device.verify_token(cleaned):
                return device, ""
    return None, _("That code did not work. Codes change every 30 seconds; try the newest one.")


@transaction.atomic
def two_factor_disable(user: User) -> None:
    """Two-factor off: the app and the recovery codes are forgotten."""
    TOTPDevice.objects.filter(user=user).delete()
    StaticDevice.objects.filter(user=user).delete()


def qr_svg(uri: str) -> str:
    """The set-up key as a QR code, in SVG to place in the page."""
    image = qrcode.make(uri, image_factory=qrcode.image.svg.SvgPathImage, box_size=8)
    svg: str = image.to_string(encoding="unicode")
    label = escape(_("QR code of the set-up key"))
    return svg.replace("<svg ", f'<svg role="img" aria-label="{label}" ', 1)


def _url(name: str) -> str | None:
    try:
        return reverse(name)
    except NoReverseMatch:
        return None


class TwoFactorMiddleware:
    """Sends a logged-in user who owes a second factor to give it, or to set one up.

    A user with two-factor on must verify every session before any page but the two-factor
    pages and logging out; a staff user without it is sent to set it up before the operator
    console or the admin (their login page included) opens.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self._redirect(request) or self.get_response(request)

    def _redirect(self, request: HttpRequest) -> HttpResponse | None:
        user = request.user
        if not user.is_authenticated or user.is_verified():  # type: ignore[attr-defined]
            return None
        path = request.path_info
        # Only the pages that ask for a code, or set up a first app, open before a code is
        # given: new recovery codes, or turning two-factor off, need a verified session.
        exempt = {
            reverse("two-factor-verify"),
            reverse("two-factor-setup"),
            _url("logout"),
            _url("admin:logout"),
            "/favicon.ico",
        }
        if path in exempt:
            return None
        if two_factor_enabled(user):
            return _to("two-factor-verify", request)
        staff_pages = [prefix for prefix in (_url("operators"), _url("admin:index")) if prefix]
        if any(path.startswith(prefix) for prefix in staff_pages) and is_staff_role(user):
            return _to("two-factor-setup", request)
        return None


def _to(name: str, request: HttpRequest) -> HttpResponse:
    return HttpResponseRedirect(f"{reverse(name)}?{urlencode({'next': request.get_full_path()})}")
