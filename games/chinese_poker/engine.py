"""The Chinese Poker table as a state machine (docs/rules/chinese-poker.md; games/engine.py).

``apply(state, action) -> (state, events)``; an illegal action raises
:class:`~games.engine.IllegalAction` and changes nothing. The hand: every player dealt in pays
the hand fee to the rake and gets 13 cards, one at a time from the button's left; each sets
front, middle and back (``set``, changeable until submitted), then ``submit``s (or sends
``set`` with ``"submit": true``), ``surrender``s or ``declare_natural``s. When all are final the
hands are revealed, scored pair by pair and settled in the button order with both table-stakes
caps (:mod:`games.chinese_poker.scoring`). At the deadline, a hand not yet submitted is set by
the solver (or surrendered, by the table's ``timeout`` policy).

Decisions where the rules are silent:

- A player is dealt in when seated, not sitting out, not leaving, and their stack is more than
  the hand fee. Disconnected players are dealt in; the timeout policy acts for them.
- The button starts at the lowest seat dealt in and then moves clockwise every hand.
- A surrender is public at once (the false-claim rule depends on it); a submitted hand and a
  declared natural show only as "submitted" until the reveal.
- Declaring a natural submits the hand. The rows are the player's set rows (or sent with the
  declaration); a three-straights or three-flushes natural that holds is shown in its own rows;
  with no rows set, the solver's arrangement is used. A hand may be submitted fouled.
- At the deadline the solver sets the hand even if the player had set rows but not submitted
  (the rule page says the solver sets it), and claims a natural when the cards hold one.
- ``top_up`` is refused to a player in a hand being played; between hands any amount.
- A player who leaves during a hand stays in it and cashes out after ``hand_ended``.
- Time bank (``time_bank``): at the setting deadline, each player still setting with seconds in
  their reserve goes on their own bank (games/time_bank.py) and the others are set by the
  timeout policy; the hand goes on until the last bank runs out or every hand is final. A hand
  made final (submitted, surrendered, a natural declared) pays for the time used past the
  deadline; rows set but not submitted do not stop the bank.
- ``level`` (``stake``: a tournament's new unit, whole chips, no seat; event ``level_raised``)
  is valid at any time: the unit changes at once between hands, or when the hand being played
  ends; the buy-in minimum does not apply to the seats already sitting.
- ``away_deals``: a seat sitting out is dealt in like the others, and its hand is set at once
  by the table's ``timeout`` rule, at the deal or when it sits out during the hand. A seat with
  no chips is never dealt in (with no hand fee: more than nothing is needed).

>>> from games.chinese_poker.config import ChinesePokerConfig
>>> state = new_table(ChinesePokerConfig(unit=100, pause_seconds=0))
>>> state, events = GAME.apply(state, {"kind": "sit", "seat": 0, "stack": 5000, "now": 0})
>>> state, events = GAME.apply(state, {"kind": "sit", "seat": 2, "stack": 5000, "now": 0})
>>> state.phase, GAME.wants_deck(state)
('ready', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.cards import DECK, CardError, parse_cards
from games.chinese_poker.config import ChinesePokerConfig, raised_config
from games.chinese_poker.events import (
    CardsDealt,
    ConnectionChanged,
    HandEnded,
    HandFeePaid,
    HandRevealed,
    HandStarted,
    HandSubmitted,
    LeavePending,
    NaturalDeclared,
    PairScored,
    PaymentMade,
    PlayerLeft,
    PlayerSat,
    RowsSet,
    SatIn,
    SatOut,
    Surrendered,
    ToppedUp,
)
from games.chinese_poker.naturals import NATURALS, makes_natural, natural_rows
from games.chinese_poker.scoring import PlayerHand, score_hand
from games.chinese_poker.solver import best_arrangement
from games.chinese_poker.state import (
    ChinesePokerState,
    Entry,
    Result,
    SeatState,
    dump,
    load,
    new_table,
)
from games.chinese_poker.views import legal_actions, suggestion, view
from games.engine import ConfigError, Event, IllegalAction, seat_order
from games.events import LevelRaised
from games.time_bank import expire, next_deadline
from games.tournament.levels import level_action_stake
from games.words import Money, sentence_of, words

__all__ = ["GAME", "ChinesePokerGame", "eligible_seats", "new_table"]

JSON = dict[str, Any]
Outcome = tuple[ChinesePokerState, tuple[Event, ...]]
SEAT_KINDS = ("sit", "leave", "top_up", "sit_out", "sit_in", "connect", "disconnect")
HAND_KINDS = ("set", "submit", "surrender", "declare_natural")


def _whole(action: Mapping[str, Any], key: str) -> int:
    value = action.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise IllegalAction(
            words("{key} must be a whole number, not {value}", key=key, value=repr(value))
        )
    return value


def _now(action: Mapping[str, Any]) -> float:
    value = action.get("now")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise IllegalAction(words("now must be a time in seconds, not {value}", value=repr(value)))
    return float(value)


def eligible_seats(state: ChinesePokerState) -> list[int]:
    """The seats that would be dealt into a hand starting now."""
    fee = state.config.hand_fee
    away = state.config.away_deals
    return [
        number
        for number, seat in enumerate(state.seats)
        if seat is not None
        and (away or not seat.sitting_out)
        and not seat.leaving
        and seat.stack > fee
    ]


def _with_seat(state: ChinesePokerState, number: int, **changes: Any) -> ChinesePokerState:
    seats = list(state.seats)
    current = seats[number]
    assert current is not None
    seats[number] = replace(current, **changes)
    return replace(state, seats=tuple(seats))


def _reconsider(state: ChinesePokerState, now: float) -> ChinesePokerState:
    """Move between ``waiting`` and ``pause``/``ready`` after a seat changed."""
    if state.phase not in ("waiting", "ready"):
        return state
    if len(eligible_seats(state)) < 2:
        return replace(state, phase="waiting", deadline=None)
    if state.phase == "waiting" and state.config.pause_seconds > 0:
        return replace(state, phase="pause", deadline=now + state.config.pause_seconds)
    return replace(state, phase="ready", deadline=None)


class ChinesePokerGame:
    """The Chinese Poker table's rules for the runtime (see :class:`games.engine.Game`)."""

    name = "chinese-poker"

    def apply(self, state: ChinesePokerState, action: Mapping[str, Any]) -> Outcome:
        """The new state and the events of one action, or IllegalAction."""
        kind = action.get("kind")
        now = _now(action)
        if kind in SEAT_KINDS or kind in HAND_KINDS:
            seat = self._seat(state, action)
            if kind in SEAT_KINDS:
                return _seat_action(state, str(kind), seat, action, now)
            return _hand_action(state, str(kind), seat, action, now)
        if kind == "deal":
            return _deal(state, action, now)
        if kind == "timeout":
            return _timeout(state, now)
        if kind == "level":
            return _level(state, action)
        known = ", ".join((*SEAT_KINDS, *HAND_KINDS, "deal", "timeout", "level"))
        raise IllegalAction(
            words("unknown action {kind}; actions: {actions}", kind=repr(kind), actions=known)
        )

    @staticmethod
    def _seat(state: ChinesePokerState, action: Mapping[str, Any]) -> int:
        seat = _whole(action, "seat")
        if not 0 <= seat < len(state.seats):
            raise IllegalAction(
                words("no seat {seat}; seats are 0 to {last}", seat=seat, last=len(state.seats) - 1)
            )
        return seat

    def legal_actions(self, state: ChinesePokerState, seat: int) -> list[JSON]:
        """What ``seat`` may do now, as action templates (see :mod:`.views`)."""
        return legal_actions(state, seat)

    def deadline(self, state: ChinesePokerState) -> float | None:
        """When a ``timeout`` will be accepted (setting time, or the pause between hands)."""
        return state.deadline if state.phase in ("setting", "pause") else None

    def wants_deck(self, state: ChinesePokerState) -> bool:
        """Whether the runtime should shuffle and apply ``deal`` now."""
        return state.phase == "ready"

    def view(self, state: ChinesePokerState, seat: int | None) -> JSON:
        """What ``seat`` (``None``: a spectator) may see (see :mod:`.views`)."""
        return view(state, seat)

    def suggestion(self, state: ChinesePokerState, seat: int) -> JSON | None:
        """The solver's arrangement of ``seat``'s cards in the hand being played, as text."""
        return suggestion(state, seat)

    def dump(self, state: ChinesePokerState) -> JSON:
        """The state as JSON."""
        return dump(state)

    def load(self, data: JSON) -> ChinesePokerState:
        """A state from :meth:`dump`'s JSON."""
        return load(data)


