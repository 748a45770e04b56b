"""What each seat and a spectator may see of an online Guts table; legal actions; dump and load."""

from __future__ import annotations

import json

import pytest

from games.guts import GAME

from .helpers import Table

AA = "As Ad 2c"
KK = "Ks Kd 3c"
QJ9 = "Qs Jd 9c"


def _seat(view: dict[str, object], index: int) -> dict[str, object]:
    seats = view["seats"]
    assert isinstance(seats, list)
    entry = seats[index]
    assert isinstance(entry, dict)
    return entry


def test_during_the_declare_a_seat_sees_its_own_cards_and_only_who_has_decided() -> None:
    table = Table()
    table.antes()
    table.deal(P0=AA, P1=KK, P2=QJ9)
    table.declare(P1="in")
    mine = GAME.view(table.state, 1)
    assert mine["you"]["cards"] == ["Ks", "Kd", "3c"]
    assert mine["you"]["choice"] == "in"
    assert _seat(mine, 1)["choice"] == "in"
    other = GAME.view(table.state, 0)
    assert "cards" not in _seat(other, 1) and "choice" not in _seat(other, 1)
    assert _seat(other, 1)["decided"] is True and _seat(other, 2)["decided"] is False
    assert _seat(other, 1)["card_count"] == 3
    spectator = GAME.view(table.state, None)
    assert spectator["you"] is None
    assert all("cards" not in _seat(spectator, index) for index in range(3))


def test_after_the_reveal_in_hands_are_public_and_out_hands_only_their_owners() -> None:
    table = Table()
    table.hand(P0=AA, P1=KK, P2=QJ9, P0_choice="in", P1_choice="in", P2_choice="out")
    spectator = GAME.view(table.state, None)
    assert _seat(spectator, 0)["cards"] == ["As", "Ad", "2c"]
    assert _seat(spectator, 0)["hand"] == "pair of aces, two kicker"
    assert _seat(spectator, 2)["choice"] == "out"
    assert "cards" not in _seat(spectator, 2)
    assert "Qs" not in json.dumps(GAME.view(table.state, 0))
    assert GAME.view(table.state, 2)["you"]["cards"] == ["Qs", "Jd", "9c"]


def test_no_public_event_carries_an_out_hand() -> None:
    table = Table()
    table.hand(P0=AA, P1=KK, P2=QJ9, P0_choice="in", P1_choice="out", P2_choice="out")
    public = json.dumps([e.to_json() for e in table.events if e.visible_to(None)])
    for card in ("Ks", "Kd", "3c", "Qs", "Jd", "9c"):
        assert card not in public
    seen_by_p1 = json.dumps([e.to_json() for e in table.events if e.visible_to(1)])
    assert "Ks" in seen_by_p1 and "Qs" not in seen_by_p1
    assert [e.private_to for e in table.events if e.type == "cards_dealt"] == [1, 2, 0]


def test_the_cards_leave_the_view_at_the_next_ante_call() -> None:
    table = Table()
    table.hand(P0=AA, P1=KK, P0_choice="in", P1_choice="in", P2_choice="out")
    table.timeout()
    assert all("cards" not in _seat(GAME.view(table.state, None), index) for index in range(3))
    assert GAME.view(table.state, 2)["you"]["cards"] == []


def test_legal_actions_follow_the_phase() -> None:
    table = Table(max_buy_in=12_000)
    table.timeout()
    assert GAME.legal_actions(table.state, 0) == [
        {"kind": "ante", "amount": 100},
        {"kind": "decline"},
        {"kind": "top_up", "min": 1, "max": 2_000},
        {"kind": "sit_out"},
        {"kind": "leave"},
    ]
    table.antes()
    assert GAME.wants_deck(table.state)
    table.deal()
    assert GAME.legal_actions(table.state, 0) == [
        {"kind": "declare", "choices": ["in", "out"]},
        {"kind": "sit_out"},
        {"kind": "leave"},
    ]
    table.declare(P0="in")
    assert GAME.legal_actions(table.state, 0) == [{"kind": "sit_out"}, {"kind": "leave"}]


def test_a_short_loser_is_offered_a_top_up_or_to_pay_what_they_have() -> None:
    table = Table(stacks=(10_000, 10_000, 350))
    table.hand(P0=AA, P1=KK, P2=QJ9, P0_choice="in", P1_choice="in", P2_choice="in")
    assert GAME.legal_actions(table.state, 2)[:2] == [
        {"kind": "decline", "owed": 300, "pays": 250},
        {"kind": "top_up", "min": 1, "max": None},
    ]
    assert _seat(GAME.view(table.state, None), 2)["status"] == "owes"


def test_an_empty_seat_offers_to_sit() -> None:
    table = Table(stacks=(10_000, 10_000), seats=3)
    assert GAME.legal_actions(table.state, 2) == [{"kind": "sit", "min": 10_000, "max": None}]
    assert GAME.legal_actions(table.state, 7) == []


@pytest.mark.parametrize("steps", [0, 1, 2, 3, 4, 5])
def test_dump_and_load_give_back_the_same_state_in_every_phase(steps: int) -> None:
    table = Table(stacks=(10_000, 10_000, 350))
    moves = [
        lambda: table.timeout(),
        lambda: table.antes(),
        lambda: table.deal(P0=AA, P1=KK, P2=QJ9),
        lambda: table.declare(P0="in", P2="in"),
        lambda: table.declare(P1="in"),
        lambda: table.timeout(),
    ]
    for move in moves[:steps]:
        move()
    data = GAME.dump(table.state)
    assert GAME.load(json.loads(json.dumps(data))) == table.state
