"""Hands and stages in the reader's language, from the English the rules wrote.

The games name hands in English as they record them ("pair of nines, king kicker",
games/evaluators/values.py ``describe``) and a Classic Guts stage in English too ("deal 2,
stage 2 of 3: five cards, fives wild, high", games/guts/classic/stages.py ``describe_stage``).
Those words are stored in events and game views, so they stay English there; the pages read
them back here into their parts and say them again with gettext. A text of another shape (an
older record) is shown as it was. In English the text is returned untouched.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils import translation
from django.utils.translation import gettext, ngettext, pgettext, pgettext_lazy

__all__ = ["hand_name", "rank_plural", "stage_words"]

#: A rank as a hand's name says it ("ace-high", "king kicker").
RANK_NAMES = {
    "ace": pgettext_lazy("rank", "ace"),
    "two": pgettext_lazy("rank", "two"),
    "three": pgettext_lazy("rank", "three"),
    "four": pgettext_lazy("rank", "four"),
    "five": pgettext_lazy("rank", "five"),
    "six": pgettext_lazy("rank", "six"),
    "seven": pgettext_lazy("rank", "seven"),
    "eight": pgettext_lazy("rank", "eight"),
    "nine": pgettext_lazy("rank", "nine"),
    "ten": pgettext_lazy("rank", "ten"),
    "jack": pgettext_lazy("rank", "jack"),
    "queen": pgettext_lazy("rank", "queen"),
    "king": pgettext_lazy("rank", "king"),
}
#: Ranks counted ("pair of nines", "sixes wild").
RANK_PLURALS = {
    "aces": pgettext_lazy("ranks", "aces"),
    "twos": pgettext_lazy("ranks", "twos"),
    "threes": pgettext_lazy("ranks", "threes"),
    "fours": pgettext_lazy("ranks", "fours"),
    "fives": pgettext_lazy("ranks", "fives"),
    "sixes": pgettext_lazy("ranks", "sixes"),
    "sevens": pgettext_lazy("ranks", "sevens"),
    "eights": pgettext_lazy("ranks", "eights"),
    "nines": pgettext_lazy("ranks", "nines"),
    "tens": pgettext_lazy("ranks", "tens"),
    "jacks": pgettext_lazy("ranks", "jacks"),
    "queens": pgettext_lazy("ranks", "queens"),
    "kings": pgettext_lazy("ranks", "kings"),
}
#: A rank's letter or figure (``T``, ``9``) as its plural ("fives wild").
PLURAL_OF_RANK = {
    "2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes", "7": "sevens",
    "8": "eights", "9": "nines", "T": "tens", "J": "jacks", "Q": "queens", "K": "kings",
    "A": "aces",
}  # fmt: skip
SUIT_NAMES = {
    "clubs": pgettext_lazy("suit", "clubs"),
    "diamonds": pgettext_lazy("suit", "diamonds"),
    "hearts": pgettext_lazy("suit", "hearts"),
    "spades": pgettext_lazy("suit", "spades"),
}
#: How many cards a stage deals, as the rules write it.
COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}

_NAME = "|".join(RANK_NAMES)
_PLURAL = "|".join(RANK_PLURALS)
_SHORT = r"[2-9AKQJT]"
_RUN = rf"{_SHORT}(?:-{_SHORT})+"
_KICKERS = rf"(?:, (?P<kicker>{_NAME}) kicker|, (?P<kickers>{_RUN}) kickers)?"


def _english() -> bool:
    return (translation.get_language() or "en").split("-")[0] == "en"


def rank_plural(rank: str) -> str:
    """A rank's letter as counted, in the reader's language: ``5`` → "fives"."""
    plural = PLURAL_OF_RANK.get(rank)
    return str(RANK_PLURALS[plural]) if plural else rank


def _name(word: str) -> str:
    return str(RANK_NAMES.get(word, word))


def _plural(word: str) -> str:
    return str(RANK_PLURALS.get(word, word))


def _with_kickers(found: re.Match[str], text: str) -> str:
    if found["kicker"]:
        # Translators: a hand and its kicker, "pair of nines, king kicker".
        return gettext("%(hand)s, %(rank)s kicker") % {"hand": text, "rank": _name(found["kicker"])}
    if found["kickers"]:
        # Translators: a hand and its kickers' ranks, "pair of nines, K-8-4 kickers".
        return gettext("%(hand)s, %(ranks)s kickers") % {"hand": text, "ranks": found["kickers"]}
    return text


def _high(found: re.Match[str]) -> str:
    rank = _name(found["rank"])
    if found["run"]:
        # Translators: the best card of a hand of no pair, then its ranks: "ace-high (A-9-4)".
        return gettext("%(rank)s-high (%(ranks)s)") % {"rank": rank, "ranks": found["run"]}
    # Translators: a hand of no pair by its best card: "ace-high".
    return gettext("%(rank)s-high") % {"rank": rank}


def _pair(found: re.Match[str]) -> str:
    # Translators: "pair of nines".
    text = gettext("pair of %(ranks)s") % {"ranks": _plural(found["rank"])}
    return _with_kickers(found, text)


def _two_pair(found: re.Match[str]) -> str:
    # Translators: "two pair, kings and nines".
    text = gettext("two pair, %(high)s and %(low)s") % {
        "high": _plural(found["rank"]),
        "low": _plural(found["second"]),
    }
    return _with_kickers(found, text)


def _trips(found: re.Match[str]) -> str:
    # Translators: three of a kind, "three nines".
    text = gettext("three %(ranks)s") % {"ranks": _plural(found["rank"])}
    return _with_kickers(found, text)


def _quads(found: re.Match[str]) -> str:
    # Translators: four of a kind, "four nines".
    text = gettext("four %(ranks)s") % {"ranks": _plural(found["rank"])}
    return _with_kickers(found, text)


def _five(found: re.Match[str]) -> str:
    # Translators: five of a kind (with wild cards), "five aces".
    return gettext("five %(ranks)s") % {"ranks": _plural(found["rank"])}


def _straight(found: re.Match[str]) -> str:
    # Translators: a straight by its top card's letter, "straight, Q-high".
    return gettext("straight, %(rank)s-high") % {"rank": found["rank"]}


def _straight_flush(found: re.Match[str]) -> str:
    # Translators: a straight flush by its top card's letter, "straight flush, Q-high".
    return gettext("straight flush, %(rank)s-high") % {"rank": found["rank"]}


def _flush(found: re.Match[str]) -> str:
    # Translators: a flush by its best card, then its ranks: "flush, ace-high (A-J-9-5-2)".
    return gettext("flush, %(rank)s-high (%(ranks)s)") % {
        "rank": _name(found["rank"]),
        "ranks": found["run"],
    }


def _full_house(found: re.Match[str]) -> str:
    # Translators: "full house, nines full of kings".
    return gettext("full house, %(high)s full of %(low)s") % {
        "high": _plural(found["rank"]),
        "low": _plural(found["second"]),
    }


def _one_card(found: re.Match[str]) -> str:
    # Translators: one card by name, "ace of spades".
    return gettext("%(rank)s of %(suit)s") % {
        "rank": _name(found["rank"]),
        "suit": str(SUIT_NAMES[found["suit"]]),
    }


_SHAPES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (re.compile(rf"(?P<rank>{_NAME})-high(?: \((?P<run>{_RUN})\))?"), _high),
    (re.compile(rf"pair of (?P<rank>{_PLURAL}){_KICKERS}"), _pair),
    (re.compile(rf"two pair, (?P<rank>{_PLURAL}) and (?P<second>{_PLURAL}){_KICKERS}"), _two_pair),
    (re.compile(rf"three (?P<rank>{_PLURAL}){_KICKERS}"), _trips),
    (re.compile(rf"four (?P<rank>{_PLURAL}){_KICKERS}"), _quads),
    (re.compile(rf"five (?P<rank>{_PLURAL})"), _five),
    (re.compile(rf"straight, (?P<rank>{_SHORT})-high"), _straight),
    (re.compile(rf"straight flush, (?P<rank>{_SHORT})-high"), _straight_flush),
    (re.compile(rf"flush, (?P<rank>{_NAME})-high \((?P<run>{_RUN})\)"), _flush),
    (re.compile(rf"full house, (?P<rank>{_PLURAL}) full of (?P<second>{_PLURAL})"), _full_house),
    (re.compile(rf"(?P<rank>{_NAME}) of (?P<suit>clubs|diamonds|hearts|spades)"), _one_card),
)


def _said_hand(text: str) -> str | None:
    if text == "royal flush":
        return gettext("royal flush")
    if text == "royal crumpler (3-2)":
        return gettext("royal crumpler (3-2)")
    for pattern, say in _SHAPES:
        found = pattern.fullmatch(text)
        if found:
            return say(found)
    return None


def hand_name(text: object) -> str:
    """A hand's English name (as the rules record it) in the reader's language; another text
    as it is.

    >>> hand_name("pair of nines, king kicker")
    'pair of nines, king kicker'
    """
    shown = str(text or "")
    if not shown or _english():
        return shown
    low = shown.endswith(" (low)")
    said = _said_hand(shown.removesuffix(" (low)"))
    if said is None:
        return shown
    # Translators: a hand that plays low (the lowest hand wins), "seven-high (low)".
    return gettext("%(hand)s (low)") % {"hand": said} if low else said


_STAGE = re.compile(
    r"(?P<unit>deck|deal) (?P<number>\d+), "
    r"(?:deal (?P<deal>\d+) from this deck|stage (?P<stage>\d+) of (?P<of>\d+)): "
    rf"(?P<cards>{'|'.join(COUNTS)}) cards?"
    rf"(?:, (?P<wild>(?:{_PLURAL})(?: and (?:{_PLURAL}))*) wild)?"
    r", (?P<direction>low|high)"
)


def stage_words(text: object) -> str:
    """A Classic Guts stage as the game's view words it ("deal 2, stage 2 of 3: five cards,
    fives wild, high"), in the reader's language; another text as it is."""
    shown = str(text or "")
    found = _STAGE.fullmatch(shown)
    if not shown or _english() or found is None:
        return shown
    values = {"number": found["number"], "stage": found["stage"] or found["deal"]}
    if found["unit"] == "deck":
        # Translators: Toh's stage, "deck 2, deal 4 from this deck".
        where = gettext("deck %(number)s, deal %(stage)s from this deck") % values
    else:
        values["of"] = found["of"]
        # Translators: a game in stages, "deal 2, stage 2 of 3".
        where = gettext("deal %(number)s, stage %(stage)s of %(of)s") % values
    count = COUNTS[found["cards"]]
    direction = (
        pgettext("stage plays", "low")
        if found["direction"] == "low"
        else pgettext("stage plays", "high")
    )
    if found["wild"]:
        wild = [_plural(word) for word in found["wild"].split(" and ")]
        ranks = wild[0]
        if len(wild) > 1:
            # Translators: the last two of a list, "threes and fives", "twos, threes and fives".
            ranks = gettext("%(first)s and %(second)s") % {
                "first": ", ".join(wild[:-1]),
                "second": wild[-1],
            }
        # Translators: a stage: where it is, its cards, its wild ranks and whether high or low
        # wins: "deal 2, stage 2 of 3: 5 cards, fives wild, high".
        return gettext("%(where)s: %(cards)s, %(wild)s wild, %(direction)s") % {
            "where": where,
            "cards": _cards(count),
            "wild": ranks,
            "direction": direction,
        }
    # Translators: a stage: where it is, its cards and whether high or low wins.
    return gettext("%(where)s: %(cards)s, %(direction)s") % {
        "where": where,
        "cards": _cards(count),
        "direction": direction,
    }


def _cards(count: int) -> str:
    return ngettext("%(count)s card", "%(count)s cards", count) % {"count": count}
