"""What each seat may see at a Chinese Poker table, and what it may do.

Before the reveal a seat sees its own 13 cards and its own current rows, and of everyone else
only whether they have submitted or surrendered. After the reveal (until the next deal) every
shown hand's rows, its natural and status, each pair's units and the payments are public. A
surrendered hand is never shown: its rows were not compared. With a time bank, each seat shows
its reserve (``time_bank``, seconds), ``on_time_bank`` and, while it runs, ``time_bank_ends``.

>>> from games.chinese_poker.config import ChinesePokerConfig
>>> from games.chinese_poker.state import new_table
>>> table = view(new_table(ChinesePokerConfig(unit=100)), None)
>>> table["phase"], table["seats"][0]["status"], table["you"]
('waiting', 'empty', None)
"""

from __future__ import annotations

from typing import Any

from games.cards import DECK
from games.chinese_poker.naturals import NATURALS
from games.chinese_poker.solver import best_arrangement
from games.chinese_poker.state import ChinesePokerState, Entry
from games.time_bank import seat_view

__all__ = ["legal_actions", "suggestion", "view"]

JSON = dict[str, Any]


def _text(cards: tuple[int, ...]) -> list[str]:
    return [str(DECK[index]) for index in cards]


def _rows(entry: Entry) -> JSON | None:
    if not entry.front:
        return None
    return {"front": _text(entry.front), "middle": _text(entry.middle), "back": _text(entry.back)}


def _seat_view(state: ChinesePokerState, number: int, viewer: int | None) -> JSON:
    seat = state.seats[number]
    if seat is None:
        return {"seat": number, "status": "empty", "stack": 0, "card_count": 0}
    entry = state.entry(number)
    playing = entry is not None and state.in_hand
    data: JSON = {
        "seat": number,
        "player": seat.player,
        "stack": seat.stack,
        "status": "sitting_out" if seat.sitting_out else ("playing" if playing else "seated"),
        "connected": seat.connected,
        "leaving": seat.leaving,
        "card_count": 13 if playing else 0,
        "hand_status": entry.status if entry is not None else None,
    }
    if state.config.time_bank:
        data.update(seat_view(state.banks, number))
    if entry is None:
        return data
    revealed = state.result is not None
    if number == viewer and (playing or revealed):
        data["cards"] = _text(entry.cards)
    if revealed and entry.status != "surrendered":
        data["rows"] = _rows(entry)
        data["natural"] = entry.natural
        data["cards"] = _text(entry.cards)
    if revealed and state.result is not None:
        for seat_number, kind, _natural, why in state.result.statuses:
            if seat_number == number:
                data["result"] = kind
                data["why"] = why
    return data


def _result(state: ChinesePokerState) -> JSON | None:
    result = state.result
    if result is None:
        return None
    return {
        "pairs": [
            {"seats": [first, second], "rows": None if rows is None else list(rows)}
            | {"total": total, "reason": reason}
            for first, second, rows, total, reason in result.pairs
        ],
        "payments": [
            {"from": payer, "to": winner, "amount": amount}
            for payer, winner, amount in result.payments
        ],
        "units": {str(seat): units for seat, units in result.units},
    }


def view(state: ChinesePokerState, seat: int | None) -> JSON:
    """Exactly what ``seat`` (``None``: a spectator) may see, as JSON."""
    deadline = state.deadline if state.phase in ("setting", "pause") else None
    you: JSON | None = None
    if seat is not None and 0 <= seat < len(state.seats) and state.seats[seat] is not None:
        entry = state.entry(seat)
        mine = entry is not None and (state.in_hand or state.result is not None)
        you = {
            "seat": seat,
            "cards": _text(entry.cards) if mine and entry is not None else [],
            "rows": _rows(entry) if mine and entry is not None else None,
            "natural": entry.natural if mine and entry is not None else None,
            "legal_actions": legal_actions(state, seat),
        }
    return {
        "game": "chinese-poker",
        "phase": state.phase,
        "deadline": deadline,
        "pot": 0,
        "hand": state.hand_number,
        "button": state.button if state.button >= 0 else None,
        "unit": state.config.unit,
        "next_unit": state.next_unit,
        "hand_fee": state.config.hand_fee,
        "seats": [_seat_view(state, number, seat) for number in range(len(state.seats))],
        "you": you,
        "result": _result(state),
    }


def legal_actions(state: ChinesePokerState, seat: int) -> list[JSON]:
    """What ``seat`` may do now, as action templates (the UI fills in rows and amounts)."""
    if not 0 <= seat < len(state.seats):
        return []
    current = state.seats[seat]
    if current is None:
        return [{"kind": "sit", "min_stack": state.config.min_buy_in}]
    entry = state.entry(seat) if state.in_hand else None
    actions: list[JSON] = []
    if entry is not None and entry.status == "setting":
        actions.append({"kind": "set"})
        if entry.front:
            actions.append({"kind": "submit"})
        actions.append({"kind": "surrender"})
        actions.append({"kind": "declare_natural", "naturals": list(NATURALS)})
    if not current.leaving:
        actions.append({"kind": "leave"})
    if entry is None:
        actions.append({"kind": "top_up"})
    actions.append({"kind": "sit_in" if current.sitting_out else "sit_out"})
    return actions


def suggestion(state: ChinesePokerState, seat: int) -> JSON | None:
    """The solver's arrangement of ``seat``'s cards in the hand being played, or ``None``."""
    entry = state.entry(seat) if state.in_hand else None
    if entry is None:
        return None

    best = best_arrangement([DECK[index] for index in entry.cards])
    return {
        "front": [str(card) for card in best.front],
        "middle": [str(card) for card in best.middle],
        "back": [str(card) for card in best.back],
        "natural": best.natural,
    }
