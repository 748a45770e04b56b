"""The round and hand flow of online Guts (docs/rules/guts-online.md, "Rounds and hands").

The steps :mod:`games.guts.online` calls after checking an action. The flow of a round::

    waiting -> ante (round start) -> deal -> declare -> pause -> ante (next hand) -> deal ...

The decisions taken where the rules page is silent are listed in :mod:`games.guts.online`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.cards import DECK, parse_card
from games.engine import IllegalAction, seat_order
from games.guts import events as ev
from games.guts.config import raised_config
from games.guts.showdown import best_seats, describe, hand_key, pay_out, worst_seats
from games.guts.table import OnlineState, Seat
from games.words import sentence_of, words

__all__ = [
    "answered",
    "ante_call_over",
    "ante_timeout",
    "call_antes",
    "deal",
    "eligible_seats",
    "evolve",
    "in_live_hand",
    "maybe_close",
    "post_ante",
    "put",
    "showdown",
    "start_round",
    "with_stack",
]

_INDEX = {str(card): card.index for card in DECK}
_KIND = "three_card"
_FIELDS = frozenset(OnlineState.__dataclass_fields__)
Events = list[Any]


def put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    """``values`` with ``value`` at ``index`` (a tuple's copy-on-write update).

    >>> put((1, 2, 3), 1, 9)
    (1, 9, 3)
    """
    return (*values[:index], value, *values[index + 1 :])


def with_stack(seat: Seat, delta: int, **flags: bool) -> Seat:
    """``seat`` with ``delta`` cents added to its stack and any flags changed."""
    values = {
        "sitting_out": seat.sitting_out,
        "connected": seat.connected,
        "in_round": seat.in_round,
        "leaving": seat.leaving,
    }
    values.update(flags)
    return Seat(seat.player, seat.stack + delta, **values)


def eligible_seats(state: OnlineState) -> list[int]:
    """Seats that would be asked to ante at a round's start (seated, in play, ante covered).

    With ``short_ante`` ``all_in`` any chips cover it; with ``away_antes`` a seat sitting out
    is in play too (the table antes for it). A seat with no chips never is."""
    config = state.config
    least = 1 if config.short_ante == "all_in" else config.ante
    away = config.away_antes
    return [
        index
        for index, seat in enumerate(state.seats)
        if seat is not None
        and (away or not seat.sitting_out)
        and not seat.leaving
        and seat.stack >= least
    ]


def can_ante(state: OnlineState, seat: Seat) -> int:
    """What ``seat`` would post if it anted now: the ante, or (``short_ante`` ``all_in``) all
    it has when that is less; 0 when it cannot ante."""
    ante = state.config.ante
    if seat.stack >= ante:
        return ante
    return seat.stack if state.config.short_ante == "all_in" else 0


def post_ante(state: OnlineState, index: int, events: Events) -> OnlineState:
    """``index``, asked to ante, posts it (all it has, when short and the table allows it):
    out of the call's ``pending``, into ``confirmed``. The caller checked it can."""
    seat = state.seats[index]
    assert seat is not None
    amount = can_ante(state, seat)
    assert amount > 0, "a seat that cannot ante is not posted for"
    events.append(ev.AntePosted(index, amount))
    short = state.short_antes
    if amount < state.config.ante:
        short = (*short, (index, amount))
    return evolve(
        state,
        seats=put(state.seats, index, with_stack(seat, -amount)),
        pot=state.pot + amount,
        pending=tuple(other for other in state.pending if other != index),
        confirmed=(*state.confirmed, index),
        short_antes=short,
    )


def forced_antes(state: OnlineState, now: float, events: Events) -> OnlineState:
    """``away_antes``: the table answers its own ante call at once, posting every seat's ante
    (all it has, where short antes play); a seat that cannot ante leaves the round as if it
    declined. Then the call is over (:func:`ante_call_over`)."""
    for index in state.pending:
        seat = state.seats[index]
        assert seat is not None
        if can_ante(state, seat):
            state = post_ante(state, index, events)
        else:
            events.append(ev.AnteDeclined(index, False))
            state = evolve(state, pending=tuple(other for other in state.pending if other != index))
    return ante_call_over(state, now, events)


def in_live_hand(state: OnlineState, seat: int) -> bool:
    """Whether ``seat`` is dealt into a hand still being played (the deal or the declare)."""
    if state.phase == "deal":
        return seat in state.confirmed
    return state.phase == "declare" and seat in state.dealt


def start_round(state: OnlineState, now: float, events: Events) -> OnlineState:
    """Ask every eligible seat to ante, or wait when fewer than two can play."""
    asked = tuple(eligible_seats(state))
    if len(asked) < 2:
        return evolve(state, phase="waiting", deadline=None, round_active=False, starting=False)
    events.append(ev.RoundStarted(state.round + 1, asked))
    state = evolve(
        state, phase="ante", deadline=now + state.config.ante_seconds, round=state.round + 1,
        round_active=False, starting=True, pending=asked, confirmed=(), short_antes=(),
    )  # fmt: skip
    if state.config.away_antes:
        return forced_antes(state, now, events)
    return state


def end_round(
    state: OnlineState, seats: list[Seat | None], now: float, reason: str, events: Events, **kw: Any
) -> OnlineState:
    """End the round (``reason``): nobody is in a round any more; the table pauses."""
    events.append(ev.RoundEnded(state.round, reason))
    for index, seat in enumerate(seats):
        if seat is not None and seat.in_round:
            seats[index] = with_stack(seat, 0, in_round=False)
    values: dict[str, Any] = {
        "phase": "pause",
        "deadline": now + state.config.showdown_seconds,
        "pot": state.pot,
        "round_active": False,
        "starting": False,
        "pending": (),
        "confirmed": (),
        **kw,
    }
    return evolve(state, seats=tuple(seats), **values)


def evolve(state: OnlineState, **changes: Any) -> OnlineState:
    """``state`` with ``changes``: :func:`dataclasses.replace`, written out because it is hot.

    >>> from games.guts.config import online_config
    >>> from games.guts.table import new_table
    >>> evolve(new_table(online_config("survivor", {"ante": 5})), pot=40).pot
    40
    """
    assert _FIELDS.issuperset(changes), f"no such field: {set(changes) - _FIELDS}"
    get = changes.get
    return OnlineState(
        get("config", state.config),
        get("seats", state.seats),
        get("phase", state.phase),
        get("deadline", state.deadline),
        get("button", state.button),
        get("pot", state.pot),
        get("round", state.round),
        get("hand", state.hand),
        get("round_active", state.round_active),
        get("starting", state.starting),
        get("pending", state.pending),
        get("confirmed", state.confirmed),
        get("dealt", state.dealt),
        get("cards", state.cards),
        get("choices", state.choices),
        get("owed", state.owed),
        get("shown", state.shown),
        get("timed_out", state.timed_out),
        get("next_stake", state.next_stake),
        get("short_antes", state.short_antes),
    )


def _unanswered_out(state: OnlineState, events: Events) -> OnlineState:
    """The seats that let the ante call time out: out of the round, and sat out (away)."""
    seats = list(state.seats)
    for index in state.pending:
        events.append(ev.AnteDeclined(index, True))
        events.append(ev.SatOut(index, "ante_timeout"))
        seat = seats[index]
        assert seat is not None
        seats[index] = with_stack(seat, 0, sitting_out=True, in_round=False)
    return evolve(state, seats=tuple(seats), pending=())


def ante_timeout(state: OnlineState, now: float, events: Events) -> OnlineState:
    """The ``ante`` phase's deadline: the ante call's (seats still ``pending``), or after
    it the top-up window's (only short losers owing)."""
    if state.pending:
        return ante_call_over(_unanswered_out(state, events), now, events)
    return close_ante_call(state, now, events)


def ante_call_over(state: OnlineState, now: float, events: Events) -> OnlineState:
    """The ante call has ended (every seat answered, or its deadline passed). A short loser
    still owing gets ``top_up_seconds`` from now, on top of the call (the next deal waits);
    otherwise the next hand's players are known."""
    if any(state.owed):
        return evolve(state, deadline=now + state.config.top_up_seconds)
    return close_ante_call(state, now, events)


def close_ante_call(state: OnlineState, now: float, events: Events) -> OnlineState:
    """End the ante phase, its call answered or timed out and any top-up window over: a
    short loser still owing pays what they have and leaves the round; the next hand is dealt
    if two players remain, else the round ends."""
    assert not state.pending, "the ante call is answered or timed out first"
    seats = list(state.seats)
    pot = state.pot
    owed = state.owed
    for index, amount in enumerate(owed):
        if amount:
            seat = seats[index]
            assert seat is not None
            paid = min(seat.stack, amount)
            events.append(ev.PotMatched(index, paid, amount))
            seats[index] = with_stack(seat, -paid, in_round=False)
            pot += paid
    owed = (0,) * len(seats)
    confirmed = tuple(sorted(state.confirmed))
    for index, seat in enumerate(seats):
        if seat is not None and seat.in_round != (index in confirmed):
            seats[index] = with_stack(seat, 0, in_round=index in confirmed)
    state = evolve(state, pot=pot, owed=owed, pending=(), confirmed=confirmed)
    if len(confirmed) >= 2:
        return evolve(
            state, seats=tuple(seats), phase="deal", deadline=None, round_active=True,
            starting=False,
        )  # fmt: skip
    if state.starting:
        short = dict(state.short_antes)
        returned = tuple((index, short.get(index, state.config.ante)) for index in confirmed)
        if returned:
            events.append(ev.AntesReturned(returned))
            for index, amount in returned:
                seat = seats[index]
                assert seat is not None
                seats[index] = with_stack(seat, amount)
        pot -= sum(amount for _, amount in returned)
        state = evolve(state, pot=pot)
        return end_round(state, seats, now, "too_few_antes", events)
    if len(confirmed) == 1:
        button = state.button if state.button is not None else confirmed[0]
        won = pay_out(
            pot, confirmed, button=button, basis_points=state.config.rake_basis_points,
            cap=state.config.rake_cap,
        )  # fmt: skip
        events.extend(won)
        for event in won:
            if isinstance(event, ev.PotWon):
                seat = seats[event.seat]
                assert seat is not None
                seats[event.seat] = with_stack(seat, event.amount)
        return end_round(state, seats, now, "last_player", events, pot=0)
    events.append(ev.PotCarried(pot))
    return end_round(state, seats, now, "no_players", events)


def maybe_close(state: OnlineState, now: float, events: Events) -> OnlineState:
    """After an action between hands: the ante phase ends once nobody is asked and nobody
    owes (a short loser paid or left)."""
    if state.phase == "ante" and not state.pending and not any(state.owed):
        return close_ante_call(state, now, events)
    return state


def answered(state: OnlineState, now: float, events: Events) -> OnlineState:
    """After a seat asked to ante answered (ante, decline, sit out, leave): when it was the
    last, the ante call is over (:func:`ante_call_over`)."""
    if state.phase == "ante" and not state.pending:
        return ante_call_over(state, now, events)
    return state


def call_antes(state: OnlineState, now: float, events: Events) -> OnlineState:
    """After the pause: the next ante call of the round (or a new round). A level's stake
    waiting (``next_stake``) takes effect here, before anybody is asked."""
    empty_cards = ((),) * len(state.seats)
    empty_choices = ("",) * len(state.seats)
    state = evolve(
        state, cards=empty_cards, choices=empty_choices, shown=False, dealt=(), timed_out=(),
        short_antes=(),
    )  # fmt: skip
    if state.next_stake is not None:
        state = evolve(state, config=raised_config(state.config, state.next_stake), next_stake=None)
    if not state.round_active:
        return start_round(state, now, events)
    config = state.config
    seats = list(state.seats)
    pending = []
    confirmed = []
    for index, seat in enumerate(seats):
        if seat is None or not seat.in_round or state.owed[index]:
            continue
        if seat.sitting_out and not config.away_antes:  # sat out since the hand: out of the round
            seats[index] = with_stack(seat, 0, in_round=False)
        elif index in state.confirmed:  # In last hand: excused from the ante
            confirmed.append(index)
        elif seat.stack == 0 and config.short_ante == "all_in":
            confirmed.append(index)  # all in: its chips are in this round's pot; no ante
        else:
            pending.append(index)
    short = tuple(index for index, amount in enumerate(state.owed) if amount)
    state = evolve(
        state, seats=tuple(seats), phase="ante", deadline=now + config.ante_seconds,
        pending=tuple(pending), confirmed=tuple(confirmed),
    )  # fmt: skip
    if pending or short:
        events.append(ev.AnteCalled(tuple(pending), short))
    if pending and config.away_antes:
        return forced_antes(state, now, events)
    if pending:
        return state  # the ante call first; a short loser's window comes after it
    return ante_call_over(state, now, events)


def deal(state: OnlineState, action: Mapping[str, Any], now: float) -> tuple[OnlineState, Events]:
    if state.phase != "deal":
        raise IllegalAction(
            words("no deal is due now (the table is in its {phase} phase)", phase=state.phase)
        )
    deck = read_deck(action.get("deck"))
    players = state.confirmed
    button = state.button if state.button is not None else players[0]
    order = seat_order(players, button)
    count = len(order)
    cards: list[tuple[int, ...]] = [()] * len(state.seats)
    events: Events = [ev.HandStarted(state.hand + 1, state.round, button, tuple(order), state.pot)]
    choices = ["" for _ in state.seats]
    for position, index in enumerate(order):
        hand = (deck[position], deck[position + count], deck[position + 2 * count])
        cards[index] = hand
        events.append(ev.CardsDealt(index, hand))
        seat = state.seats[index]
        if seat is not None:
            choices[index] = _decided_at_deal(state, seat)
    state = evolve(
        state, phase="declare", deadline=now + state.config.decision_seconds, button=button,
        hand=state.hand + 1, confirmed=(), dealt=tuple(order), cards=tuple(cards),
        choices=tuple(choices), shown=False,
    )  # fmt: skip
    if all(state.choices[index] for index in order):
        return showdown(state, now, events)
    return state, events


def _decided_at_deal(state: OnlineState, seat: Seat) -> str:
    """A choice made for a seat as it is dealt in ("": it chooses): a leaver is Out; an all-in
    seat (no chips behind) is In, having nothing more to risk, so a pot all-in players paid
    into always finds a winner; with ``away_antes`` a seat sitting out is Out."""
    if seat.leaving:
        return "out"
    if seat.stack == 0 and state.config.short_ante == "all_in":
        return "in"
    if seat.sitting_out and state.config.away_antes:
        return "out"
    return ""


def read_deck(deck: Any) -> list[int]:
    tokens = deck.replace(",", " ").split() if isinstance(deck, str) else deck
    if not isinstance(tokens, (list, tuple)) or len(tokens) != 52:
        raise IllegalAction(words("a deal needs a 'deck' of all 52 cards, as text, in deal order"))
    try:
        cards = [
            _INDEX[token] if token in _INDEX else parse_card(str(token)).index for token in tokens
        ]
    except ValueError as error:
        raise IllegalAction(words("bad deck: {error}", error=sentence_of(error))) from error
    if len(set(cards)) != 52:
        raise IllegalAction(words("bad deck: a card appears twice"))
    return cards


def showdown(
    state: OnlineState, now: float, events: Events, *, timed_out: bool = False
) -> tuple[OnlineState, Events]:
    """Reveal and settle (docs/rules/guts-online.md, steps 4 to 6)."""
    config = state.config
    choices = list(state.choices)
    mucked: list[int] = []
    for index in state.dealt:
        missing = not choices[index]
        if missing:
            choices[index] = "out"
            if timed_out:
                mucked.append(index)
        events.append(ev.Declared(index, choices[index], missing and timed_out))
    players = [index for index in state.dealt if choices[index] == "in"]
    key = hand_key(_KIND)
    button = state.button
    assert button is not None  # set at the deal
    for index in state.dealt:
        if choices[index] == "in":
            cards = state.cards[index]
            events.append(ev.HandShown(index, cards, describe(_KIND, cards)))
        else:
            events.append(ev.Mucked(index))
    seats = list(state.seats)
    pot = state.pot
    owed = list(state.owed)
    confirmed: list[int] = []
    winners: tuple[tuple[int, int], ...] = ()
    rake = 0
    debts: list[tuple[int, int]] = []
    if not players:
        events.append(ev.PotCarried(pot))
    else:
        keys = {index: key(state.cards[index]) for index in players}
        best = best_seats(keys)
        won = pay_out(
            pot, best, button=button, basis_points=config.rake_basis_points,
            cap=config.rake_cap,
        )  # fmt: skip
        events.extend(won)
        for event in won:
            if isinstance(event, ev.RakeTaken):
                rake = event.amount
            else:
                seat = seats[event.seat]
                assert seat is not None
                seats[event.seat] = with_stack(seat, event.amount)
        winners = tuple((event.seat, event.amount) for event in won if isinstance(event, ev.PotWon))
        losers = {index: value for index, value in keys.items() if index not in best}
        if losers and config.payer == "lowest_loser":
            owers = worst_seats(losers)
        else:
            owers = tuple(sorted(losers))
        match = min(pot, config.match_cap)
        next_pot = 0
        # A tournament's short loser (all in, no top-up window) pays all it has at once.
        at_once = config.short_ante == "all_in" and config.top_up_seconds == 0
        for index in seat_order(owers, button):
            seat = seats[index]
            assert seat is not None
            debts.append((index, match))
            if seat.stack >= match or seat.leaving or at_once:
                paid = min(seat.stack, match)
                events.append(ev.PotMatched(index, paid, match))
                short = paid < match and not seat.leaving
                seats[index] = with_stack(seat, -paid, in_round=seat.in_round and not short)
                next_pot += paid
            else:
                owed[index] = match
        pot = next_pot
        # Only the players who were Out ante again: everyone In (winners, losers who paid,
        # Survivor's losers who owed nothing) is in the next hand, but a short loser only
        # once paid in full (the top-up window) and a leaver not at all.
        for index in players:
            seat = seats[index]
            if seat is not None and not seat.leaving and not owed[index] and seat.in_round:
                confirmed.append(index)
    if config.round_end == "single_in":
        round_over = len(players) == 1
    else:
        round_over = bool(players) and not debts
    events.append(ev.HandEnded(state.hand, state.pot, rake, winners, tuple(debts), round_over))
    for index, seat in enumerate(seats):
        if seat is not None and seat.leaving:
            events.append(ev.PlayerLeft(index, seat.stack))
            seats[index] = None
            owed[index] = 0
    button = next_button(seats, state.button)
    if button is not None and button != state.button:
        events.append(ev.ButtonMoved(button))
    state = evolve(
        state, seats=tuple(seats), phase="pause", deadline=now + config.showdown_seconds,
        button=button, pot=pot, confirmed=tuple(confirmed), choices=tuple(choices),
        owed=tuple(owed), shown=True, timed_out=tuple(mucked),
    )  # fmt: skip
    if round_over:
        state = end_round(state, seats, now, config.round_end, events)
    return state, events


def next_button(seats: list[Seat | None], button: int | None) -> int | None:
    """The next seat clockwise from ``button`` whose player is in play (docs/architecture.md)."""
    if button is None:
        return None
    count = len(seats)
    for step in range(1, count + 1):
        seat = seats[(button + step) % count]
        if seat is not None and not seat.sitting_out:
            return (button + step) % count
    return button
