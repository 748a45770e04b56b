"""Exact figures as people read them: rounding to the cent, per cents, one decimal.

Rates and expectations are kept as :class:`~fractions.Fraction` until they are shown; amounts
are rounded to the nearest cent, halves away from zero, only then. Decimals are written with
the active language's separator ("66.7 %" in English, "66,7 %" in Spanish and Norwegian).
"""

from __future__ import annotations

from fractions import Fraction

from django.utils import formats

__all__ = ["one_decimal", "percent", "rounded_cents", "signed_hundredths"]


def rounded_cents(value: Fraction) -> int:
    """An exact amount to the nearest whole, halves away from zero.

    >>> rounded_cents(Fraction(-5, 2)), rounded_cents(Fraction(5, 2)), rounded_cents(Fraction(1, 3))
    (-3, 3, 0)
    """
    whole = (abs(value) + Fraction(1, 2)).__floor__()
    return whole if value >= 0 else -whole


def percent(part: int, whole: int) -> str:
    """``part`` of ``whole`` in per cent to one decimal, or a dash when there is no whole.

    >>> percent(1, 3), percent(2, 3), percent(0, 0)
    ('33.3 %', '66.7 %', '–')
    """
    if not whole:
        return "–"
    return f"{one_decimal(Fraction(part * 100, whole))} %"


def one_decimal(value: Fraction) -> str:
    """``value`` to one decimal.

    >>> one_decimal(Fraction(7, 3)), one_decimal(Fraction(0)), one_decimal(Fraction(-1, 20))
    ('2.3', '0.0', '-0.1')
    """
    tenths = rounded_cents(value * 10)
    sign = "-" if tenths < 0 else ""
    return f"{sign}{abs(tenths) // 10}{_point()}{abs(tenths) % 10}"


def signed_hundredths(value: Fraction) -> str:
    """``value`` to two decimals with its sign (a minus sign, not a hyphen).

    >>> [signed_hundredths(Fraction(n, 3)) for n in (-2, 0, 4)]
    ['−0.67', '0.00', '+1.33']
    """
    hundredths = rounded_cents(value * 100)
    sign = "+" if hundredths > 0 else "−" if hundredths < 0 else ""
    whole, part = divmod(abs(hundredths), 100)
    return f"{sign}{whole}{_point()}{part:02d}"


def _point() -> str:
    return str(formats.get_format("DECIMAL_SEPARATOR"))