GAME = ChinesePokerGame()


def _seat_action(
    state: ChinesePokerState, kind: str, number: int, action: Mapping[str, Any], now: float
) -> Outcome:
    seat = state.seats[number]
    if kind == "sit":
        if seat is not None:
            raise IllegalAction(words("seat {seat} is taken", seat=number))
        amount = _whole(action, "stack")
        if amount < state.config.min_buy_in:
            raise IllegalAction(
                words("the minimum buy-in is {amount}", amount=Money(state.config.min_buy_in))
            )
        player = action.get("player")
        name = player if isinstance(player, str) and player else f"seat {number}"
        seats = list(state.seats)
        seats[number] = SeatState(stack=amount, player=name)
        banks = state.banks.refill_seat(number, state.config.time_bank)
        sat = replace(state, seats=tuple(seats), banks=banks)
        return _reconsider(sat, now), (PlayerSat(number, amount),)
    if seat is None:
        raise IllegalAction(words("seat {seat} is empty", seat=number))
    playing = state.in_hand and state.entry(number) is not None
    if kind == "leave":
        if seat.leaving:
            raise IllegalAction(words("already leaving at the end of this hand"))
        if playing:
            return _with_seat(state, number, leaving=True), (LeavePending(number),)
        seats = list(state.seats)
        seats[number] = None
        left = replace(state, seats=tuple(seats))
        return _reconsider(left, now), (PlayerLeft(number, seat.stack),)
    if kind == "top_up":
        amount = _whole(action, "amount")
        if amount <= 0:
            raise IllegalAction(words("a top-up must be more than $0.00"))
        if playing:
            raise IllegalAction(words("top up between hands, not during one"))
        topped = _with_seat(state, number, stack=seat.stack + amount)
        return _reconsider(topped, now), (ToppedUp(number, amount),)
    if kind in ("sit_out", "sit_in"):
        out = kind == "sit_out"
        if seat.sitting_out == out:
            raise IllegalAction(words("already sitting out") if out else words("already in play"))
        changed = _with_seat(state, number, sitting_out=out)
        entry = changed.entry(number) if playing else None
        if out and state.config.away_deals and entry is not None and entry.status == "setting":
            return _set_now(changed, entry, (SatOut(number),), now)
        return _reconsider(changed, now), (SatOut(number) if out else SatIn(number),)
    connected = kind == "connect"
    if seat.connected == connected:
        raise IllegalAction(
            words("already connected") if connected else words("already disconnected")
        )
    changed = _with_seat(state, number, connected=connected)
    return changed, (ConnectionChanged(number, connected),)


