"""Template tags naming tables for pages of the layers below (the cashier knows table ids only:
accounts sits below the cardroom and cannot ask for names itself)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.formats import number_format
from django.utils.translation import ngettext

from cardroom.models import Game, Table
from cardroom.presentation.names import preset_name, table_preset_name

register = template.Library()


@register.simple_tag
def table_names(*rows: Iterable[Any]) -> dict[int, str]:
    """Each table id found on the rows' ``table_id`` with its name, in one query."""
    ids = {row.table_id for group in rows for row in group if row.table_id is not None}
    return dict(Table.objects.filter(pk__in=ids).values_list("pk", "name"))


@register.filter
def get_item(mapping: dict[Any, Any], key: Any) -> Any:
    return mapping.get(key)


@register.filter
def preset_words(preset: str) -> str:
    """A preset's name as people read it (cardroom/presentation/names.py)."""
    return preset_name(preset)


@register.filter
def table_preset_words(table: Table) -> str:
    """A table's preset as its pages name it, "" when not said: a tournament's table does not
    name a preset by a stake in money (cardroom/presentation/names.py)."""
    return table_preset_name(table.preset, plays_for_chips=table.plays_for_chips)


@register.filter
def tournament_preset_words(preset: str) -> str:
    """A sit-and-go's preset as its pages name it: "" for one named by a stake in money (a
    tournament's stake is its levels')."""
    return table_preset_name(preset, plays_for_chips=True)


@register.filter
def game_words(game: str) -> str:
    """A game's name: ``classic_guts`` → "Classic Guts"."""
    return str(Game(game).label) if game in Game.values else game


@register.filter
def chips(value: int | None) -> str:
    """``{{ stack|chips }}``: a tournament's chips, which are not money: 1500 → "1,500 chips"."""
    if value is None:
        return ""
    count = int(value)
    # Translators: a number of tournament chips (not money), "1,500 chips".
    text = ngettext("%(count)s chip", "%(count)s chips", count)
    return text % {"count": number_format(count, force_grouping=True)}
