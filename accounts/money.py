"""Showing cents to people, without a float anywhere (the one formatter is games.money's)."""

from __future__ import annotations

from games.money import dollars as format_cents

__all__ = ["format_cents"]
