"""Hypothesis: random action sequences conserve chips and every round ends."""

from __future__ import annotations

from typing import Any

from hypothesis import event as note
from hypothesis import given, settings
from hypothesis import strategies as st

from games.cards import DECK
from games.engine import IllegalAction
from games.three_card_poker.config import TableConfig
from games.three_card_poker.events import HandEnded, HandStarted
from games.three_card_poker.game import GAME
from games.three_card_poker.state import TableState, new_table
from games.three_card_poker.tally import Tally

CONFIG = TableConfig(seats=3, min_ante=10, max_ante=400, max_pair_plus=150, bet_seconds=5)
CARDS = [str(card) for card in DECK]


def candidates(state: TableState, data: st.DataObject, now: float) -> list[dict[str, Any]]:
    """Legal actions with their amounts drawn, a deal or timeout when due, and a random one."""
    found: list[dict[str, Any]] = []
    for seat in range(CONFIG.seats):
        for legal in GAME.legal_actions(state, seat):
            action: dict[str, Any] = {"kind": legal["kind"], "seat": seat, "now": now}
            if legal["kind"] == "sit":
                action["stack"] = data.draw(st.integers(legal["min_stack"], 3_000))
            elif legal["kind"] == "bet":
                bettor = state.seats[seat]
                assert bettor is not None
                ante = data.draw(st.integers(legal["min_ante"], legal["max_ante"]))
                room = min(CONFIG.max_pair_plus, bettor.stack - 2 * ante)
                action.update(ante=ante, pair_plus=data.draw(st.integers(0, room)))
            elif legal["kind"] == "top_up":
                action["amount"] = data.draw(st.integers(1, 1_000))
            found.append(action)
        occupant = state.seats[seat]
        if occupant is not None:
            kind = "disconnect" if occupant.connected else "connect"
            found.append({"kind": kind, "seat": seat, "now": now})
    if GAME.wants_deck(state):
        found.append({"kind": "deal", "deck": data.draw(st.permutations(CARDS)), "now": now})
    if state.deadline is not None:
        found.append({"kind": "timeout", "now": state.deadline})
    found.append(
        {
            "kind": data.draw(st.sampled_from(["bet", "play", "fold", "leave", "top_up", "sit"])),
            "seat": data.draw(st.integers(-1, CONFIG.seats)),
            "ante": data.draw(st.integers(-5, 500)),
            "pair_plus": data.draw(st.integers(-5, 200)),
            "amount": data.draw(st.integers(-5, 500)),
            "stack": data.draw(st.integers(-5, 3_000)),
            "now": now,
        }
    )
    return found


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_random_actions_conserve_chips_and_every_round_ends(data: st.DataObject) -> None:
    state = new_table(CONFIG)
    tally = Tally()
    events: list[Any] = []
    now = 0.0
    for _ in range(data.draw(st.integers(5, 80))):
        action = data.draw(st.sampled_from(candidates(state, data, now)))
        try:
            state, new = GAME.apply(state, action)
        except IllegalAction:
            continue
        now = max(now, action["now"])
        tally.post(new)
        events.extend(new)
        assert tally.conserved(state)
        assert all(seat.stack >= 0 for seat in state.occupied())
    for _ in range(4):  # at most: a betting timeout, the deal, a deciding timeout
        if GAME.wants_deck(state):
            state, new = GAME.apply(state, {"kind": "deal", "deck": CARDS, "now": now})
        elif state.phase == "deciding" or any(seat.ante for seat in state.occupied()):
            assert state.deadline is not None
            now = state.deadline
            state, new = GAME.apply(state, {"kind": "timeout", "now": now})
        else:
            break
        tally.post(new)
        events.extend(new)
    assert not any(seat.ante or seat.play or seat.pair_plus for seat in state.occupied())
    assert state.phase in ("idle", "betting")
    assert tally.conserved(state)
    started = [event for event in events if isinstance(event, HandStarted)]
    ended = [event for event in events if isinstance(event, HandEnded)]
    assert len(started) == len(ended)
    note(f"hands played: {min(len(ended), 3)}+" if ended else "no hand")
    # Bets returned before a deal net to zero, so the house holds exactly the hands' results.
    assert tally.balance["house"] == sum(event.house for event in ended)
    assert GAME.load(GAME.dump(state)) == state
