"""The time bank (games/time_bank.py) and the three games that give one: classic Guts in turn,
Chinese Poker's setting, Three Card Poker's Play or Fold."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import DECK
from games.chinese_poker.config import ChinesePokerConfig
from games.chinese_poker.config import make_config as chinese_config
from games.chinese_poker.engine import GAME as CHINESE
from games.chinese_poker.state import ChinesePokerState
from games.chinese_poker.state import new_table as chinese_table
from games.engine import ConfigError, IllegalAction
from games.guts import GAME as GUTS
from games.guts import make_config as guts_config
from games.guts.classic.state import ClassicState
from games.three_card_poker.config import TableConfig
from games.three_card_poker.config import make_config as tcp_config
from games.three_card_poker.game import GAME as TCP
from games.three_card_poker.state import TableState
from games.three_card_poker.state import new_table as tcp_table
from games.time_bank import Banks, check_time_bank, expire, next_deadline
from tests.games.guts.classic.classic_helpers import Classic


def types(events: Any) -> list[str]:
    return [event.type for event in events]


# ---- the shared arithmetic ----


def test_a_timeout_with_a_reserve_starts_the_bank_at_the_passed_deadline() -> None:
    out = expire(Banks.full(2, 30.0), [0, 1], deadline=100.0, now=100.4)
    assert out.started == ((0, 30.0), (1, 30.0))
    assert out.expired == ()
    assert out.deadline == 130.0  # from the deadline, not from the clock's late arrival
    assert [event.to_json() for event in out.events()] == [
        {"type": "time_bank", "seat": 0, "seconds": 30.0},
        {"type": "time_bank", "seat": 1, "seconds": 30.0},
    ]


def test_a_timeout_without_a_reserve_is_the_usual_timeout() -> None:
    banks = Banks.full(2, 30.0).emptied(1)
    out = expire(banks, [0, 1], deadline=100.0, now=100.0)
    assert out.started == ((0, 30.0),)
    assert out.expired == (1,)
    assert out.deadline == 130.0


def test_acting_on_the_bank_takes_the_time_used_and_keeps_the_rest() -> None:
    banks = expire(Banks.full(1, 30.0), [0], deadline=100.0, now=100.0).banks
    after = banks.charged(0, now=112.25, deadline=130.0)
    assert after.left == (17.75,)
    assert not after.running(0)


def test_acting_before_the_deadline_costs_nothing() -> None:
    banks = Banks.full(1, 30.0)
    assert banks.charged(0, now=99.0, deadline=100.0) == banks


def test_acting_late_before_the_clock_arrives_pays_from_the_reserve() -> None:
    # The bank had not started yet (the clock's timeout was still on its way).
    assert Banks.full(1, 30.0).charged(0, now=104.0, deadline=100.0).left == (26.0,)


def test_the_bank_running_out_times_out_and_empties_the_reserve() -> None:
    banks = expire(Banks.full(1, 30.0), [0], deadline=100.0, now=100.0).banks
    out = expire(banks, [0], deadline=130.0, now=130.0)
    assert out.expired == (0,)
    assert out.banks.left == (0.0,)
    assert out.deadline is None


def test_a_clock_late_past_the_whole_bank_times_out_at_once() -> None:
    out = expire(Banks.full(1, 30.0), [0], deadline=100.0, now=140.0)
    assert (out.started, out.expired, out.banks.left) == ((), (0,), (0.0,))


def test_each_pending_player_has_their_own_deadline() -> None:
    banks = Banks((10.0, 30.0), (None, None))
    out = expire(banks, [0, 1], deadline=100.0, now=100.0)
    assert out.deadline == 110.0
    later = expire(out.banks, [0, 1], deadline=110.0, now=110.0)
    assert later.expired == (0,)
    assert later.started == ()
    assert later.deadline == 130.0
    assert next_deadline(later.banks, [1], 110.0) == 130.0


def test_an_older_state_without_banks_reads_full_ones() -> None:
    assert Banks.from_json(None, 3, 20.0) == Banks.full(3, 20.0)
    banks = Banks((5.5, 0.0), (101.0, None))
    assert Banks.from_json(banks.to_json(), 2, 30.0) == banks


@pytest.mark.parametrize(
    ("seconds", "refill", "rounds", "message"),
    [
        (-1, "hand", True, "time_bank must be a number of seconds from 0"),
        ("30", "hand", True, "time_bank must be a number of seconds from 0"),
        (True, "hand", True, "time_bank must be a number of seconds from 0"),
        (601, "hand", True, "time_bank must be a number of seconds from 0"),
        (30, "deal", True, "time_bank_refill must be hand or round, not 'deal'"),
        (30, "round", False, "time_bank_refill must be hand (this game has no rounds)"),
    ],
)
def test_settings_are_checked_in_words(
    seconds: Any, refill: Any, rounds: bool, message: str
) -> None:
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace(")", r"\)")):
        check_time_bank(seconds, refill, rounds=rounds)


# ---- the games' settings ----


def test_the_presets_give_a_bank_where_a_turn_is_ones_own() -> None:
    assert guts_config("two_card", {"ante": 100}).time_bank == 30.0
    assert guts_config("napalm", {"ante": 100}).time_bank == 30.0
    assert guts_config("simultaneous", {"ante": 100}).time_bank == 0.0
    assert guts_config("survivor", {"ante": 100}).to_json().get("time_bank") is None
    assert chinese_config("unit-1").time_bank == 30.0
    assert tcp_config("standard").time_bank == 30.0
    assert tcp_config("standard", {"time_bank": 0}).time_bank == 0.0


def test_a_simultaneous_declare_takes_no_bank() -> None:
    with pytest.raises(ConfigError, match="time_bank needs declare=sequential"):
        guts_config("simultaneous", {"ante": 100, "time_bank": 30})


def test_online_guts_has_no_time_bank() -> None:
    with pytest.raises(ConfigError, match="unknown option 'time_bank'"):
        guts_config("survivor", {"ante": 100, "time_bank": 30})


def test_only_classic_guts_refills_by_round() -> None:
    assert guts_config("two_card", {"ante": 100, "time_bank_refill": "round"}).time_bank_refill
    with pytest.raises(ConfigError, match="no rounds"):
        chinese_config("unit-1", {"time_bank_refill": "round"})
    with pytest.raises(ConfigError, match="no rounds"):
        tcp_config("standard", {"time_bank_refill": "round"})


# ---- classic Guts, in turn ----


def test_classic_a_turn_that_times_out_goes_on_the_bank_then_out() -> None:
    table = Classic(time_bank=20)
    table.deal()
    turn = table.state.turn
    deadline = table.state.deadline
    assert turn is not None and deadline is not None
    events = table.timeout()
    assert [event.to_json() for event in events] == [
        {"type": "time_bank", "seat": turn, "seconds": 20.0}
    ]
    assert table.state.turn == turn
    assert table.state.deadline == deadline + 20
    seat = GUTS.view(table.state, None)["seats"][turn]
    assert (seat["on_time_bank"], seat["time_bank"]) == (True, 20.0)
    assert seat["time_bank_ends"] == deadline + 20
    with pytest.raises(IllegalAction):
        table.act("timeout")  # before the bank's end: refused
    events = table.timeout()
    assert events[0].to_json() == {
        "type": "declared",
        "seat": turn,
        "choice": "out",
        "timed_out": True,
    }
    assert table.state.banks.left[turn] == 0.0
    assert table.state.turn != turn


def test_classic_a_declare_on_the_bank_keeps_what_is_left() -> None:
    table = Classic(time_bank=20)
    table.deal()
    turn = table.state.turn
    assert turn is not None and table.state.deadline is not None
    table.timeout()
    table.now += 7.5
    table.act("declare", turn, choice="in")
    assert table.state.banks.left[turn] == 12.5
    assert not table.state.banks.running(turn)
    nxt = table.state.turn
    assert nxt is not None and table.state.deadline == table.now + 15.0
    assert GUTS.view(table.state, None)["seats"][nxt]["on_time_bank"] is False


def _finish_hand(table: Classic) -> None:
    while table.state.phase == "declare":
        turn = table.state.turn
        assert turn is not None
        table.act("declare", turn, choice="in")


@pytest.mark.parametrize(("refill", "kept"), [("hand", 20.0), ("round", 12.5)])
def test_classic_the_reserve_is_full_again_each_hand_or_each_game(refill: str, kept: float) -> None:
    table = Classic(time_bank=20, time_bank_refill=refill)
    table.deal()
    first = table.state.turn
    assert first is not None
    table.timeout()
    table.now += 7.5
    table.act("declare", first, choice="in")
    _finish_hand(table)
    assert table.state.game_active  # the losers In matched the pot: the game goes on
    table.deal()
    assert table.state.banks.left[first] == kept


def test_classic_a_stored_state_round_trips_its_banks_and_an_older_one_loads_full() -> None:
    table = Classic(time_bank=20)
    table.deal()
    table.timeout()
    data = GUTS.dump(table.state)
    assert GUTS.load(data) == table.state
    older = {key: value for key, value in data.items() if key != "banks"}
    loaded = GUTS.load(older)
    assert isinstance(loaded, ClassicState)
    assert loaded.banks == Banks.full(loaded.config.seats, 20.0)


# ---- Chinese Poker ----


def _chinese(seconds: float = 30.0) -> ChinesePokerState:
    state = chinese_table(ChinesePokerConfig(unit=100, pause_seconds=0, time_bank=seconds))
    for seat in (0, 1, 2):
        state, _ = CHINESE.apply(state, {"kind": "sit", "seat": seat, "stack": 5000, "now": 0})
    deck = [str(card) for card in DECK]
    state, _ = CHINESE.apply(state, {"kind": "deal", "deck": deck, "now": 0})
    return state


def test_chinese_each_player_setting_has_their_own_bank() -> None:
    state = _chinese()
    deadline = state.deadline
    assert deadline == 90.0
    state, events = CHINESE.apply(state, {"kind": "timeout", "now": deadline})
    assert types(events) == ["time_bank", "time_bank", "time_bank"]
    assert state.phase == "setting" and state.deadline == 120.0
    state, events = CHINESE.apply(state, {"kind": "surrender", "seat": 1, "now": 100.0})
    assert state.banks.left[1] == 20.0
    assert state.deadline == 120.0
    with pytest.raises(IllegalAction):
        CHINESE.apply(state, {"kind": "timeout", "now": 119.0})
    state, events = CHINESE.apply(state, {"kind": "timeout", "now": 120.0})
    assert types(events).count("hand_submitted") == 2
    assert state.phase == "waiting" or state.phase == "ready"
    assert state.banks.left == (0.0, 20.0, 0.0, 30.0)


def test_chinese_the_view_shows_every_seats_reserve() -> None:
    state = _chinese(10.0)
    state, _ = CHINESE.apply(state, {"kind": "timeout", "now": 90.0})
    seat = CHINESE.view(state, None)["seats"][2]
    assert (seat["time_bank"], seat["on_time_bank"], seat["time_bank_ends"]) == (10.0, True, 100.0)
    none = CHINESE.view(_chinese(0.0), None)["seats"][2]
    assert "time_bank" not in none


def test_chinese_an_older_state_loads_with_full_banks() -> None:
    state = _chinese()
    data = CHINESE.dump(state)
    assert CHINESE.load(data) == state
    del data["banks"]
    assert CHINESE.load(data).banks == Banks.full(4, 30.0)


# ---- Three Card Poker, and the property over random act times ----


def _tcp(players: int, seconds: float, decision: int = 15) -> TableState:
    config = TableConfig(decision_seconds=decision, time_bank=seconds)
    state = tcp_table(config)
    for seat in range(players):
        state, _ = TCP.apply(state, {"kind": "sit", "seat": seat, "stack": 10_000, "now": 0.0})
    for seat in range(players):
        state, _ = TCP.apply(state, {"kind": "bet", "seat": seat, "ante": 100, "now": 0.0})
    deck = [str(card) for card in DECK]
    state, _ = TCP.apply(state, {"kind": "deal", "deck": deck, "now": 0.0})
    assert state.phase == "deciding"
    return state


def test_tcp_a_decision_after_ones_own_deadline_is_refused() -> None:
    state = _tcp(2, 10.0)
    state, events = TCP.apply(state, {"kind": "timeout", "now": 15.0})
    assert types(events) == ["time_bank", "time_bank"]
    with pytest.raises(IllegalAction, match="run out"):
        TCP.apply(state, {"kind": "play", "seat": 0, "now": 25.5})
    state, events = TCP.apply(state, {"kind": "play", "seat": 0, "now": 24.0})
    assert state.banks.left[0] == 1.0
    state, events = TCP.apply(state, {"kind": "timeout", "now": 25.0})
    assert {"type": "folded", "seat": 1, "ante": 100, "timed_out": True} in [
        event.to_json() for event in events
    ]
    assert state.phase != "deciding"


@settings(max_examples=150, deadline=None)
@given(
    players=st.integers(min_value=1, max_value=4),
    reserve=st.sampled_from([0.0, 0.5, 7.25, 30.0]),
    acts=st.lists(
        st.one_of(st.none(), st.floats(min_value=0.0, max_value=60.0, allow_nan=False)),
        min_size=4,
        max_size=4,
    ),
)
def test_tcp_property_banks_stay_in_bounds_and_each_timeout_applies_once(
    players: int, reserve: float, acts: list[float | None]
) -> None:
    """The runtime's order: a player's action at ``t`` comes after every timeout due by ``t``.
    Whatever the act times: no reserve leaves [0, setting]; a decision is accepted only within
    the timer plus the reserve; every player decides or is folded by the clock exactly once."""
    timer = 15
    state = _tcp(players, reserve, timer)
    start = 0.0
    folded_by_clock: list[int] = []
    decided: dict[int, float] = {}
    wanted = sorted((time, seat) for seat, time in enumerate(acts[:players]) if time is not None)

    def timeouts_until(moment: float) -> None:
        nonlocal state
        while state.phase == "deciding" and state.deadline is not None:
            if state.deadline > moment:
                return
            state, events = TCP.apply(state, {"kind": "timeout", "now": state.deadline})
            for event in events:
                data = event.to_json()
                if data["type"] == "folded":
                    assert data["timed_out"]
                    folded_by_clock.append(data["seat"])
            check_bounds()

    def check_bounds() -> None:
        for left in state.banks.left:
            assert 0.0 <= left <= reserve

    for time, seat in wanted:
        timeouts_until(time)
        if state.phase != "deciding":
            break
        occupant = state.seats[seat]
        assert occupant is not None
        if occupant.decision is not None:
            continue
        state, _ = TCP.apply(state, {"kind": "play", "seat": seat, "now": time})
        assert time - start <= timer + reserve
        decided[seat] = time
        if time > start + timer:
            assert state.banks.left[seat] == pytest.approx(reserve - (time - start - timer))
        check_bounds()
    timeouts_until(float("inf"))
    assert state.phase != "deciding"
    assert sorted(folded_by_clock) == sorted(set(folded_by_clock))
    assert set(folded_by_clock) | set(decided) == set(range(players))
    assert not set(folded_by_clock) & set(decided)
    assert not any(state.banks.running(seat) for seat in range(players))


def test_tcp_an_older_state_loads_with_full_banks() -> None:
    state = _tcp(2, 30.0)
    data = TCP.dump(state)
    assert TCP.load(data) == state
    del data["banks"]
    assert TCP.load(data).banks == Banks.full(6, 30.0)
    assert replace(state, banks=Banks((), ())).banks == Banks.full(6, 30.0)