def _deal(state: ChinesePokerState, action: Mapping[str, Any], now: float) -> Outcome:
    if state.phase != "ready":
        raise IllegalAction(words("no hand is waiting for a deck"))
    deck_text = action.get("deck")
    if not isinstance(deck_text, (list, tuple, str)):
        raise IllegalAction(words("deal needs a deck: all 52 cards as text, in deal order"))
    try:
        deck = parse_cards(deck_text)
    except CardError as error:
        raise IllegalAction(words("bad deck: {error}", error=sentence_of(error))) from error
    if len(deck) != 52:
        raise IllegalAction(words("a deck has 52 cards, not {count}", count=len(deck)))
    players = eligible_seats(state)
    button = players[0] if state.button < 0 else seat_order(players, state.button)[0]
    order = seat_order(players, button)
    hands: dict[int, list[int]] = {seat: [] for seat in players}
    for position in range(13 * len(order)):
        hands[order[position % len(order)]].append(deck[position].index)
    fee = state.config.hand_fee
    number = state.hand_number + 1
    events: list[Event] = [HandStarted(number, button, tuple(players))]
    seats = list(state.seats)
    entries = []
    for seat in players:
        current = seats[seat]
        assert current is not None
        if fee:
            events.append(HandFeePaid(seat, fee))
        seats[seat] = replace(current, stack=current.stack - fee)
        entries.append(Entry(seat=seat, cards=tuple(hands[seat]), start_stack=current.stack - fee))
    events.extend(CardsDealt(seat, tuple(hands[seat])) for seat in order)
    away = [number for number in players if _sitting_out(state, number)]
    dealt = replace(
        state,
        seats=tuple(seats),
        phase="setting",
        button=button,
        hand_number=number,
        deadline=now + state.config.set_seconds,
        entries=tuple(entries),
        result=None,
        banks=state.banks.refilled(state.config.time_bank),
    )
    outcome: Outcome = (dealt, tuple(events))
    for number in away:  # away_deals: a seat sitting out is set by the timeout rule at once
        mine = outcome[0].entry(number)
        if outcome[0].in_hand and mine is not None:
            outcome = _set_now(outcome[0], mine, outcome[1], now)
    return outcome


