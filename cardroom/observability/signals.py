"""Logins and lockouts counted from the signals Django and django-axes already send."""

from __future__ import annotations

from typing import Any

from axes.signals import user_locked_out
from django.contrib.auth.signals import user_logged_in, user_login_failed

from cardroom.observability.metrics import LOCKOUTS, LOGINS

__all__ = ["connect"]


def _succeeded(sender: Any, **kwargs: Any) -> None:
    LOGINS.labels(result="succeeded").inc()


def _failed(sender: Any, **kwargs: Any) -> None:
    LOGINS.labels(result="failed").inc()


def _locked_out(sender: Any, **kwargs: Any) -> None:
    LOCKOUTS.inc()


def connect() -> None:
    """Count every login, failed login and lockout of this process (called once, at start)."""
    user_logged_in.connect(_succeeded, dispatch_uid="cardroom.observability.logins.in")
    user_login_failed.connect(_failed, dispatch_uid="cardroom.observability.logins.failed")
    user_locked_out.connect(_locked_out, dispatch_uid="cardroom.observability.lockouts")
