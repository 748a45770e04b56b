"""Amounts as players read them: dollars and cents, from integer cents, never a float.

The rules speak to players in their refusals ("the least you may sit down with is $1.00"), so
the formatting lives here at the bottom of the layers; the site shows money the same way.
"""

from __future__ import annotations

__all__ = ["dollars"]


def dollars(cents: int) -> str:
    """Dollars and cents with thousands separators.

    >>> dollars(123456), dollars(-5), dollars(0)
    ('$1,234.56', '-$0.05', '$0.00')
    """
    sign = "-" if cents < 0 else ""
    whole, rest = divmod(abs(cents), 100)
    return f"{sign}${whole:,}.{rest:02d}"