def _sitting_out(state: ChinesePokerState, number: int) -> bool:
    seat = state.seats[number]
    return seat is not None and seat.sitting_out


def _level(state: ChinesePokerState, action: Mapping[str, Any]) -> Outcome:
    """A tournament's level: the unit becomes ``stake``, at once between hands, else when the
    hand being played ends."""
    stake = level_action_stake(action)
    try:
        raised = raised_config(state.config, stake)
    except ConfigError as error:
        raise IllegalAction(sentence_of(error)) from error
    events: tuple[Event, ...] = (LevelRaised(stake),)
    if state.in_hand:
        return replace(state, next_unit=stake), events
    return replace(state, config=raised, next_unit=None), events


def _by_timeout_rule(config: ChinesePokerConfig, entry: Entry) -> tuple[Entry, list[Event]]:
    """``entry`` set by the table's ``timeout`` rule: the solver's arrangement (claiming any
    natural the cards hold) or a surrender."""
    if config.timeout == "surrender":
        return replace(entry, status="surrendered", auto=True), [Surrendered(entry.seat, auto=True)]
    best = best_arrangement([DECK[index] for index in entry.cards])
    front, middle, back = (tuple(c.index for c in row) for row in best.rows)
    entry = replace(entry, front=front, middle=middle, back=back, auto=True)
    entry = replace(entry, status="submitted", natural=best.natural)
    events: list[Event] = [RowsSet(entry.seat, front, middle, back)]
    if best.natural is not None:
        events.append(NaturalDeclared(entry.seat, best.natural))
    events.append(HandSubmitted(entry.seat, auto=True))
    return entry, events


def _set_now(
    state: ChinesePokerState, entry: Entry, events: tuple[Event, ...], now: float
) -> Outcome:
    """``away_deals``: set a sitting-out seat's hand at once by the timeout rule; the hand ends
    when that was the last hand still being set."""
    entry, more = _by_timeout_rule(state.config, entry)
    changed = _replace_entry(state, entry)
    events = events + tuple(more)
    if all(other.status != "setting" for other in changed.entries):
        return _finish(changed, events, now)
    setting = [other.seat for other in changed.entries if other.status == "setting"]
    return replace(changed, deadline=next_deadline(changed.banks, setting, state.deadline)), events


