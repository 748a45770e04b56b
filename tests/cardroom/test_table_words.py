"""The table page in words a player reads: a hand the clock mucked is not "You chose OUT", and
the house games show no pot."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from cardroom.models import Table
from cardroom.presentation import describe_table

pytestmark = pytest.mark.django_db


def you_panel(you: dict) -> str:
    state = {"type": "state", "version": 3, "table": {"seats": [], "phase": "pause"}, "you": you}
    return render_to_string("cardroom/partials/_you.html", describe_table(state))


def test_a_mucked_hand_says_time_ran_out_and_a_chosen_out_says_so():
    base = {"seat": 0, "cards": ["As", "Kd", "2c"], "choice": "out", "legal_actions": []}
    assert "Time ran out: your hand was <strong>mucked</strong>" in you_panel(
        {**base, "timed_out": True}
    )
    chosen = you_panel({**base, "timed_out": False})
    assert "You chose <strong>OUT</strong>" in chosen
    assert "Time ran out" not in chosen


@pytest.mark.parametrize(("game", "shown"), [("guts", True), ("three_card_poker", False)])
def test_only_guts_shows_a_pot(game, shown):
    html = render_to_string(
        "cardroom/partials/_pot.html", {"table": Table(game=game), "pot_text": "$3.00"}
    )
    assert ("Pot" in html) is shown
    assert ("hidden" in html) is not shown


def seat_panel(status: str, **table: object) -> str:
    seat = {"seat": 0, "player": "ann", "stack": 1000, "status": status}
    view = {"seats": [seat], "phase": "pause", **table}
    state = {"type": "state", "version": 3, "table": view, "you": {"seat": 0, "cards": []}}
    return render_to_string("cardroom/partials/_you.html", describe_table(state))


def test_a_seat_that_is_not_playing_is_told_why_and_what_brings_it_back():
    assert "Press Sit in to play the next hand" in seat_panel("sitting_out")
    assert "dealt in when the next hand begins" in seat_panel("waiting")
    staged = seat_panel("waiting", stage={"number": 1, "words": "three cards"})
    assert "dealt in when the next game begins" in staged
    assert "Your cards appear here" in seat_panel("in_round")
