"""Showing cents to people, without a float anywhere."""

from __future__ import annotations


def format_cents(cents: int) -> str:
    """Dollars and cents with thousands separators.

    >>> format_cents(123456), format_cents(-5), format_cents(0)
    ('$1,234.56', '-$0.05', '$0.00')
    """
    sign = "-" if cents < 0 else ""
    dollars, rest = divmod(abs(cents), 100)
    return f"{sign}${dollars:,}.{rest:02d}"