def _rows(entry: Entry, action: Mapping[str, Any]) -> tuple[tuple[int, ...], ...]:
    rows = []
    for name, size in (("front", 3), ("middle", 5), ("back", 5)):
        text = action.get(name)
        if not isinstance(text, (list, tuple, str)):
            raise IllegalAction(
                # Translators: {row} is front, middle or back, as the action names the row
                words("the {row} row is missing: {size} cards as text", row=name, size=size)
            )
        try:
            row = parse_cards(text)
        except CardError as error:
            raise IllegalAction(
                # Translators: {row} is front, middle or back; {error} says what is wrong with it
                words("the {row} row: {error}", row=name, error=sentence_of(error))
            ) from error
        if len(row) != size:
            raise IllegalAction(
                words(
                    "the {row} row needs {size} cards, not {count}",
                    row=name,
                    size=size,
                    count=len(row),
                )
            )
        rows.append(tuple(card.index for card in row))
    used = [index for row in rows for index in row]
    if len(set(used)) != 13 or set(used) != set(entry.cards):
        raise IllegalAction(words("the rows must hold exactly your 13 cards, each once"))
    return tuple(rows)


def _replace_entry(state: ChinesePokerState, entry: Entry) -> ChinesePokerState:
    entries = tuple(entry if old.seat == entry.seat else old for old in state.entries)
    return replace(state, entries=entries)


def _hand_action(
    state: ChinesePokerState, kind: str, number: int, action: Mapping[str, Any], now: float
) -> Outcome:
    entry = state.entry(number) if state.in_hand else None
    if entry is None:
        raise IllegalAction(words("seat {seat} is not in a hand being played", seat=number))
    if entry.status != "setting":
        raise IllegalAction(words("the hand is final: already {status}", status=entry.status))
    natural = action.get("natural")
    if kind == "declare_natural" and natural not in NATURALS:
        raise IllegalAction(
            words(
                "unknown natural {natural}; naturals: {naturals}",
                natural=repr(natural),
                naturals=", ".join(NATURALS),
            )
        )
    events: list[Event] = []
    if kind == "set" or (kind != "surrender" and "front" in action):
        front, middle, back = _rows(entry, action)
        entry = replace(entry, front=front, middle=middle, back=back)
        events.append(RowsSet(number, front, middle, back))
    if kind == "surrender":
        entry = replace(entry, status="surrendered")
        events.append(Surrendered(number))
    elif kind == "declare_natural":
        assert isinstance(natural, str)
        entry = _declared(state, entry, natural)
        events += [NaturalDeclared(number, natural), HandSubmitted(number)]
    elif kind == "submit" or action.get("submit") is True:
        if not entry.front:
            raise IllegalAction(words("set your front, middle and back before submitting"))
        entry = replace(entry, status="submitted")
        events.append(HandSubmitted(number))
    changed = _replace_entry(state, entry)
    if entry.status != "setting":  # final: the time used past the deadline leaves the bank
        changed = replace(changed, banks=changed.banks.charged(number, now, state.deadline))
    if all(other.status != "setting" for other in changed.entries):
        return _finish(changed, tuple(events), now)
    setting = [other.seat for other in changed.entries if other.status == "setting"]
    return replace(changed, deadline=next_deadline(changed.banks, setting, state.deadline)), tuple(
        events
    )


def _declared(state: ChinesePokerState, entry: Entry, natural: str) -> Entry:
    cards = tuple(DECK[index] for index in entry.cards)
    after = any(o.status == "surrendered" for o in state.entries if o.seat != entry.seat)
    rows = natural_rows(natural, cards) if makes_natural(natural, cards) else None
    if rows is None and not entry.front:
        best = best_arrangement(cards)
        rows = (best.front, best.middle, best.back)
    if rows is not None:
        front, middle, back = (tuple(card.index for card in row) for row in rows)
        entry = replace(entry, front=front, middle=middle, back=back)
    return replace(entry, status="submitted", natural=natural, claimed_after_surrender=after)


