"""rank_hand's inline paths (five_card, best_five, wild ranks) against its full, checking path.

The inline paths read Card objects' slots and catch a repeated card by a mask of the hand's
sum; text always takes the full path, so it is the reference here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator

import pytest

from games.cards import DECK, Card, format_cards, parse_cards
from games.evaluators import EvaluatorError, HandValue, key_function, rank_hand

# (kind, number of cards, options): every inline path.
PATHS = [
    ("five_card", 5, {}),
    ("best_five", 5, {}),
    ("best_five", 6, {}),
    ("best_five", 7, {}),
    ("five_card", 5, {"wild_ranks": "2"}),
    ("five_card", 5, {"wild_ranks": ""}),
    ("best_five", 5, {"wild_ranks": "2345"}),
    ("best_five", 6, {"wild_ranks": "2"}),
    ("best_five", 7, {"wild_ranks": "7"}),
    ("best_five", 7, {"wild_ranks": "AK"}),
]
PATH_IDS = [
    f"{kind}-{size}-{options.get('wild_ranks', 'natural')}" for kind, size, options in PATHS
]


def copies(cards: Iterable[Card]) -> list[Card]:
    """Equal Card objects that are not DECK's own."""
    return [Card(card.rank, card.suit) for card in cards]


def forms(cards: list[Card]) -> list[Iterable[Card]]:
    """The same hand as a list, a tuple, fresh Card objects and a one-shot iterator."""
    iterator: Iterator[Card] = iter(copies(cards))
    return [cards, tuple(cards), copies(cards), iterator]


def random_hand(rng: random.Random, size: int) -> list[Card]:
    """A hand of ``size`` cards; one in three holds five or more of one suit."""
    if rng.randrange(3):
        return [DECK[index] for index in rng.sample(range(52), size)]
    suit = rng.randrange(4)
    suited = rng.sample(range(13), rng.randint(5, size))
    others = [i for i in range(52) if i & 3 != suit and i >> 2 not in suited]
    chosen = [4 * rank + suit for rank in suited] + rng.sample(others, size - len(suited))
    rng.shuffle(chosen)
    return [DECK[index] for index in chosen]


@pytest.fixture(autouse=True)
def warm() -> None:
    """Build every path's tables first, so that the calls below take the inline paths."""
    for kind, size, options in PATHS:
        rank_hand(kind, DECK[-size:], **options)


@pytest.mark.parametrize(("kind", "size", "options"), PATHS, ids=PATH_IDS)
def test_inline_paths_agree_with_the_full_path_and_the_key_function(
    kind: str, size: int, options: dict[str, str]
) -> None:
    rng = random.Random(f"{kind}{size}{options}")
    key = key_function(kind, **options)
    for _ in range(1_500):
        hand = random_hand(rng, size)
        expected = rank_hand(kind, format_cards(hand), **options)
        assert expected.key == key([card.index for card in hand])
        for form in forms(hand):
            assert rank_hand(kind, form, **options) is expected, format_cards(hand)


REPEATS = [
    ("five_card", "As As Kd Qh Jc", {}),  # a pair
    ("five_card", "As As Ks Qs Js", {}),  # a "flush"
    ("five_card", "As As As As Ks", {}),  # four copies
    ("five_card", "As Ks Qs Js Js", {"wild_ranks": "2"}),
    ("five_card", "2s 2s Ks Qs Js", {"wild_ranks": "2"}),  # a wild card twice
    ("best_five", "As As Kd Qh Jc", {}),
    ("best_five", "As Ah Kd Qh Jc 9c 9c", {}),
    ("best_five", "As Ks Qs Js 9s 2h 2h", {}),  # a flush, the repeat in another suit
    ("best_five", "As Ks Qs Js 9s 8s 8s", {}),  # the repeat inside the flush
    ("best_five", "As Kd Qh Jc 9c 9c", {}),
    ("best_five", "As Ks Qs Js 9s 9s", {}),
    ("best_five", "7s 7s Kd Qh Jc 9c 3d", {"wild_ranks": "7"}),
    ("best_five", "7s 7h Kd Qh Jc 9c 9c", {"wild_ranks": "7"}),
    ("best_five", "2s Ks Qs Js 9s 9s", {"wild_ranks": "2"}),
    ("best_five", "As Kd Qh Jc Jc", {"wild_ranks": "2345"}),
]


@pytest.mark.parametrize(("kind", "text", "options"), REPEATS)
def test_a_repeated_card_is_refused_on_every_path(
    kind: str, text: str, options: dict[str, str]
) -> None:
    hand = list(parse_cards(text, allow_repeats=True))
    for form in forms(hand):
        with pytest.raises(EvaluatorError, match="appears twice"):
            rank_hand(kind, form, **options)


WRONG_COUNTS = [
    ("five_card", 4, {}, "five_card takes 5 cards, not 4"),
    ("five_card", 6, {}, "five_card takes 5 cards, not 6"),
    ("five_card", 6, {"wild_ranks": "2"}, "five_card takes 5 cards, not 6"),
    ("best_five", 4, {}, "best_five takes 5, 6 or 7 cards, not 4"),
    ("best_five", 8, {}, "best_five takes 5, 6 or 7 cards, not 8"),
    ("best_five", 8, {"wild_ranks": "7"}, "best_five takes 5, 6 or 7 cards, not 8"),
]


@pytest.mark.parametrize(("kind", "size", "options", "message"), WRONG_COUNTS)
def test_wrong_counts_are_named_on_every_form(
    kind: str, size: int, options: dict[str, str], message: str
) -> None:
    for form in forms(list(DECK[:size])):
        with pytest.raises(EvaluatorError, match=message):
            rank_hand(kind, form, **options)


def test_an_iterator_of_other_card_objects_is_read_once() -> None:
    hand = copies(parse_cards("As Kd Qh Jc 9s 9d 2c"))
    assert str(rank_hand("five_card", iter(hand[:5]))) == "ace-high (A-K-Q-J-9)"
    assert str(rank_hand("best_five", iter(hand))) == "pair of nines, A-K-Q kickers"
    assert str(rank_hand("three_card", iter([hand[0], hand[1], hand[4]]))) == "ace-high (A-K-9)"


NOT_CARDS: list[Callable[[], object]] = [
    lambda: [1, 2, 3, 4, 5],
    lambda: [None] * 7,
    lambda: "AsKsQ",
    lambda: [*DECK[:4], "As"],
]


@pytest.mark.parametrize("make", NOT_CARDS)
@pytest.mark.parametrize("options", [{}, {"wild_ranks": "2"}])
@pytest.mark.parametrize("kind", ["five_card", "best_five"])
def test_what_is_not_cards_is_refused(
    kind: str, options: dict[str, str], make: Callable[[], object]
) -> None:
    with pytest.raises(EvaluatorError, match=r"Card objects|not a card"):
        rank_hand(kind, make(), **options)  # type: ignore[arg-type]


def test_equal_hands_share_one_value_whatever_the_path() -> None:
    values: list[HandValue] = [
        rank_hand("best_five", "As Ks Qs Js 9s 2h 3d"),
        rank_hand("best_five", list(parse_cards("2h As Ks 3d Qs Js 9s"))),
        rank_hand("best_five", copies(parse_cards("As Ks Qs Js 9s 2c 3c"))),
    ]
    assert values[0] is values[1] is values[2]
    assert str(values[0]) == "flush, ace-high (A-K-Q-J-9)"
