"""The bankroll, on every page."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from accounts.selectors import bankroll_balance


def bankroll(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"bankroll_cents": bankroll_balance(user=user)}
