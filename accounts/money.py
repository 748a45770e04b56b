"""Showing cents to people, without a float anywhere, in the active language's separators
(accounts/language.py); the rules' own English is games.money's."""

from __future__ import annotations

from accounts.language import money_text as format_cents

__all__ = ["format_cents"]
