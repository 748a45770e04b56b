"""Bearer tokens for programmatic WebSocket clients (``python manage.py api_token``)."""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from channels.db import database_sync_to_async

from accounts.models import User
from cardroom.models import ApiToken

__all__ = ["TokenAuthMiddleware", "token_create", "token_user"]


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_create(*, user: User) -> str:
    """A new token for ``user``; only its digest is kept, so it is shown once."""
    token = secrets.token_urlsafe(32)
    ApiToken.objects.create(user=user, digest=_digest(token))
    return token


def token_user(token: str) -> User | None:
    """The user a token belongs to, or None."""
    found = ApiToken.objects.select_related("user").filter(digest=_digest(token)).first()
    return found.user if found and found.user.is_active else None


class TokenAuthMiddleware:
    """Sets ``scope["user"]`` from ``Authorization: Bearer <token>`` when no session did."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        user = scope.get("user")
        if user is None or not user.is_authenticated:
            for name, value in scope.get("headers", []):
                if name == b"authorization":
                    scheme, _, token = value.decode("latin1").partition(" ")
                    if scheme.lower() == "bearer" and token:
                        found = await database_sync_to_async(token_user)(token.strip())
                        if found is not None:
                            scope = {**scope, "user": found}
        return await self.app(scope, receive, send)
