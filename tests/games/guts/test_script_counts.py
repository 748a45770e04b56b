"""Scripts refuse cards in the wrong number or form, saying what was expected (issue 32, item 6).

A scripted hand once dealt what it could of a wrong count: three ghost cards at a 2-card kitty
played the first two, one was padded with the deck's next card, a list was read as its text.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from games.cli import main
from games.guts import commands


def _classic(preset: str, hand: dict[str, Any], **options: Any) -> dict[str, Any]:
    return {
        "game": "guts",
        "preset": preset,
        "options": {"ante": 100, **options},
        "button": "C",
        "players": {"A": 10000, "B": 10000, "C": 10000},
        "hands": [hand],
    }


def _online(hand: dict[str, Any]) -> dict[str, Any]:
    return {
        "game": "guts",
        "preset": "monte_carlo",
        "options": {"ante": 100},
        "button": "A",
        "players": {"A": 10000, "B": 10000},
        "hands": [{"antes": ["A", "B"], **hand}],
    }


IN = {"declare": {"A": "in"}}

WRONG = [
    pytest.param(
        _classic("kitty", {"cards": {"A": "As Kd"}, "ghost": "Qs 4d Ah", **IN}),
        "hand 1: a kitty hand has 2 cards; got 3: Qs 4d Ah",
        id="three-ghost-cards-at-a-2-card-kitty",
    ),
    pytest.param(
        _classic("kitty", {"cards": {"A": "Kd Qd"}, "ghost": "As", **IN}),
        "hand 1: a kitty hand has 2 cards; got 1: As",
        id="one-ghost-card-at-a-2-card-kitty",
    ),
    pytest.param(
        _classic("kitty", {"cards": {"A": "As Kd 2c"}, "ghost": "Qs Qd", **IN}, cards=3),
        "hand 1: a kitty hand has 3 cards; got 2: Qs Qd",
        id="two-ghost-cards-at-a-3-card-kitty",
    ),
    pytest.param(
        _classic("ghost_when_alone", {"cards": {"A": "As Kd 2c"}, "ghost": "Qs Qd", **IN}, cards=3),
        "hand 1: a ghost hand has 3 cards; got 2: Qs Qd",
        id="two-ghost-cards-at-a-3-card-ghost-table",
    ),
    pytest.param(
        _classic("batey", {"cards": {"A": "As Kd"}, "community": "Qs Qd", **IN}),
        "hand 1: the Batey has 1 community card; got 2: Qs Qd",
        id="two-batey-cards",
    ),
    pytest.param(
        _classic("four_two_three", {"cards": {"A": "As Ad Kc 9h"}, "community": "Qs Qd", **IN}),
        "hand 1: this table has 3 community cards; got 2: Qs Qd",
        id="two-community-cards-at-4-2-3",
    ),
    pytest.param(
        _classic("four_two_two", {"cards": {"A": "As Ad Kc 9h"}, "community": "Qs Qd 2c", **IN}),
        "hand 1: this table has no community card",
        id="community-cards-at-4-2-2",
    ),
    pytest.param(
        _classic(
            "four_two_two",
            {"cards": {"A": "As Ad Kc 9h"}, "versus": "2d Ks Kh", **IN},
            lone_vs_deck=True,
        ),
        "hand 1: the deck's hand has 4 cards; got 3: 2d Ks Kh",
        id="three-cards-for-the-decks-hand",
    ),
    pytest.param(
        _classic("four_two_two", {"cards": {"A": "As Ad Kc 9h"}, "up": {"A": "2c"}, **IN}),
        "hand 1: A has 2 face-up cards; got 1: 2c",
        id="one-face-up-card",
    ),
    pytest.param(
        _classic("two_card", {"cards": {"A": "As Kd 2c"}, **IN}),
        "hand 1: A's hand has 2 cards; got 3: As Kd 2c",
        id="three-cards-for-a-2-card-hand",
    ),
    pytest.param(
        _classic("kitty", {"cards": {"A": "As Kd"}, "ghost": ["Qs", "4d"], **IN}),
        'hand 1: ghost: write the cards as one text, such as "Qs 4d"; got a list',
        id="ghost-as-a-list",
    ),
    pytest.param(
        _classic("kitty", {"cards": {"A": "As Kd"}, "ghost": 5, **IN}),
        'hand 1: ghost: write the cards as one text, such as "Qs 4d"; got a number: 5',
        id="ghost-as-a-number",
    ),
    pytest.param(
        _classic("batey", {"cards": {"A": "As Kd"}, "community": ["Qs"], **IN}),
        'hand 1: community: write the cards as one text, such as "Qs 4d"; got a list',
        id="community-as-a-list",
    ),
    pytest.param(
        _online({"cards": {"A": "As Kd 2c"}, "ghost": "Qs 4d Ah", **IN}),
        "hand 1: this table has no ghost hand, so a hand names no 'ghost' (preset monte_carlo)",
        id="a-ghost-in-an-online-script",
    ),
    pytest.param(
        _online({"cards": {"A": "As Kd 2c"}, "community": "Qs", **IN}),
        "hand 1: this table has no community card, so a hand names no 'community'",
        id="a-community-card-in-an-online-script",
    ),
    pytest.param(
        _online({"cards": {"A": ["As", "Kd", "2c"]}, **IN}),
        """hand 1: A's cards: write the cards as one text, such as "Qs 4d"; got a list""",
        id="online-cards-as-a-list",
    ),
    pytest.param(
        _online({"cards": {"A": "As Kd"}, **IN}),
        "hand 1: A's hand has 3 cards; got 2: As Kd",
        id="two-cards-for-an-online-hand",
    ),
]


@pytest.mark.parametrize(("data", "message"), WRONG)
def test_a_script_with_cards_of_the_wrong_count_or_form_says_what_was_expected(
    data: dict[str, Any], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ValueError, match=f"^{re.escape(message)}"):
        commands.script(data)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data))
    assert main(["script", str(path)]) == 2
    assert f"error: {message}" in capsys.readouterr().err


def test_the_right_counts_still_play() -> None:
    kitty = commands.script(_classic("kitty", {"cards": {"A": "As Kd"}, "ghost": "Qs 4d", **IN}))
    assert kitty["hands"][0]["winners"] == {"A": 291}
    batey = commands.script(_classic("batey", {"cards": {"A": "As Kd"}, "community": "Qs", **IN}))
    assert batey["hands"][0]["winners"] == {"A": 291}
    three = commands.script(
        _classic("kitty", {"cards": {"A": "As Ad 2c"}, "ghost": "Qs Qd 3c", **IN}, cards=3)
    )
    assert three["hands"][0]["winners"] == {"A": 291}
