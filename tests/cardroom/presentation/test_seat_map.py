"""The seat map: every seat around the felt, the viewer's own at the bottom, open seats offered."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string

from cardroom.presentation import describe_table
from cardroom.presentation.seat_map import CELLS, initials, seat_map


@pytest.mark.parametrize("count", sorted(CELLS))
def test_every_seat_has_a_cell_of_its_own_on_the_edge_and_the_middle_is_left_to_the_pot(count):
    view = [{"seat": number, "status": "empty"} for number in range(count)]
    placed = seat_map(view, [], None)
    cells = [(place["row"], place["column"]) for place in placed["places"]]
    assert sorted(place["seat"] for place in placed["places"]) == list(range(count))
    assert len(set(cells)) == count
    rows = placed["rows"]
    middle = {(row, 2) for row in range(2, rows)}
    assert not middle & set(cells)
    assert placed["places"][0] == {**placed["places"][0], "seat": 0, "side": "bottom"}
    assert all(place["open"] and place["number"] == place["seat"] + 1 for place in placed["places"])


def test_the_viewer_sits_at_the_bottom_and_the_others_follow_clockwise():
    view = [{"seat": n, "status": "empty"} for n in range(6)]
    seated = [{"seat": 4, "player": "Ann Lee"}, {"seat": 1, "player": "ben"}]
    placed = seat_map(view, seated, 4)["places"]
    assert [place["seat"] for place in placed] == [4, 5, 0, 1, 2, 3]
    assert placed[0]["side"] == "bottom" and placed[0]["initials"] == "AL"
    assert placed[3] is seated[1] and placed[3]["initials"] == "BE"
    assert placed[1] == {**placed[1], "open": True, "side": "left"}


def test_initials():
    assert [initials(name) for name in ("Ann Lee", "ben", "x", "", "joe_bloggs")] == [
        "AL", "BE", "X", "?", "JB"
    ]  # fmt: skip


def test_a_seat_s_chips_on_the_table_are_the_sum_of_its_bets():
    view = [{"seat": 0, "player": "ann", "ante": 100, "pair_plus": 50, "play": 0}]
    placed = seat_map(view, [dict(view[0])], 0)["places"]
    assert placed[0]["committed_text"] == "$1.50"


def _state(legal):
    seats = [
        {"seat": 0, "player": "ben", "stack": 20_000, "status": "waiting", "online": True},
        {"seat": 1, "status": "empty"},
        {"seat": 2, "status": "empty"},
    ]
    return {
        "version": 3,
        "table": {"phase": "waiting", "seats": seats, "pot": 0, "button": 0},
        "you": {"seat": None, "cards": [], "legal_actions": legal},
    }


def test_open_seats_offer_sit_here_with_the_sit_form_s_buy_in():
    context = describe_table(_state([{"kind": "sit", "min": 10_000, "max": None}]))
    html = render_to_string("cardroom/partials/_seats.html", context)
    assert html.count('class="sit-here"') == 2
    assert html.count('hx-include="#amount-sit"') == 2
    assert 'name="seat" value="1"' in html and 'name="seat" value="2"' in html
    assert 'data-seat="0"' in html and ">BE<" in html and "$200.00" in html
    assert "Sit here, in seat 3" in html
    # The page's own Sit down form, with the buy-in the Sit here buttons send, is still drawn.
    actions = render_to_string("cardroom/partials/_actions.html", context)
    assert 'id="amount-sit"' in actions


def test_a_viewer_who_may_not_sit_sees_open_seats_without_a_button():
    html = render_to_string("cardroom/partials/_seats.html", describe_table(_state([])))
    assert html.count('class="place open') == 2
    assert "sit-here" not in html
