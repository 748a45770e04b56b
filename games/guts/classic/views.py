"""What one seat, or a spectator, may see of a classic Guts table; and its legal actions.

A seat sees its own cards (with No Peek only once the hand is over); face-up cards and the Batey
are public; other hands are public only once shown at the showdown (``revealed``), and the
ghost once it has played. A private comparison's hands (3-5-7, Napalm) are seen only by the
players In. Sequential choices are public as they are made; simultaneous choices show only
``decided`` until the declare ends. With a time bank, each seat shows its reserve
(``time_bank``, seconds), ``on_time_bank`` and, while it runs, ``time_bank_ends``. The games in
stages show each seat's marks (``legs``, ``nuts``, ``tokens`` or ``points``, with Toh's
``point_cards``) and the stage: its number, its words and its direction (``high`` or ``low``).

>>> from games.guts.classic.config import classic_config
>>> from games.guts.classic.state import new_classic_table
>>> state = new_classic_table(classic_config("two_card", {"ante": 100, "seats": 2}))
>>> classic_legal_actions(state, 1)
[{'kind': 'sit', 'min': 10000, 'max': None}]
"""

from __future__ import annotations

from typing import Any

from games.cards import DECK
from games.guts.classic import choices_of, in_hand
from games.guts.classic.config import STAGES
from games.guts.classic.stages import MARKS, describe_stage
from games.guts.classic.state import ClassicState
from games.guts.seat_views import seat_actions, seat_entry, sit_actions
from games.time_bank import seat_view

__all__ = ["classic_legal_actions", "classic_view", "ghost_played"]

JSON = dict[str, Any]


def _texts(cards: tuple[int, ...]) -> list[str]:
    return [str(DECK[card]) for card in cards]


def ghost_played(state: ClassicState) -> bool:
    """Whether the ghost hand (4-2-2: the deck's hand) took part in the showdown just played
    (so it is public)."""
    if state.phase != "pause" or not state.ghost or not state.dealt:
        return False
    if state.config.flow == "four_two":
        return True  # the deck's four cards, turned up against a lone hand (lone_vs_deck)
    ins = sum(1 for seat in state.dealt if state.choices[seat] not in ("", "out"))
    ghost = state.config.ghost
    return ins > 0 and (ghost == "always" or (ghost == "single_in" and ins == 1))


def classic_legal_actions(state: ClassicState, seat: int) -> list[JSON]:
    """The actions ``seat`` may take now."""
    if not 0 <= seat < len(state.seats):
        return []
    config = state.config
    player = state.seats[seat]
    if player is None:
        return sit_actions(config)
    actions: list[JSON] = []
    if (
        state.phase == "declare"
        and seat in state.dealt
        and not state.choices[seat]
        and state.turn in (None, seat)
    ):
        actions.append({"kind": "declare", "choices": list(choices_of(state))})
    if state.phase == "pass" and seat in state.dealt and state.passes[seat] < 0:
        actions.append({"kind": "pass", "cards": _texts(state.cards[seat])})
    return actions + seat_actions(config, player, in_hand=in_hand(state, seat))


def _own_cards_visible(state: ClassicState) -> bool:
    return not state.config.no_peek or state.phase == "pause"


def classic_view(state: ClassicState, seat: int | None) -> JSON:
    """Exactly what ``seat`` (``None``: a spectator) may see, as JSON."""
    config = state.config
    sequential = config.declare == "sequential"
    over = state.phase in ("pause", "stage_over")
    mark = MARKS.get(config.flow)
    entries: list[JSON] = []
    for index, player in enumerate(state.seats):
        if player is None:
            entries.append({"seat": index, "status": "empty"})
            continue
        cards = state.cards[index]
        choice = state.choices[index]
        entry = seat_entry(index, player, _status(state, index), card_count=len(cards))
        entry["face_up"] = _texts(tuple(card for card in cards if card in state.face_up))
        shown = index in state.revealed and (not state.private_show or seat in state.revealed)
        if cards and ((index == seat and _own_cards_visible(state)) or shown):
            entry["cards"] = _texts(cards)
        if mark is not None:
            entry[mark + "s"] = state.marks[index]
            if config.flow == "toh":
                entry["point_cards"] = _texts(state.kept[index])
        if state.phase == "declare" and index in state.dealt and not sequential:
            entry["decided"] = bool(choice)
        if choice and (sequential or over or index == seat):
            entry["choice"] = choice
        if config.time_bank:
            entry.update(seat_view(state.banks, index))
        entries.append(entry)
    you: JSON | None = None
    if seat is not None and 0 <= seat < len(state.seats) and state.seats[seat] is not None:
        own = state.cards[seat] if _own_cards_visible(state) else ()
        you = {
            "seat": seat,
            "cards": _texts(own),
            "choice": state.choices[seat] or None,
            "legal_actions": classic_legal_actions(state, seat),
        }
    return {
        "game": "guts",
        "variant": config.preset,
        "phase": state.phase,
        "deadline": state.deadline,
        "pot": state.pot,
        "reserve": state.reserve,
        "ante": config.ante,
        "pot_limit": config.pot_limit,
        "game_number": state.game,
        "hand": state.hand,
        "button": state.button,
        "turn": state.turn,
        "community": _texts(state.community),
        "ghost": _texts(state.ghost) if ghost_played(state) else None,
        "wild": state.wild,
        "stage": _stage(state),
        "stage_result": _stage_result(state, seat),
        "seats": entries,
        "you": you,
    }


def _stage_result(state: ClassicState, seat: int | None) -> list[JSON]:
    """The stage just settled, while it shows: hands (a private comparison's only to the
    players in it), payments (between players, or a match into the pot) and marks."""
    if state.phase != "stage_over":
        return []
    lines: list[JSON] = []
    for line in state.stage_result:
        if line[0] == "shown":
            if state.private_show and seat not in state.revealed:
                continue
            lines.append({"kind": "shown", "seat": line[1], "hand": line[2]})
        elif line[0] == "paid":
            lines.append({"kind": "paid", "payer": line[1], "payee": line[2], "amount": line[3]})
        elif line[0] == "matched":
            lines.append({"kind": "matched", "seat": line[1], "amount": line[2]})
        elif line[0] == "mark":
            lines.append({"kind": "mark", "seat": line[1], "total": line[2]})
    return lines


def _stage(state: ClassicState) -> JSON | None:
    """The stage of a game in stages (``None`` for the other games)."""
    config = state.config
    if not config.staged or not state.hand:
        return None
    rules = config.stage_rules(state.stage)
    return {
        "number": state.stage,
        "of": None if config.flow == "toh" else len(STAGES[config.flow]),
        "deal": state.hand,
        # Toh's hand is a deck of deals; the others' hand is one deal in stages
        "words": f"{'deck' if config.flow == 'toh' else 'deal'} {state.hand}, "
        + describe_stage(config, state.stage),
        "direction": "low" if rules.low else "high",
        "mark": MARKS[config.flow],
        "to_win": state.target,
    }


def _status(state: ClassicState, index: int) -> str:
    seat = state.seats[index]
    assert seat is not None
    if seat.leaving:
        return "leaving"
    if in_hand(state, index):
        return "in_hand"
    if seat.in_round:
        return "in_game"
    return "sitting_out" if seat.sitting_out else "waiting"
