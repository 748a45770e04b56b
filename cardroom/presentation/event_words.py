"""A hand's events in words, for the hand history page (the JSON stays for programs).

Generic on purpose: every game's events are frozen records with a ``type`` and named fields, so
one reader serves them all: seats become names, cents become money, card lists stay as text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from accounts.money import format_cents

__all__ = ["event_words"]

#: Fields that hold cents.
MONEY_FIELDS = frozenset(
    {"amount", "pot", "rake", "stack", "owed", "paid", "stake", "net", "returned", "ante",
     "pair_plus", "fee", "match", "house"}
)  # fmt: skip
#: Fields that hold a seat number.
SEAT_FIELDS = frozenset({"seat", "payer", "winner", "button"})


def _value(name: str, value: Any, names: Mapping[int, str]) -> str:
    if name in SEAT_FIELDS and isinstance(value, int):
        return names.get(value, f"seat {value}")
    if name in MONEY_FIELDS and isinstance(value, int) and not isinstance(value, bool):
        return format_cents(value)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return " ".join(value) if value else "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, dict)):
        return _compact(value, names)
    return str(value)


def _compact(value: Any, names: Mapping[int, str]) -> str:
    if isinstance(value, dict):
        return ", ".join(f"{key} {_value(str(key), item, names)}" for key, item in value.items())
    return "; ".join(_compact(item, names) if isinstance(item, (list, dict)) else str(item)
                     for item in value)  # fmt: skip


def event_words(data: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """``{"type": "ante_posted", "seat": 0, "amount": 100}`` → "Ante posted: ann, amount $1.00".

    >>> event_words({"type": "pot_won", "seat": 1, "amount": 291}, {1: "ben"})
    'Pot won: ben, amount $2.91'
    >>> event_words({"type": "cards_dealt", "seat": 0, "cards": ["As", "Kd"]}, {})
    'Cards dealt: seat 0, As Kd'
    """
    kind = str(data.get("type", "event")).replace("_", " ").capitalize()
    details = []
    for name, value in data.items():
        if name == "type":
            continue
        text = _value(name, value, names)
        # A seat, cards or a choice speak for themselves; anything else is named.
        bare = name in SEAT_FIELDS or name in ("cards", "choice", "hand", "description")
        details.append(text if bare else f"{name.replace('_', ' ')} {text}")
    return f"{kind}: {', '.join(details)}" if details else kind
