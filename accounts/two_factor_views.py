"""The two-factor pages: set up an authenticator app, give a code after logging in, get new
recovery codes, turn two-factor off (accounts/two_factor.py has the rules)."""

from __future__ import annotations

from base64 import b32encode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST
from django_otp import login as otp_login
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken

from accounts.forms import CodeForm
from accounts.models import User
from accounts.two_factor import (
    code_verify,
    is_staff_role,
    qr_svg,
    recovery_codes_renew,
    setup_confirm,
    setup_device,
    two_factor_disable,
    two_factor_enabled,
)


def _next(request: HttpRequest, default: str) -> str:
    """Where to go afterwards: the ``next`` asked for, if it is on this site."""
    wanted = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(
        wanted, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return wanted
    return default


@login_required
def setup(request: HttpRequest) -> HttpResponse:
    """Show the app's key (a QR code and the key in letters), then confirm it with a code."""
    user: User = request.user  # type: ignore[assignment]
    if two_factor_enabled(user):
        messages.info(request, _("Two-factor authentication is already on."))
        return redirect("account")
    device = setup_device(user)
    form = CodeForm(request.POST or None)
    next_url = _next(request, "")
    if request.method == "POST" and form.is_valid():
        codes = setup_confirm(request, device, form.cleaned_data["code"])
        if codes is not None:
            return _codes_page(request, codes, first=True, next_url=next_url)
        form.add_error(
            "code",
            _("That code did not work: check the app shows “Cardroom” and try its newest code."),
        )
    key = b32encode(device.bin_key).decode()
    return render(
        request,
        "accounts/two_factor_setup.html",
        {
            "form": form,
            "uri": device.config_url,
            "qr": qr_svg(device.config_url),
            "key_groups": [key[i : i + 4] for i in range(0, len(key), 4)],
            "required": is_staff_role(user),
            "next": next_url,
        },
        status=400 if request.method == "POST" else 200,
    )


def _codes_page(
    request: HttpRequest, codes: list[str], *, first: bool, next_url: str
) -> HttpResponse:
    # Rendered in answer to the POST that made them and never stored in the clear elsewhere:
    # the only time they are shown.
    return render(
        request,
        "accounts/two_factor_codes.html",
        {"codes": codes, "first": first, "next": next_url},
    )


@login_required
def verify(request: HttpRequest) -> HttpResponse:
    """After the password: a code from the app, or a recovery code."""
    user: User = request.user  # type: ignore[assignment]
    done = _next(request, settings.LOGIN_REDIRECT_URL)
    if not two_factor_enabled(user) or user.is_verified():  # type: ignore[attr-defined]
        return redirect(done)
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        device, reason = code_verify(user, form.cleaned_data["code"])
        if device is not None:
            otp_login(request, device)
            if isinstance(device, StaticDevice):
                left = StaticToken.objects.filter(device=device).count()
                used = ngettext(
                    "You used a recovery code; %(count)s left. Make new ones on your account page.",
                    "You used a recovery code; %(count)s left. Make new ones on your account page.",
                    left,
                ) % {"count": left}
                messages.warning(request, used)
            return redirect(done)
        form.add_error("code", reason)
    return render(
        request,
        "accounts/two_factor_verify.html",
        {"form": form, "next": done},
        status=400 if request.method == "POST" else 200,
    )


@login_required
@require_POST
def codes(request: HttpRequest) -> HttpResponse:
    """New recovery codes (the old ones stop working). The middleware has made sure this
    session gave a code."""
    user: User = request.user  # type: ignore[assignment]
    if not two_factor_enabled(user):
        return redirect("account")
    return _codes_page(request, recovery_codes_renew(user), first=False, next_url="")


@login_required
@require_POST
def disable(request: HttpRequest) -> HttpResponse:
    """Two-factor off, with a code to prove the app (or a recovery code) is at hand."""
    user: User = request.user  # type: ignore[assignment]
    form = CodeForm(request.POST)
    device, reason = code_verify(user, form.cleaned_data["code"]) if form.is_valid() else (None, "")
    if device is None:
        still = _("Two-factor is still on.")
        messages.error(request, f"{still} {reason or _('Enter a code.')}")
        return redirect("account")
    two_factor_disable(user)
    off = _("Two-factor authentication is off.")
    if is_staff_role(user):
        again = _("The operator console and the admin will ask you to set it up again.")
        off = f"{off} {again}"
    messages.success(request, off)
    return redirect("account")
