from django import template

from accounts.money import format_cents

register = template.Library()


@register.filter
def cents(value: int | None) -> str:
    """``{{ amount|cents }}``: 123456 → $1,234.56."""
    return "" if value is None else format_cents(int(value))


@register.filter
def cents_unsigned(value: int | None) -> str:
    """``{{ amount|cents_unsigned }}``: the size of an amount, without its sign, for sentences
    that say the direction in words ("lost $5.00"): -500 → $5.00."""
    return "" if value is None else format_cents(abs(int(value)))
