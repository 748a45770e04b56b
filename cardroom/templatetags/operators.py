"""Template filters of the operators' pages."""

from __future__ import annotations

from django import template

from cardroom.models import OperatorAction
from cardroom.operators.log_words import action_words

register = template.Library()


@register.filter
def in_words(action: OperatorAction) -> str:
    """An operator action's details in words (cardroom/operators/log_words.py)."""
    return action_words(action)
