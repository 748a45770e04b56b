"""Places of the players out in one hand, leaderboard points, and the levels."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import ConfigError
from games.tournament.levels import MAX_LEVELS, default_levels, validate_levels
from games.tournament.payouts import award
from games.tournament.places import eliminations
from games.tournament.points import points


def test_players_out_with_equal_chips_tie_at_the_best_place_they_span() -> None:
    assert eliminations([("a", 300), ("b", 300)], field_left=5) == [(4, ["a", "b"])]


def test_more_chips_at_the_hands_start_finish_higher() -> None:
    out = [("a", 100), ("b", 250), ("c", 100), ("d", 40)]
    assert eliminations(out, field_left=6) == [(3, ["b"]), (4, ["a", "c"]), (6, ["d"])]


def test_nobody_out_gives_no_places() -> None:
    assert eliminations([], field_left=4) == []


@pytest.mark.parametrize(
    ("busted", "field_left"),
    [([("a", 1), ("b", 1)], 1), ([("a", 1), ("a", 2)], 5), ([("a", 1)], 2.0)],
)
def test_impossible_eliminations_are_refused(busted: Any, field_left: Any) -> None:
    with pytest.raises(ValueError, match=r"out|field_left"):
        eliminations(busted, field_left)


@given(st.lists(st.integers(0, 50), max_size=8), st.integers(0, 6))
def test_places_cover_the_players_out_and_feed_the_awards(chips: list[int], above: int) -> None:
    busted = [(f"p{n}", amount) for n, amount in enumerate(chips)]
    field_left = len(busted) + above
    groups = eliminations(busted, field_left)
    assert sorted(key for _, group in groups for key in group) == sorted(k for k, _ in busted)
    # Each group's place is the one after all the players placed above it.
    place = above + 1
    for number, group in groups:
        assert number == place
        place += len(group)
    started = dict(busted)
    for (_, better), (_, worse) in itertools.pairwise(groups):
        assert started[better[0]] > started[worse[0]]
    if groups:
        finishes = [[f"w{n}"] for n in range(above)] + [group for _, group in groups]
        assert sum(award(9_999, (6_500, 3_500), finishes).values()) == 9_999


def test_points_grow_with_the_place_and_the_field() -> None:
    assert [points(place, 6) for place in range(1, 7)] == [60, 50, 40, 30, 20, 10]
    assert points(1, 9) > points(1, 6) > points(2, 6)
    assert points(1, 0) == 0


@given(st.integers(1, 200), st.data())
def test_points_are_higher_for_a_better_place_and_a_bigger_field(
    entrants: int, data: st.DataObject
) -> None:
    place = data.draw(st.integers(1, entrants))
    assert points(place, entrants) > 0
    assert points(place, entrants + 1) > points(place, entrants)
    if place > 1:
        assert points(place - 1, entrants) > points(place, entrants)


@pytest.mark.parametrize(("place", "entrants"), [(0, 6), (7, 6), (-1, 6), (1, -1), (1.0, 6)])
def test_a_place_outside_the_field_is_refused(place: Any, entrants: Any) -> None:
    with pytest.raises(ValueError, match=r"place|entrants"):
        points(place, entrants)


def test_levels_are_checked_and_copied() -> None:
    levels = [{"ante": 10, "minutes": 5}, {"ante": 10, "minutes": 1}, {"ante": 25, "minutes": 9}]
    checked = validate_levels(levels)
    assert checked == levels and checked is not levels


@pytest.mark.parametrize(
    ("levels", "message"),
    [
        ([], "a list of levels"),
        ({"ante": 10, "minutes": 5}, "a list of levels"),
        ([{"ante": 10}], "level 1 must have exactly an ante and its minutes"),
        ([{"ante": 10, "minutes": 5, "bonus": 1}], "exactly an ante"),
        ([{"ante": 0, "minutes": 5}], "level 1's ante must be a whole number"),
        ([{"ante": 10, "minutes": 5}, {"ante": 2.5, "minutes": 5}], "level 2's ante"),
        ([{"ante": 10, "minutes": 0}], "level 1's minutes must be a whole number from 1 to 1440"),
        ([{"ante": 10, "minutes": 1441}], "from 1 to 1440"),
        ([{"ante": 10, "minutes": True}], "not True"),
        ([{"ante": 20, "minutes": 5}, {"ante": 10, "minutes": 5}], "antes only rise"),
        ([{"ante": 1, "minutes": 1}] * (MAX_LEVELS + 1), "at most 50 levels"),
    ],
)
def test_bad_levels_are_refused_in_words(levels: Any, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        validate_levels(levels)


@given(st.integers(1, 10**6), st.data())
def test_default_levels_rise_from_the_first_to_a_fifth_of_the_chips(
    chips: int, data: st.DataObject
) -> None:
    first = data.draw(st.integers(1, chips))
    levels = default_levels(chips, first)
    antes = [level["ante"] for level in levels]
    assert antes[0] == first
    assert all(later > earlier for earlier, later in itertools.pairwise(antes))
    assert all(later <= 2 * earlier for earlier, later in itertools.pairwise(antes))
    assert antes[-1] * 5 >= chips  # the last level, which never ends, forces a finish
    assert all(ante * 5 < chips for ante in antes[:-1])
    assert {level["minutes"] for level in levels} == {5}


@pytest.mark.parametrize(("chips", "first"), [(0, 1), (100, 0), (10, 11), (100, 1.5)])
def test_default_levels_need_chips_covering_a_first_ante(chips: Any, first: Any) -> None:
    with pytest.raises(ConfigError):
        default_levels(chips, first)
