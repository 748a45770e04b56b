"""A player's API tokens on the account page, through the store the settings name.

The tokens belong to the table sockets (cardroom/realtime/auth.py), above accounts in the layers,
so accounts does not import them: ``settings.ACCOUNTS_API_TOKENS`` names an object that
implements :class:`TokenStore`, and the account page lists, makes and revokes tokens through
it. Without the setting the page has no token section.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Protocol

from django.conf import settings
from django.utils.module_loading import import_string

from accounts.models import User

__all__ = ["TokenRow", "TokenStore", "token_store"]


@dataclass(frozen=True)
class TokenRow:
    """One token as its owner sees it (never the token itself: only its digest is kept)."""

    id: int
    name: str
    created: datetime
    last_used: datetime | None
    expires: datetime | None
    revoked: datetime | None

    def status(self, now: datetime) -> str:
        if self.revoked is not None:
            return "revoked"
        if self.expires is not None and self.expires <= now:
            return "expired"
        return "active"


class TokenStore(Protocol):
    def tokens_of(self, user: User) -> list[TokenRow]: ...

    def token_issue(self, user: User, *, name: str, expires: datetime | None) -> str: ...

    def token_revoke(self, user: User, token_id: int) -> bool: ...


def token_store() -> TokenStore | None:
    path = getattr(settings, "ACCOUNTS_API_TOKENS", "")
    return import_string(path) if path else None
