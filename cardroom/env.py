"""Small typed readers for settings from the environment (as healthchecks' ``hc/settings.py``)."""

from __future__ import annotations

import os


def envbool(name: str, default: bool) -> bool:
    """``true``/``1``/``yes``/``on`` (any case) is true; unset gives ``default``."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def envint(name: str, default: int) -> int:
    """A whole number from the environment; a bad value stops start-up with its name."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError as error:
        raise ValueError(f"{name} must be a whole number, not {value!r}") from error


def envstr(name: str, default: str) -> str:
    """A string from the environment, or ``default`` when unset or empty."""
    return os.environ.get(name) or default
