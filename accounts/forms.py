"""Forms of the accounts pages."""

from __future__ import annotations

from django.contrib.auth.forms import UserCreationForm

from accounts.models import User


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username",)