def _timeout(state: ChinesePokerState, now: float) -> Outcome:
    if state.phase not in ("setting", "pause") or state.deadline is None:
        raise IllegalAction(words("nothing is waiting on a deadline"))
    if now < state.deadline:
        raise IllegalAction(
            words(
                "the deadline has not passed ({seconds}s left)",
                seconds=f"{state.deadline - now:.1f}",
            )
        )
    if state.phase == "pause":
        return _reconsider(replace(state, phase="ready", deadline=None), now), ()

    setting = [entry.seat for entry in state.entries if entry.status == "setting"]
    expiry = expire(state.banks, setting, state.deadline, now)
    events: list[Event] = list(expiry.events())
    entries = []
    for entry in state.entries:
        if entry.seat in expiry.expired:  # else final already, or setting on the time bank
            entry, more = _by_timeout_rule(state.config, entry)
            events.extend(more)
        entries.append(entry)
    state = replace(state, entries=tuple(entries), banks=expiry.banks)
    if expiry.deadline is not None:  # some players are setting on their time bank
        return replace(state, deadline=expiry.deadline), tuple(events)
    return _finish(state, tuple(events), now)


def _player_hand(entry: Entry) -> PlayerHand:
    if entry.status == "surrendered":
        return PlayerHand(surrender=True)
    front, middle, back = (tuple(DECK[i] for i in row) for row in entry_rows(entry))
    return PlayerHand(
        front, middle, back, entry.natural, claimed_after_surrender=entry.claimed_after_surrender
    )


def entry_rows(entry: Entry) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """An entry's rows (front, middle, back)."""
    return entry.front, entry.middle, entry.back


def _finish(state: ChinesePokerState, events: tuple[Event, ...], now: float) -> Outcome:
    entries = state.entries
    seats_in_hand = [entry.seat for entry in entries]
    button = seats_in_hand.index(state.button)
    score = score_hand(
        [_player_hand(entry) for entry in entries],
        [entry.start_stack for entry in entries],
        unit=state.config.unit,
        button=button,
    )
    shown = []
    for entry, status in zip(entries, score.statuses, strict=True):
        rows = ((), (), ()) if entry.status == "surrendered" else entry_rows(entry)
        shown.append(
            (
                ("seat", entry.seat),
                ("front", [str(DECK[i]) for i in rows[0]]),
                ("middle", [str(DECK[i]) for i in rows[1]]),
                ("back", [str(DECK[i]) for i in rows[2]]),
                ("natural", entry.natural),
                ("status", status.kind),
                ("why", status.why),
            )
        )
    more: list[Event] = [HandRevealed(tuple(tuple(hand) for hand in shown))]
    pairs = tuple(
        (seats_in_hand[p.first], seats_in_hand[p.second], p.rows, p.total, p.reason)
        for p in score.pairs
    )
    more.extend(PairScored(*pair) for pair in pairs)
    payments = tuple(
        (seats_in_hand[p.payer], seats_in_hand[p.winner], p.amount) for p in score.payments
    )
    more.extend(PaymentMade(*payment) for payment in payments)
    units = tuple(zip(seats_in_hand, score.units, strict=True))
    stacks = tuple(zip(seats_in_hand, score.stacks, strict=True))
    more.append(HandEnded(state.hand_number, units, stacks))
    seats = list(state.seats)
    for seat, amount in stacks:
        current = seats[seat]
        assert current is not None
        seats[seat] = replace(current, stack=amount)
        if current.leaving:
            more.append(PlayerLeft(seat, amount))
            seats[seat] = None
    statuses = tuple(
        (entry.seat, status.kind, status.natural, status.why)
        for entry, status in zip(entries, score.statuses, strict=True)
    )
    result = Result(statuses, pairs, payments, units)
    config = state.config
    if state.next_unit is not None:  # a level raised during the hand: from the next one
        config = raised_config(config, state.next_unit)
    ended = replace(
        state,
        config=config,
        seats=tuple(seats),
        result=result,
        phase="waiting",
        deadline=None,
        banks=state.banks.stopped(),
        next_unit=None,
    )
    if state.config.pause_seconds > 0:
        ended = replace(ended, phase="pause", deadline=now + state.config.pause_seconds)
    else:
        ended = _reconsider(ended, now)
    return ended, events + tuple(more)
