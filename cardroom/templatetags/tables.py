"""Template tags naming tables for pages of the layers below (the cashier knows table ids only:
accounts sits below the cardroom and cannot ask for names itself)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template

from cardroom.models import Table

register = template.Library()


@register.simple_tag
def table_names(*rows: Iterable[Any]) -> dict[int, str]:
    """Each table id found on the rows' ``table_id`` with its name, in one query."""
    ids = {row.table_id for group in rows for row in group if row.table_id is not None}
    return dict(Table.objects.filter(pk__in=ids).values_list("pk", "name"))


@register.filter
def get_item(mapping: dict[Any, Any], key: Any) -> Any:
    return mapping.get(key)
