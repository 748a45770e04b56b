"""The evaluators' public entry points: kinds, options, :func:`rank_hand`, :func:`key_function`.

Every kind and option is named as in docs/rules/. An unknown kind or option, an option
that does not apply to the kind, a bad option value or the wrong cards raise
:class:`~games.evaluators.values.EvaluatorError`, which names what is accepted.

>>> str(rank_hand("three_card", "Qh Jh Tc"))
'straight, Q-high'
>>> rank_hand("two_card", "3c 2d", royal_crumpler=True) > rank_hand("two_card", "Ac Ad")
True
>>> rank_hand("one_card", "As", wild_ranks="2")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
games.evaluators.values.EvaluatorError: option 'wild_ranks' does not apply to one_card; ...
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from games.cards import RANKS, Card

from .cardbits import FLUSH_MASK, FLUSH_SHIFTS, RANK_MASK, REPEAT_MASK, indices, weights_by_suit
from .five import (
    Memo,
    five_card_key,
    five_card_table,
    flush_table,
    rank_table,
    wild_key,
    wild_ranker,
)
from .low import low_napalm_key, low_nuts_key
from .small import ThreeCardRules, TwoCardRules, one_card_key, two_card_table
from .small import three_card_table as small_table
from .values import CATEGORIES, EvaluatorError, HandValue

__all__ = ["KINDS", "category_of", "key_function", "rank_hand", "three_card_table", "value_of"]

Key = Callable[[Sequence[int]], int]

#: Each kind: the numbers of cards it takes and the options that apply to it.
KINDS: dict[str, tuple[tuple[int, ...], tuple[str, ...]]] = {
    "one_card": ((1,), ()),
    "two_card": ((2,), ("two_card_straights_flushes", "royal_crumpler", "wild_ranks")),
    "three_card": (
        (3,),
        (
            "three_card_straights_flushes",
            "trips_over_straight_flush",
            "flush_over_straight",
            "wild_ranks",
        ),
    ),
    "five_card": ((5,), ("wild_ranks",)),
    "best_five": ((5, 6, 7), ("wild_ranks",)),
    "three_five_seven_stage_one": ((3,), ("wild_ranks",)),
    "low_nuts": ((2, 3, 4, 5), ()),
    "low_napalm": ((5,), ()),
    "chinese_front": ((3,), ()),
}
_DEFAULTS: dict[str, Any] = {
    "two_card_straights_flushes": False,
    "royal_crumpler": False,
    "three_card_straights_flushes": True,
    "trips_over_straight_flush": False,
    "flush_over_straight": False,
    "wild_ranks": "",
}
_ALL_OPTIONS = tuple(_DEFAULTS)


def _wild(text: object) -> frozenset[int]:
    if not isinstance(text, str):
        raise EvaluatorError(f'wild_ranks is a string of ranks such as "2" or "357", not {text!r}')
    ranks = set()
    for char in text.upper().replace("10", "T"):
        if char not in RANKS:
            raise EvaluatorError(f"wild_ranks: {char!r} is not a rank (2-9, T, J, Q, K, A)")
        ranks.add(RANKS.index(char) + 2)
    return frozenset(ranks)


def _check(kind: str, options: dict[str, Any]) -> dict[str, Any]:
    if kind not in KINDS:
        raise EvaluatorError(f"unknown kind {kind!r}; kinds: {', '.join(KINDS)}")
    accepted = KINDS[kind][1]
    for name, value in options.items():
        if name not in accepted:
            listed = ", ".join(accepted) or "none"
            if name in _ALL_OPTIONS:
                raise EvaluatorError(
                    f"option {name!r} does not apply to {kind}; its options: {listed}"
                )
            raise EvaluatorError(f"unknown option {name!r} for {kind}; its options: {listed}")
        if name != "wild_ranks" and not isinstance(value, bool):
            raise EvaluatorError(f"option {name!r} is true or false, not {value!r}")
    settings = {name: options.get(name, _DEFAULTS[name]) for name in accepted}
    if kind == "three_five_seven_stage_one":
        settings["wild_ranks"] = options.get("wild_ranks", "3")
    if "wild_ranks" in settings:
        settings["wild_ranks"] = _wild(settings["wild_ranks"])
    return settings


def _three(rules: ThreeCardRules) -> Key:
    table = small_table(rules)

    def key(hand: Sequence[int]) -> int:
        a, b, c = hand
        return table[a << 12 | b << 6 | c]

    return key


def _two(rules: TwoCardRules) -> Key:
    table = two_card_table(rules)

    def key(hand: Sequence[int]) -> int:
        a, b = hand
        return table[a << 6 | b]

    return key


def _one(hand: Sequence[int]) -> int:
    (index,) = hand
    return one_card_key(index)


def _build(kind: str, settings: dict[str, Any]) -> Key:
    wild: frozenset[int] = settings.get("wild_ranks", frozenset())
    if kind == "one_card":
        return _one
    if kind == "two_card":
        return _two(
            TwoCardRules(settings["two_card_straights_flushes"], settings["royal_crumpler"], wild)
        )
    if kind == "three_card":
        return _three(
            ThreeCardRules(
                settings["three_card_straights_flushes"],
                settings["trips_over_straight_flush"],
                settings["flush_over_straight"],
                wild,
            )
        )
    if kind in ("three_five_seven_stage_one", "chinese_front"):
        return _three(ThreeCardRules(straights_flushes=False, wild=wild))
    if kind == "five_card" and not wild:
        return five_card_key()
    if kind in ("five_card", "best_five"):
        return wild_key(wild)
    if kind == "low_nuts":
        return low_nuts_key()
    return low_napalm_key()


class _Values(dict[int, HandValue]):
    """Shared HandValue objects by key, made on first use (a hit is a plain dict lookup)."""

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def __missing__(self, key: int) -> HandValue:
        value = self[key] = HandValue.from_key(self.kind, key)
        return value


@dataclass(slots=True)
class _Evaluator:
    kind: str
    sizes: tuple[int, ...]
    key: Key
    values: _Values

    def rank(self, cards: Iterable[Card] | str) -> HandValue:
        hand = indices(cards)
        count = len(hand)
        if count in self.sizes and len(set(hand)) == count:
            return self.values[self.key(hand)]
        if count not in self.sizes:
            sizes = ", ".join(str(size) for size in self.sizes[:-1])
            sizes = f"{sizes} or {self.sizes[-1]}" if sizes else str(self.sizes[-1])
            raise EvaluatorError(f"{self.kind} takes {sizes} cards, not {len(hand)}")
        if len(set(hand)) != len(hand):
            raise EvaluatorError(f"a card appears twice in this {self.kind} hand")
        return self.values[self.key(hand)]


@cache
def _evaluator(kind: str, options: tuple[tuple[str, Any], ...]) -> _Evaluator:
    settings = _check(kind, dict(options))
    evaluator = _Evaluator(kind, KINDS[kind][0], _build(kind, settings), _Values(kind))
    if not options:
        _PLAIN[kind] = evaluator
    if kind in ("five_card", "best_five"):
        _enable_fast(kind, options, settings["wild_ranks"], evaluator)
    return evaluator


def _options_key(options: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    for name, value in options.items():
        # Checked before the cache, which would take 1 for True.
        if name in _DEFAULTS and name != "wild_ranks" and not isinstance(value, bool):
            raise EvaluatorError(f"option {name!r} is true or false, not {value!r}")
    items = tuple(sorted(options.items()))
    try:
        hash(items)
    except TypeError:
        raise EvaluatorError(f"option values are true, false or text, not {options!r}") from None
    return items


# Evaluators of each kind with its default options.
_PLAIN: dict[str, _Evaluator] = {}
# Evaluators by the call's own spelling (kind, options in call order): one dict lookup.
_BY_CALL: dict[tuple[str, tuple[tuple[str, Any], ...], tuple[type, ...]], _Evaluator] = {}

# rank_hand's inline paths for five_card and best_five. They read the cards' slots (see
# weights_by_suit), so any Card object takes them, not only DECK's. Their tables stay empty
# until the first call has taken the full path, which builds the evaluator (_enable_fast):
# until then a lookup fails and that call goes the full way.
_BY_SUIT: dict[str, list[Any]] = weights_by_suit(frozenset())
# A hand's sum thus masked keys exactly five cards: the rank counts, the flush bit of a suit
# of five, and the bits that a card held twice sets, which no table key has (KeyError).
_FIVE_MASK = RANK_MASK | FLUSH_MASK | REPEAT_MASK
_FLUSH_OR_REPEAT = FLUSH_MASK | REPEAT_MASK
_FIVE: dict[int, HandValue] = {}  # five_card: by sum & _FIVE_MASK
_BEST_OF_FIVE: dict[int, HandValue] = {}  # best_five of five cards: the same
_BEST: dict[int, HandValue] = {}  # best_five of six or seven, no flush: by the rank counts
_BEST_FLUSH: dict[int, HandValue] = {}  # ... with a flush: by the ranks of its suit
# Wild-card paths by (kind, the wild_ranks text as called): see wild_ranker.
_WILD: dict[tuple[str, str], Callable[[Any], HandValue | None]] = {}


def _enable_fast(
    kind: str, options: tuple[tuple[str, Any], ...], wild: frozenset[int], evaluator: _Evaluator
) -> None:
    global _FIVE, _BEST_OF_FIVE, _BEST, _BEST_FLUSH
    values = evaluator.values
    if options:
        # Only a lone wild_ranks text has an inline path; other options take the full one.
        if len(options) == 1 and options[0][0] == "wild_ranks" and isinstance(options[0][1], str):
            _WILD[kind, options[0][1]] = wild_ranker(wild, evaluator.sizes, values)
        return
    five = {total: values[key] for total, key in five_card_table().items()}
    if kind == "five_card":
        _FIVE = five
        return
    ranks, flushes = rank_table(), flush_table()
    _BEST = Memo(lambda total: values[ranks[total]])
    _BEST_FLUSH = Memo(lambda suited: values[flushes[suited]])
    _BEST_OF_FIVE = five


def rank_hand(kind: str, cards: Iterable[Card] | str, /, **options: Any) -> HandValue:
    """The value of ``cards`` under ranking ``kind`` (docs/rules/): greater is better.

    ``cards`` are Card objects or text such as ``"As Kd 10c"``. Equal hands get the very same
    (immutable) value object.

    >>> str(rank_hand("best_five", "2s 2h Kd Kc 9s 3h Ac"))
    'two pair, kings and twos, ace kicker'
    >>> rank_hand("five_card", "As Ks")
    Traceback (most recent call last):
    ...
    games.evaluators.values.EvaluatorError: five_card takes 5 cards, not 2
    """
    # The hottest calls, inlined: a sized collection of Card objects (len() first, so that an
    # iterator reaches the full path unread). Whatever these paths do not answer (text, a card
    # held twice, a wrong count, tables not built yet) raises or falls through to the full path,
    # which checks everything and names the fault.
    hand: Any = cards  # unchecked here: these paths try, and give up on any error
    try:
        if not options:
            if kind == "five_card":
                if len(hand) == 5:
                    a, b, c, d, e = hand
                    w = _BY_SUIT
                    return _FIVE[
                        w[a.suit][a.rank] + w[b.suit][b.rank] + w[c.suit][c.rank]
                        + w[d.suit][d.rank] + w[e.suit][e.rank]
                        & _FIVE_MASK
                    ]  # fmt: skip
            elif kind == "best_five":
                count = len(hand)
                w = _BY_SUIT
                if count == 7:
                    a, b, c, d, e, f, g = hand
                    total = (
                        w[a.suit][a.rank] + w[b.suit][b.rank] + w[c.suit][c.rank]
                        + w[d.suit][d.rank] + w[e.suit][e.rank] + w[f.suit][f.rank]
                        + w[g.suit][g.rank]
                    )  # fmt: skip
                elif count == 6:
                    a, b, c, d, e, f = hand
                    total = (
                        w[a.suit][a.rank] + w[b.suit][b.rank] + w[c.suit][c.rank]
                        + w[d.suit][d.rank] + w[e.suit][e.rank] + w[f.suit][f.rank]
                    )  # fmt: skip
                else:
                    a, b, c, d, e = hand
                    return _BEST_OF_FIVE[
                        w[a.suit][a.rank] + w[b.suit][b.rank] + w[c.suit][c.rank]
                        + w[d.suit][d.rank] + w[e.suit][e.rank]
                        & _FIVE_MASK
                    ]  # fmt: skip
                if not total & _FLUSH_OR_REPEAT:
                    return _BEST[total & RANK_MASK]
                if not total & REPEAT_MASK:
                    # Without wild cards, six or seven cards have one flush suit at most, and
                    # its ranks alone make the best hand.
                    return _BEST_FLUSH[total >> FLUSH_SHIFTS[total & FLUSH_MASK] & RANK_MASK]
        elif len(options) == 1:
            value = _WILD[kind, options.get("wild_ranks")](hand)  # type: ignore[index]
            if value is not None:
                return value
    except (AttributeError, IndexError, KeyError, TypeError, ValueError):
        pass
    if not options:
        plain = _PLAIN.get(kind)
        if plain is not None:
            return plain.rank(cards)
    # The call's own spelling keys the cache; the value types belong to it, since True == 1.
    call = (kind, tuple(options.items()), tuple(map(type, options.values())))
    try:
        evaluator = _BY_CALL[call]
    except (KeyError, TypeError):
        if not isinstance(kind, str):
            raise EvaluatorError(f"the kind is a name such as 'three_card', not {kind!r}") from None
        evaluator = _evaluator(kind, _options_key(options))
        _BY_CALL[call] = evaluator
    return evaluator.rank(cards)


def key_function(kind: str, /, **options: Any) -> Key:
    """The fast key of ``kind``: card indices (``Card.index``) in, int key out.

    Options are checked once, here; the returned function checks nothing (wrong input may
    give a meaningless key or raise). Keys equal ``rank_hand(kind, ...).key``.

    >>> key = key_function("three_card")
    >>> key([51, 47, 43]) == rank_hand("three_card", "As Ks Qs").key
    True
    """
    return _evaluator(kind, _options_key(options)).key


def three_card_table(**options: Any) -> list[int]:
    """The ``three_card`` keys of every hand at ``a << 12 | b << 6 | c`` (card indices, any order).

    The engines' tightest path: a list index, no call. Slots of repeated indices hold -1.

    >>> table = three_card_table(flush_over_straight=True)
    >>> table[51 << 12 | 47 << 6 | 31] > table[50 << 12 | 45 << 6 | 43]  # A-K-8 flush > A-K-Q
    True
    """
    settings = _check("three_card", options)
    return small_table(
        ThreeCardRules(
            settings["three_card_straights_flushes"],
            settings["trips_over_straight_flush"],
            settings["flush_over_straight"],
            settings["wild_ranks"],
        )
    )


def category_of(kind: str, key: int, /, **options: Any) -> str:
    """The category name of a key of ``kind`` (read from the key: cheap).

    >>> category_of("five_card", rank_hand("five_card", "2c 2d 2h 9s 9c").key)
    'full_house'
    """
    _evaluator(kind, _options_key(options))
    return CATEGORIES[key >> 20 & 15]


def value_of(kind: str, key: int, /, **options: Any) -> HandValue:
    """The :class:`HandValue` of a key of ``kind`` (shared, cached objects).

    >>> str(value_of("three_card", key_function("three_card")([0, 1, 2])))
    'three twos'
    """
    return _evaluator(kind, _options_key(options)).values[key]
