"""Cards named in a Guts script (:mod:`games.guts.script`, :mod:`games.guts.classic.script`).

A script writes a hand's cards as one text (``"Qs 4d"``). A place that takes a fixed number
of cards refuses any other number, saying what it expected, rather than play part of the text
or pad it from the deck; a list or a number is refused with the form a script expects. A hand
naming cards its table has no place for (a ghost hand at a table without one, ...) is refused
the same way.

>>> from games.cards import DECK
>>> [str(DECK[index]) for index in read_cards("Qs 4d", "hand 1", "ghost", 2, "...")]
['Qs', '4d']
>>> read_cards("Qs 4d Ah", "hand 1", "ghost", 2, "a kitty hand has 2 cards")
Traceback (most recent call last):
...
ValueError: hand 1: a kitty hand has 2 cards; got 3: Qs 4d Ah
>>> read_cards(["Qs", "4d"], "hand 1", "ghost")
Traceback (most recent call last):
...
ValueError: hand 1: ghost: write the cards as one text, such as "Qs 4d"; got a list
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.cards import CardError, parse_cards

__all__ = ["counted", "read_cards", "refuse_extras"]


def counted(count: int, noun: str = "card") -> str:
    """``count`` of ``noun``, in the plural when it is not one: ``counted(1)`` is "1 card"."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _form(value: Any) -> str:
    if isinstance(value, bool):
        return f"true or false: {str(value).lower()}"
    if isinstance(value, (int, float)):
        return f"a number: {value}"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "an object"
    return f"{type(value).__name__}"


def read_cards(
    value: Any, where: str, label: str, count: int | None = None, expected: str = ""
) -> list[int]:
    """The card indices written in ``value``, a script's text of cards.

    ``where`` (the hand) and ``label`` (the script's key) say where a bad value was found.
    With ``count``, any other number of cards is refused with ``expected``, the sentence that
    states the count ("a kitty hand has 2 cards"). Raises :class:`ValueError`.
    """
    if not isinstance(value, str):
        raise ValueError(
            f'{where}: {label}: write the cards as one text, such as "Qs 4d"; got {_form(value)}'
        )
    try:
        cards = parse_cards(value)
    except CardError as error:
        raise ValueError(f"{where}: {label}: {error}") from error
    if count is not None and len(cards) != count:
        shown = " ".join(str(card) for card in cards)
        raise ValueError(f"{where}: {expected}; got {len(cards)}: {shown}".rstrip(": "))
    return [card.index for card in cards]


def refuse_extras(
    hand: Mapping[str, Any], where: str, lacks: Mapping[str, str], preset: str
) -> None:
    """Refuse a hand naming a key in ``lacks`` (key: what the table lacks, "no ghost hand"),
    rather than play a hand without the cards it names."""
    for key, what in lacks.items():
        if key in hand and hand[key] not in (None, "", [], {}):
            raise ValueError(
                f"{where}: this table has {what}, so a hand names no {key!r} (preset {preset})"
            )
