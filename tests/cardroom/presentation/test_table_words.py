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
    assert "Press “Deal me in again” to play the next hand" in seat_panel("sitting_out")
    assert "dealt in when the next hand begins" in seat_panel("waiting")
    staged = seat_panel("waiting", stage={"number": 1, "words": "three cards"})
    assert "dealt in when the next game begins" in staged
    assert "Your cards appear here" in seat_panel("in_round")


def banner(phase: str, recent: list, player: str = "ann"):
    from cardroom.presentation.pages import result_banner

    context = {"phase": phase, "seats": [{"is_you": True, "player": player}]}
    return result_banner(context, recent)


def test_the_banner_says_what_the_last_hand_meant_for_the_viewer():
    hand = {
        "number": 4,
        "winners": [{"player": "ann", "amount": 1240}],
        "owed": [{"player": "ben", "amount": 1000}],
        "nets": [],
    }
    deal = {"hand": 4, "stage": None}  # the deal the banner belongs to
    assert banner("pause", [hand]) == {"kind": "won", "text": "You won $12.40", **deal}
    assert banner("pause", [hand], player="ben") == {
        "kind": "lost", "text": "You pay $10.00", **deal
    }  # fmt: skip
    assert banner("pause", [hand], player="cat") is None
    assert banner("declare", [hand]) is None  # the next hand is under way
    tcp = {"number": 4, "winners": [], "owed": [], "nets": [{"player": "ann", "amount": -500}]}
    assert banner("showdown", [tcp]) == {"kind": "lost", "text": "You lost $5.00", **deal}


def test_one_sit_out_control_and_the_seats_controls_apart():
    legal = [{"kind": "ante", "amount": 100}, {"kind": "decline"}, {"kind": "sit_out"},
             {"kind": "leave"}]  # fmt: skip
    state = {
        "type": "state",
        "version": 3,
        "table": {"seats": [], "phase": "ante"},
        "you": {"seat": 0, "cards": [], "legal_actions": legal},
    }
    context = describe_table(state)
    assert [b.kind for b in context["decisions"]] == ["ante"]
    assert [(b.kind, b.label) for b in context["seat_controls"]] == [
        ("decline", "Sit out this round"),
        ("leave", "Leave table"),
    ]
    html = render_to_string("cardroom/partials/_actions.html", context)
    assert html.index('class="decisions"') < html.index("action-ante")
    assert html.index('class="seat-controls"') < html.index("action-decline")
    assert "action-sit_out" not in html

    later = {**state, "you": {**state["you"], "legal_actions": [{"kind": "sit_out"}]}}
    (control,) = describe_table(later)["seat_controls"]
    assert control.label == "Sit out from the next hand"


def test_the_table_and_its_history_show_the_display_name(survivor_table, make_player):
    from cardroom.history.history import hand_history
    from cardroom.models import Hand
    from cardroom.tables.hand_log import recent_hands
    from cardroom.tables.runtime import table_act
    from tests.cardroom.driving import play_to_declare, run_clock

    ann, ben = make_player("ann"), make_player("ben")
    ann.display_name = "Lucky Ann"
    ann.save(update_fields=["display_name"])
    for player in (ann, ben):
        table_act(table_id=survivor_table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    play_to_declare(survivor_table, [ann, ben])
    table_act(table_id=survivor_table.pk, user=ann, action={"kind": "declare", "choice": "in"})
    table_act(table_id=survivor_table.pk, user=ben, action={"kind": "declare", "choice": "out"})
    survivor_table.refresh_from_db()
    assert "Lucky Ann" in [seat["player"] for seat in survivor_table.state["seats"] if seat]
    history = hand_history(hand=Hand.objects.get(table=survivor_table), user_id=ben.pk)
    assert any("Lucky Ann" in event["words"] for event in history["events"])
    assert not any(" ann " in f" {event['words']} " for event in history["events"])
    run_clock(survivor_table)
    assert recent_hands(table=survivor_table)[0]["winners"][0]["player"] == "Lucky Ann"
