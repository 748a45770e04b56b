"""Forms of the accounts pages."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from accounts.display_names import MAX_LENGTH, check_display_name, name_taken, reads_as
from accounts.models import User

#: The longest expiry a token may be given from the account page: ten years.
TOKEN_MAX_DAYS = 3650


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(
        required=False,
        label=gettext_lazy("E-mail (optional)"),
        help_text=gettext_lazy("Only for resetting a forgotten password."),
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")

    def clean_username(self) -> str:
        username: str = super().clean_username()
        # The username is the name others see until a display name is chosen.
        what = reads_as(username)
        if what == "card":
            raise ValidationError(
                _("That username could be taken for a card; choose another."), code="card"
            )
        if what == "seat":
            raise ValidationError(
                _("That username could be taken for a seat; choose another."), code="seat"
            )
        if what == "role":
            raise ValidationError(
                _("That username could be taken for the staff or the house; choose another."),
                code="role",
            )
        if User.objects.filter(display_name__iexact=username).exists():
            raise ValidationError(
                _("A player already uses that name; choose another."), code="taken"
            )
        return username


class LoginForm(AuthenticationForm):
    """Django's login form, which also says how many tries are left before the lockout."""

    def get_invalid_login_error(self) -> ValidationError:
        error = super().get_invalid_login_error()
        failures = getattr(self.request, "axes_failures_since_start", None)
        if not failures:
            return error
        left = settings.LOGIN_FAILURE_LIMIT - failures
        minutes = int(settings.LOGIN_COOL_OFF.total_seconds() // 60)
        if left <= 0:
            return error
        warning = ngettext(
            "One more wrong try and logging in stops for %(minutes)s minutes.",
            "%(count)s more wrong tries and logging in stops for %(minutes)s minutes.",
            left,
        ) % {"count": left, "minutes": minutes}
        # Two whole sentences: Django's own (already translated), then the warning.
        return ValidationError(f"{error.messages[0]} {warning}", code="invalid_login")


class ProfileForm(forms.ModelForm):  # type: ignore[type-arg]
    class Meta:
        model = User
        fields = ("display_name", "email")
        labels = {"display_name": gettext_lazy("Display name"), "email": gettext_lazy("E-mail")}
        help_texts = {
            "display_name": gettext_lazy(
                "What other players see; empty shows your username. 3 to 24 letters A to Z, "
                "digits, spaces, dots, dashes or underscores; it may not pass for a card, a "
                "seat or the staff."
            ),
            "email": gettext_lazy("Used only to reset a forgotten password."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["display_name"].widget.attrs.update(
            maxlength=MAX_LENGTH, autocomplete="nickname"
        )

    def clean_display_name(self) -> str:
        value: str = self.cleaned_data.get("display_name") or ""
        if not value.strip():
            return ""
        name = check_display_name(value)
        if name_taken(name, user_id=self.instance.pk):
            raise ValidationError(
                _("Someone already uses that name; choose another."), code="taken"
            )
        return name


class CodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Code"),
        max_length=20,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "inputmode": "text", "autofocus": True}
        ),
    )


class TokenForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=60,
        help_text=gettext_lazy("What the token is for, say “my bot”."),
    )
    expires_days = forms.IntegerField(
        label=gettext_lazy("Expires after (days)"),
        required=False,
        min_value=1,
        max_value=TOKEN_MAX_DAYS,
        help_text=gettext_lazy("Leave empty for a token that lasts until you revoke it."),
    )
