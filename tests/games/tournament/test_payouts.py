"""Payout shares, prizes by place and awards with ties, over random pools, shares and finishes."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import ConfigError
from games.tournament.payouts import WHOLE, award, prize_table, validate_shares


@st.composite
def share_lists(draw: st.DrawFn, most: int = 10) -> tuple[int, ...]:
    """Valid shares: whole basis points above 0, non-increasing, adding up to 10,000."""
    places = draw(st.integers(1, most))
    cuts = sorted(draw(st.lists(st.integers(1, WHOLE - 1), min_size=places - 1,
                                max_size=places - 1, unique=True)))  # fmt: skip
    parts = [b - a for a, b in zip([0, *cuts], [*cuts, WHOLE], strict=True)]
    return tuple(sorted(parts, reverse=True))


@st.composite
def finishing_orders(draw: st.DrawFn) -> list[list[str]]:
    """Players p0, p1, ... cut into tied groups, best first."""
    players = [f"p{n}" for n in range(draw(st.integers(1, 12)))]
    groups: list[list[str]] = []
    while players:
        size = draw(st.integers(1, len(players)))
        groups.append(players[:size])
        players = players[size:]
    return groups


pools = st.integers(0, 10**9)


@given(share_lists())
def test_valid_shares_are_accepted_as_they_are(shares: tuple[int, ...]) -> None:
    assert validate_shares(list(shares), seats=10) == shares


@given(pools, share_lists())
def test_the_prize_table_gives_out_the_pool_exactly_and_never_rises(
    pool: int, shares: tuple[int, ...]
) -> None:
    prizes = prize_table(pool, shares)
    assert sum(prizes) == pool
    assert len(prizes) == len(shares)
    assert all(first >= second for first, second in itertools.pairwise(prizes))
    assert all(prize >= 0 for prize in prizes)


@given(pools, share_lists(), finishing_orders())
def test_awards_give_out_the_pool_and_ties_share_within_a_cent(
    pool: int, shares: tuple[int, ...], finishes: list[list[str]]
) -> None:
    paid = award(pool, shares, finishes)
    assert sum(paid.values()) == pool
    assert set(paid) == {player for group in finishes for player in group}
    assert all(amount >= 0 for amount in paid.values())
    for group in finishes:
        amounts = [paid[player] for player in group]
        assert max(amounts) - min(amounts) <= 1
        # the odd cents go to the group's first members
        assert amounts == sorted(amounts, reverse=True)
    # No one gets more than anyone who finished above them.
    for better, worse in itertools.pairwise(finishes):
        assert min(paid[p] for p in better) >= max(paid[p] for p in worse)


@given(pools, share_lists(), st.integers(1, 12))
def test_without_ties_each_place_gets_its_prize(
    pool: int, shares: tuple[int, ...], players: int
) -> None:
    finishes = [[f"p{n}"] for n in range(players)]
    paid = award(pool, shares, finishes)
    prizes = prize_table(pool, shares)
    for place in range(min(players, len(prizes))):
        expected = prizes[place]
        if place == 0:
            expected += sum(prizes[players:])  # places nobody reached go to the winner
        assert paid[f"p{place}"] == expected
    assert all(paid[f"p{n}"] == 0 for n in range(len(prizes), players))


def test_a_tie_for_second_shares_second_and_third_prizes() -> None:
    shares = validate_shares([5000, 3000, 2000], seats=6)
    assert award(10_001, shares, [["a"], ["b", "c"], ["d"]]) == {
        "a": 5_001,
        "b": 2_500,
        "c": 2_500,
        "d": 0,
    }
    assert award(10_001, shares, [["a"], ["b"], ["c", "d"]]) == {
        "a": 5_001,
        "b": 3_000,
        "c": 1_000,
        "d": 1_000,
    }


def test_winner_takes_all() -> None:
    assert award(5_000, validate_shares([10_000], seats=6), [["a"], ["b"]]) == {"a": 5_000, "b": 0}


@pytest.mark.parametrize(
    ("shares", "seats", "message"),
    [
        ([], 6, "a list of shares"),
        ("6500,3500", 6, "a list of shares"),
        ([6500, 0, 3500], 6, "above 0, not 0"),
        ([6500, 3500.0], 6, "above 0, not 3500.0"),
        ([True, 9999], 6, "above 0, not True"),
        ([3500, 6500], 6, "3500 then 6500"),
        ([6500, 3000], 6, "add up to 9500 basis points"),
        ([4000, 3000, 2000, 1000], 3, "4 places paid at a table of 3 seats"),
    ],
)
def test_bad_shares_are_refused_in_words(shares: Any, seats: int, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        validate_shares(shares, seats)


@pytest.mark.parametrize(
    "finishes",
    [[], [["a"], []], [["a"], ["a"]], [["a", "b"], ["c", "b"]]],
)
def test_a_finishing_order_must_name_each_player_once(finishes: list[list[str]]) -> None:
    with pytest.raises(ValueError, match=r"finished|finishing|nobody"):
        award(100, (10_000,), finishes)


@pytest.mark.parametrize("pool", [-1, 1.5, True])
def test_a_pool_is_whole_cents(pool: Any) -> None:
    with pytest.raises(ValueError, match="whole number of cents"):
        prize_table(pool, (10_000,))
