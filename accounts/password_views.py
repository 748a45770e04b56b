"""Changing a password, and resetting a forgotten one by e-mail: Django's views, plus what a
new password means here. Every other session of the account ends (their cookies stop working),
and a reset also lifts the account's login lockout."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.http import HttpResponse
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.lockouts import lockouts_release
from accounts.login_sessions import RECORD_KEY, sessions_end_others


class PasswordChange(auth_views.PasswordChangeView):
    success_url = reverse_lazy("account")

    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        ended = sessions_end_others(form.user, keep_id=self.request.session.get(RECORD_KEY))
        changed = _("Your password was changed.")
        if ended:
            others = ngettext(
                "%(count)s other session was logged out.",
                "%(count)s other sessions were logged out.",
                ended,
            ) % {"count": ended}
            changed = f"{changed} {others}"
        messages.success(self.request, changed)
        return response


class PasswordResetConfirm(auth_views.PasswordResetConfirmView):
    def form_valid(self, form: Any) -> HttpResponse:
        response = super().form_valid(form)
        sessions_end_others(form.user)
        lockouts_release(username=form.user.get_username())
        return response
