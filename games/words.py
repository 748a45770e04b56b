"""Sentences the rules say to players, kept translatable without Django.

The rules refuse actions in words ("the least you may sit down with is $1.00"). The games
package knows no language but English, so a sentence carries its template and its values: its
text is the English, and the site (accounts/language.py) says it again in the player's language
from the same template, which ``makemessages`` extracts by the keyword ``words``.

Values are formatted when the sentence is said: ``Money`` as the sayer's ``money`` formats it
(dollars, or a tournament's chips at its table: accounts/language.py), a nested ``Sentence`` in
the same language, anything else as text.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.money import dollars

__all__ = [
    "Money",
    "Sentence",
    "one_of",
    "say",
    "sentence_data",
    "sentence_from",
    "sentence_of",
    "words",
]


class Money(int):
    """Cents that a sentence shows as dollars ("$1.00" in English)."""

    __slots__ = ()


class Sentence(str):
    """English text that remembers the template and values it was made from."""

    template: str
    values: dict[str, Any]

    def __new__(cls, template: str, values: dict[str, Any]) -> Sentence:
        text = template.format(**{name: _english(value) for name, value in values.items()})
        sentence = super().__new__(cls, text)
        sentence.template = template
        sentence.values = values
        return sentence

    def __reduce__(self) -> tuple[Any, ...]:
        return (Sentence, (self.template, self.values))


def _english(value: Any) -> str:
    if isinstance(value, Money):
        return dollars(int(value))
    return str(value)


def words(template: str, /, **values: Any) -> Sentence:
    """A sentence from a ``str.format`` template with named fields (``{seat}``), never an
    f-string: the template itself is what translators see."""
    return Sentence(template, values)


def one_of(items: list[str]) -> str:
    """Alternatives as a sentence lists them ("'in' or 'out'"), the "or" in the reader's
    language: each pair is itself a sentence.

    >>> one_of(["'in'", "'out'", "'high'"])
    "'in' or 'out' or 'high'"
    """
    listed: str = items[0] if items else ""
    for item in items[1:]:
        # Translators: alternatives, "'in' or 'out'"; a third is joined to those two the same way
        listed = words("{first} or {second}", first=listed, second=item)
    return listed


def sentence_of(error: BaseException) -> str:
    """An exception's message, as the Sentence it was raised with when it was one
    (``str(error)`` keeps only the English)."""
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, Sentence) else str(error)


def say(text: str, translate: Callable[[str], str], money: Callable[[int], str] = dollars) -> str:
    """``text`` in another language: ``translate`` gives a template's translation, ``money``
    formats a ``Money`` value (cents as dollars; the site passes its own formatting, which
    says a tournament table's chips as chips). Plain text (not a Sentence) is translated as it
    is."""
    if not isinstance(text, Sentence):
        return translate(str(text))
    values = {}
    for name, value in text.values.items():
        if isinstance(value, Money):
            values[name] = money(int(value))
        elif isinstance(value, Sentence):
            values[name] = say(value, translate, money)
        else:
            values[name] = str(value)
    try:
        return translate(text.template).format(**values)
    except (KeyError, IndexError, ValueError):
        # A translation that names a field the template lacks: the English is still right,
        # with its values as ``money`` says them (a tournament's chips are not dollars).
        return text.template.format(**values)


def sentence_data(text: str) -> Any:
    """A sentence as plain data (JSON, msgpack), to be said on the other side of a process
    boundary: ``sentence_from`` gives it back, template, values, money and all.

    >>> back = sentence_from(sentence_data(words("{a} owes {b}", a="ann", b=Money(150))))
    >>> back, isinstance(back, Sentence), isinstance(back.values["b"], Money)
    ('ann owes $1.50', True, True)
    """
    if not isinstance(text, Sentence):
        return str(text)
    return {
        "template": text.template,
        "values": {k: _value_data(v) for k, v in text.values.items()},
    }


def _value_data(value: Any) -> Any:
    if isinstance(value, Money):
        return {"money": int(value)}
    if isinstance(value, Sentence):
        return {"sentence": sentence_data(value)}
    return value if isinstance(value, int | str) and not isinstance(value, bool) else str(value)


def sentence_from(data: Any) -> str:
    """The sentence ``sentence_data`` made ``data`` of (plain text stays text)."""
    if not isinstance(data, dict):
        return str(data)
    values = {name: _value_from(value) for name, value in data["values"].items()}
    return Sentence(data["template"], values)


def _value_from(value: Any) -> Any:
    if isinstance(value, dict) and "money" in value:
        return Money(value["money"])
    if isinstance(value, dict) and "sentence" in value:
        return sentence_from(value["sentence"])
    return value
