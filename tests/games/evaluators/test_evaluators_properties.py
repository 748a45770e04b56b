"""Hypothesis properties: the evaluators against a plain brute force, and their invariances."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, product

from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import DECK, RANKS, Card
from games.evaluators import CATEGORIES, key_function, rank_hand

STRAIGHTS = [list(range(high, high - 5, -1)) for high in range(14, 5, -1)] + [[5, 4, 3, 2, 14]]


def oracle_five(cards: list[tuple[int, int]]) -> tuple[int, tuple[int, ...]]:
    """Standard poker on five (rank, suit) pairs, repeats allowed: (category index, ranks)."""
    counts = Counter(rank for rank, _ in cards)
    groups = sorted(((n, rank) for rank, n in counts.items()), reverse=True)
    shape = [n for n, _ in groups]
    by_group = tuple(rank for _, rank in groups)
    flush = len({suit for _, suit in cards}) == 1
    ranks = sorted(counts, reverse=True)
    straight = next((s[0] for s in STRAIGHTS if sorted(s, reverse=True) == ranks), None)
    candidates = []
    if shape == [5]:
        candidates.append((9, by_group))
    if straight and flush:
        candidates.append((8, (straight,)))
    if flush:
        candidates.append((5, tuple(sorted((rank for rank, _ in cards), reverse=True))))
    if straight:
        candidates.append((4, (straight,)))
    names = {(4, 1): 7, (3, 2): 6, (3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1, (1,) * 5: 0}
    if tuple(shape) in names:
        candidates.append((names[tuple(shape)], by_group))
    return max(candidates)


def oracle_best(hand: list[Card], wild: set[int]) -> tuple[int, tuple[int, ...]]:
    """Best of every five of the cards, each wild card tried as every one of the 52 cards."""
    best: tuple[int, tuple[int, ...]] = (-1, ())
    for five in combinations(hand, 5):
        naturals = [(card.rank, card.index & 3) for card in five if card.rank not in wild]
        wilds = 5 - len(naturals)
        for extra in product([(c.rank, c.index & 3) for c in DECK], repeat=wilds):
            best = max(best, oracle_five(naturals + list(extra)))
    return best


def same_order(values: list[int], oracles: list[tuple[int, tuple[int, ...]]]) -> None:
    for (a, oracle_a), (b, oracle_b) in combinations(zip(values, oracles, strict=True), 2):
        assert (a > b) == (oracle_a > oracle_b) and (a == b) == (oracle_a == oracle_b)


hands = st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True)


@settings(max_examples=60, deadline=None)
@given(st.lists(hands, min_size=2, max_size=4), st.integers(5, 7))
def test_best_five_is_the_best_of_every_five_card_subset(
    sample: list[list[Card]], size: int
) -> None:
    values = [rank_hand("best_five", hand[:size]) for hand in sample]
    oracles = [oracle_best(hand[:size], set()) for hand in sample]
    assert [v.category for v in values] == [CATEGORIES[o[0]] for o in oracles]
    same_order([v.key for v in values], oracles)


@st.composite
def wild_hands(draw: st.DrawFn, size: int, wilds: int) -> tuple[str, list[list[Card]]]:
    """A wild rank and two or three hands holding 1..``wilds`` cards of it."""
    rank = draw(st.sampled_from(RANKS))
    wild = [card for card in DECK if str(card)[0] == rank]
    others = [card for card in DECK if str(card)[0] != rank]
    sample = []
    for _ in range(draw(st.integers(2, 3))):
        count = draw(st.integers(1, wilds))
        chosen = draw(st.lists(st.sampled_from(wild), min_size=count, max_size=count, unique=True))
        rest = draw(
            st.lists(
                st.sampled_from(others), min_size=size - count, max_size=size - count, unique=True
            )
        )
        sample.append(draw(st.permutations(chosen + rest)))
    return rank, sample


@settings(max_examples=20, deadline=None)
@given(wild_hands(5, 2))
def test_five_cards_with_wild_cards_match_every_substitution(
    case: tuple[str, list[list[Card]]],
) -> None:
    wild_rank, sample = case
    wild = {RANKS.index(wild_rank) + 2}
    values = [rank_hand("five_card", hand, wild_ranks=wild_rank) for hand in sample]
    oracles = [oracle_best(hand, wild) for hand in sample]
    assert [v.category for v in values] == [CATEGORIES[o[0]] for o in oracles]
    same_order([v.key for v in values], oracles)


@settings(max_examples=15, deadline=None)
@given(wild_hands(6, 1) | wild_hands(7, 1))
def test_best_five_with_a_wild_card_matches_every_substitution(
    case: tuple[str, list[list[Card]]],
) -> None:
    wild_rank, sample = case
    wild = {RANKS.index(wild_rank) + 2}
    values = [rank_hand("best_five", hand, wild_ranks=wild_rank) for hand in sample]
    oracles = [oracle_best(hand, wild) for hand in sample]
    assert [v.category for v in values] == [CATEGORIES[o[0]] for o in oracles]
    same_order([v.key for v in values], oracles)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True),
    st.text("23456789TJQKA", max_size=3),
)
def test_many_wild_cards_keep_the_fast_path_and_rank_hand_in_step(
    hand: list[Card], wild_ranks: str
) -> None:
    key = key_function("best_five", wild_ranks=wild_ranks)
    assert (
        key([card.index for card in hand])
        == rank_hand("best_five", hand, wild_ranks=wild_ranks).key
    )


SUITLESS = [
    ("two_card", 2, {}),
    ("three_card", 3, {}),
    ("three_card", 3, {"wild_ranks": "2"}),
    ("three_five_seven_stage_one", 3, {}),
    ("chinese_front", 3, {}),
    ("five_card", 5, {}),
    ("best_five", 7, {"wild_ranks": "7"}),
    ("low_nuts", 4, {}),
    ("low_napalm", 5, {}),
]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(SUITLESS),
    st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True),
    st.permutations("cdhs"),
)
def test_a_ranking_ignores_card_order_and_suit_names(
    case: tuple[str, int, dict[str, object]], cards: list[Card], suits: list[str]
) -> None:
    kind, size, options = case
    hand = cards[:size]
    renamed = [Card(card.rank, suits["cdhs".index(card.suit)]) for card in hand]
    shuffled = list(reversed(hand))
    value = rank_hand(kind, hand, **options)
    assert rank_hand(kind, renamed, **options) == value
    assert rank_hand(kind, shuffled, **options) == value
    key = key_function(kind, **options)
    assert key([card.index for card in shuffled]) == value.key
