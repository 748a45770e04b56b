"""The account page: the display name and e-mail, the password, two-factor, the sessions that
are logged in, and the API tokens; with the forms that change each."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django_otp.plugins.otp_static.models import StaticToken

from accounts.api_tokens import token_store
from accounts.forms import CodeForm, ProfileForm, TokenForm
from accounts.login_sessions import RECORD_KEY, session_end, sessions_active
from accounts.models import User
from accounts.two_factor import is_staff_role, two_factor_enabled


def _page(request: HttpRequest, status: int = 200, **forms: Any) -> HttpResponse:
    user: User = request.user  # type: ignore[assignment]
    store = token_store()
    now = timezone.now()
    context = {
        "profile_form": forms.get("profile_form") or ProfileForm(instance=user),
        "token_form": forms.get("token_form") or TokenForm(),
        "code_form": CodeForm(),
        "new_token": forms.get("new_token"),
        "two_factor": two_factor_enabled(user),
        "two_factor_required": is_staff_role(user),
        "recovery_left": StaticToken.objects.filter(device__user=user).count(),
        "sessions": sessions_active(user, current_id=request.session.get(RECORD_KEY)),
        "tokens": (
            [(row, row.status(now)) for row in store.tokens_of(user)] if store is not None else None
        ),
    }
    return render(request, "accounts/account.html", context, status=status)


@login_required
def account(request: HttpRequest) -> HttpResponse:
    return _page(request)


@login_required
@require_POST
def profile(request: HttpRequest) -> HttpResponse:
    """Save the display name and e-mail."""
    # A fresh copy: a refused form must not leave its values on the page's user.
    user = User.objects.get(pk=request.user.pk or 0)
    form = ProfileForm(request.POST, instance=user)
    if not form.is_valid():
        return _page(request, status=400, profile_form=form)
    form.save()
    messages.success(request, _("Saved."))
    return redirect("account")


@login_required
@require_POST
def session_end_view(request: HttpRequest, session_id: int) -> HttpResponse:
    """End one logged-in session; ending this one logs out here."""
    current = request.session.get(RECORD_KEY) == session_id
    if not session_end(request, session_id):
        raise Http404(_("No such session."))
    if current:
        messages.success(request, _("You are logged out."))
        return redirect("login")
    messages.success(request, _("That session is logged out."))
    return redirect("account")


@login_required
@require_POST
def token_new(request: HttpRequest) -> HttpResponse:
    """A new API token, shown on the page this once."""
    store = token_store()
    if store is None:
        raise Http404(_("No API tokens here."))
    form = TokenForm(request.POST)
    if not form.is_valid():
        return _page(request, status=400, token_form=form)
    days = form.cleaned_data["expires_days"]
    expires = timezone.now() + timedelta(days=days) if days else None
    token = store.token_issue(
        request.user,  # type: ignore[arg-type]
        name=form.cleaned_data["name"],
        expires=expires,
    )
    # Answered with the page itself, not a redirect: the token is never stored in the clear,
    # not even for the next request.
    return _page(request, new_token={"token": token, "name": form.cleaned_data["name"]})


@login_required
@require_POST
def token_revoke(request: HttpRequest, token_id: int) -> HttpResponse:
    """Revoke a token: it logs in no more, and its open sockets are closed."""
    store = token_store()
    if store is None or not store.token_revoke(request.user, token_id):  # type: ignore[arg-type]
        raise Http404(_("No such token."))
    messages.success(request, _("The token is revoked; programs using it are disconnected."))
    return redirect("account")
