"""The day a command line names, as the management commands read it."""

from __future__ import annotations

from datetime import date

from django.core.management.base import CommandError


def command_day(text: str) -> date:
    """``YYYY-MM-DD`` as a date; CommandError in words for anything else."""
    try:
        return date.fromisoformat(text)
    except ValueError as error:
        raise CommandError(
            f"{text!r} is not a date: write YYYY-MM-DD, such as 2025-01-31"
        ) from error
