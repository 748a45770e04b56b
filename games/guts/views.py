"""What one seat, or a spectator, may see of an online Guts table; and its legal actions.

Privacy (docs/rules/guts-online.md, steps 2 to 4): a seat sees its own cards from the deal to the
next ante call; the others' cards stay hidden until the reveal, and then only In hands are
shown. While the declare is open, everyone sees which seats have ``decided`` (as online rooms
show) but a choice is visible only to its owner; the choices are public once the declare ends.

>>> from games.guts.config import online_config
>>> from games.guts.table import new_table
>>> state = new_table(online_config("monte_carlo", {"ante": 100, "seats": 2}))
>>> legal_actions(state, 0)
[{'kind': 'sit', 'min': 10000, 'max': None}]
>>> view(state, None)["seats"][1]
{'seat': 1, 'status': 'empty'}
"""

from __future__ import annotations

from typing import Any

from games.cards import DECK
from games.guts.rounds import can_ante, in_live_hand
from games.guts.seat_views import seat_actions, seat_entry, sit_actions
from games.guts.showdown import describe
from games.guts.table import OnlineState

__all__ = ["legal_actions", "view"]

JSON = dict[str, Any]


def legal_actions(state: OnlineState, seat: int) -> list[JSON]:
    """The actions ``seat`` may take now, as JSON objects with a ``kind`` and their limits."""
    if not 0 <= seat < len(state.seats):
        return []
    config = state.config
    player = state.seats[seat]
    if player is None:
        return sit_actions(config)
    actions: list[JSON] = []
    phase = state.phase
    if phase == "declare" and seat in state.dealt and not state.choices[seat]:
        actions.append({"kind": "declare", "choices": ["in", "out"]})
    if phase == "ante" and seat in state.pending:
        amount = can_ante(state, player)
        if amount:
            actions.append({"kind": "ante", "amount": amount})
        actions.append({"kind": "decline"})
    owed = state.owed[seat] if phase in ("ante", "pause") else 0
    if owed:
        actions.append({"kind": "decline", "owed": owed, "pays": min(player.stack, owed)})
    return actions + seat_actions(config, player, in_hand=in_live_hand(state, seat))


def _status(state: OnlineState, index: int) -> str:
    seat = state.seats[index]
    if seat is None:
        return "empty"
    if seat.leaving:
        return "leaving"
    if state.owed[index]:
        return "owes"
    if in_live_hand(state, index):
        return "in_hand"
    if seat.in_round or index in state.pending or index in state.confirmed:
        return "in_round"
    return "sitting_out" if seat.sitting_out else "waiting"


def view(state: OnlineState, seat: int | None) -> JSON:
    """Exactly what ``seat`` (``None``: a spectator or the public history) may see, as JSON.

    ``ante`` and ``match_cap`` are the stake in force; ``next_ante`` a tournament level's ante
    waiting for the next ante call (``None``: none)."""
    config = state.config
    seats: list[JSON] = []
    for index, player in enumerate(state.seats):
        if player is None:
            seats.append({"seat": index, "status": "empty"})
            continue
        cards = state.cards[index]
        choice = state.choices[index]
        shown = state.shown and choice == "in"
        entry = seat_entry(index, player, _status(state, index), card_count=len(cards))
        entry["owes"] = state.owed[index]
        if cards and (index == seat or shown):
            entry["cards"] = [str(DECK[card]) for card in cards]
        if shown:
            entry["hand"] = describe("three_card", cards)
        if state.phase == "declare" and index in state.dealt:
            entry["decided"] = bool(choice)
        if choice and (state.shown or index == seat):
            entry["choice"] = choice
            if index in state.timed_out:
                entry["timed_out"] = True
        seats.append(entry)
    you: JSON | None = None
    if seat is not None and 0 <= seat < len(state.seats) and state.seats[seat] is not None:
        own = state.cards[seat]
        you = {
            "seat": seat,
            "cards": [str(DECK[card]) for card in own],
            "choice": state.choices[seat] or None,
            "timed_out": seat in state.timed_out,
            "legal_actions": legal_actions(state, seat),
        }
    return {
        "game": "guts",
        "variant": config.preset,
        "phase": state.phase,
        "deadline": state.deadline,
        "pot": state.pot,
        "ante": config.ante,
        "match_cap": config.match_cap,
        "next_ante": state.next_stake,
        "round": state.round,
        "hand": state.hand,
        "round_active": state.round_active,
        "button": state.button,
        "seats": seats,
        "you": you,
    }
