from typing import Any

from django import template
from django.template.base import FilterExpression, NodeList, Parser, Token
from django.template.context import Context

from accounts.money import counting_chips, format_cash, format_cents

register = template.Library()


@register.filter
def cents(value: int | None) -> str:
    """``{{ amount|cents }}``: 123456 → $1,234.56; inside ``counting_chips`` (a tournament's
    table being drawn) its chips: 1500 → 1,500."""
    return "" if value is None else format_cents(int(value))


@register.filter
def cents_unsigned(value: int | None) -> str:
    """``{{ amount|cents_unsigned }}``: the size of an amount, without its sign, for sentences
    that say the direction in words ("lost $5.00"): -500 → $5.00."""
    return "" if value is None else format_cents(abs(int(value)))


@register.filter
def cash(value: int | None) -> str:
    """``{{ amount|cash }}``: real money, even on a page that draws a tournament's chips (the
    bankroll in the header, a tournament's prizes): 123456 → $1,234.56."""
    return "" if value is None else format_cash(int(value))


class _CountingChipsNode(template.Node):
    def __init__(self, chips: FilterExpression, nodelist: NodeList) -> None:
        self.chips, self.nodelist = chips, nodelist

    def render(self, context: Context) -> Any:
        with counting_chips(bool(self.chips.resolve(context))):
            return self.nodelist.render(context)


@register.tag("counting_chips")
def counting_chips_tag(parser: Parser, token: Token) -> _CountingChipsNode:
    """``{% counting_chips row.table.plays_for_chips %}…{% endcounting_chips %}``: the amounts
    inside (``|cents``) are a tournament's chips when the value is true, money otherwise; for a
    page that lists tables of both kinds, such as the lobby (accounts/language.py)."""
    bits = token.split_contents()
    if len(bits) != 2:
        raise template.TemplateSyntaxError("counting_chips takes one value: whether chips")
    nodelist = parser.parse(("endcounting_chips",))
    parser.delete_first_token()
    return _CountingChipsNode(parser.compile_filter(bits[1]), nodelist)
