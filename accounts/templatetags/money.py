from django import template

from accounts.money import format_cents

register = template.Library()


@register.filter
def cents(value: int | None) -> str:
    """``{{ amount|cents }}``: 123456 → $1,234.56."""
    return "" if value is None else format_cents(int(value))
