"""Classic one-deal Guts as a state machine (docs/rules/guts-classic.md).

``apply(state, action) -> (state, events)``. Player actions: ``sit`` (``stack``), ``leave``,
``top_up`` (``amount``), ``sit_out``, ``sit_in``, ``pass`` (``card``, Pass Left), ``declare``
(``choice``: ``in`` or ``out``; Hi-Lo: ``high``, ``low``, ``both``, ``out``). Runtime actions:
``connect`` / ``disconnect``, ``deal`` (``deck``), ``timeout``, ``return_pot``
(games/guts/pot_return.py).

Decisions where the page is silent (besides those in :mod:`games.guts.classic.deal` and
:mod:`games.guts.classic.settle`):

- Sequential declare: each choice is public at once (players see the earlier choices). The
  dealer In automatically when everyone before is Out counts as declaring In, and takes the
  pot unseen. That automatic In is only where no other rule governs a lone hand
  (``ClassicConfig.dealer_auto_in``): with a ghost hand, Winner Takes All,
  ``single_in_needs=pair`` or ``dealer_challenge`` the dealer declares last like everyone, and
  if all are Out the ``all_out`` rule applies. With ``dealer_challenge``, a dealer who declares
  In alone opens the challenge round: every other player may declare In once more, in order.
  A player whose turn times out is Out.
- Hi-Lo: players declare ``high``, ``low``, ``both`` or ``out``; there is no automatic In for
  the dealer (any declare may end with everyone Out, and ``all_out`` applies).
- Time bank (sequential declare, ``time_bank``): a player whose turn times out with seconds in
  their reserve goes on their bank (games/time_bank.py); Out when that runs out too.
- Pass Left: a player who lets the pass time out passes their last card.
- No Peek: a seat's own cards stay hidden from it until the showdown (the deal's events are
  readable by nobody; each owner sees its cards in the view once the hand is over).
- Two Plus One: a lone player In after the first declare takes the pot on two cards; the
  dealer's rules apply to the first declare only; with ``second_declare`` the extra ante is
  posted as the third card is dealt (all the stack, if less).
- The games with several deals and stages: :mod:`games.guts.classic.fourtwo` and
  :mod:`games.guts.classic.stages`.
- Leaving during a hand is Out at once (a choice already made stands); the stack goes back
  when the hand ends. Chips may be added between deals only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from games.cards import DECK
from games.engine import IllegalAction
from games.guts import events as ev
from games.guts.books import Books
from games.guts.checks import action_amount, action_now, action_seat, check_top_up, sit_request
from games.guts.classic.deal import deal_cards, eligible, next_deal
from games.guts.classic.fourtwo import deal_extra, settle_four_two
from games.guts.classic.pot_return import return_classic_pot
from games.guts.classic.settle import close_hand, settle, settle_hi_lo
from games.guts.classic.stages import finish_stage, next_stage, stage_started
from games.guts.classic.state import ClassicState
from games.guts.rounds import put, with_stack
from games.guts.table import Seat
from games.time_bank import expire
from games.words import one_of, words

__all__ = ["CLASSIC_ACTIONS", "apply", "choices_of", "in_hand"]

Events = list[Any]
Handler = Callable[[ClassicState, Mapping[str, Any], float, Events], ClassicState]


def in_hand(state: ClassicState, seat: int) -> bool:
    """Whether ``seat`` is in a hand being played (from the deal request to the showdown)."""
    return state.phase in ("deal", "pass", "declare", "stage_over") and seat in state.dealt


def _wake(state: ClassicState, now: float) -> ClassicState:
    if state.phase == "waiting" and len(eligible(state)) >= 2:
        return replace(state, phase="pause", deadline=now + state.config.showdown_seconds)
    return state


def _player(state: ClassicState, seat: int) -> Seat:
    player = state.seats[seat]
    assert player is not None
    return player


def _sit(
    state: ClassicState, action: Mapping[str, Any], now: float, events: Events
) -> ClassicState:
    index, player, amount = sit_request(state, action)
    events.append(ev.PlayerSat(index, player, amount))
    banks = state.banks.refill_seat(index, state.config.time_bank)
    seated = replace(state, seats=put(state.seats, index, Seat(player, amount)), banks=banks)
    return _wake(seated, now)


def _leave(
    state: ClassicState, action: Mapping[str, Any], now: float, events: Events
) -> ClassicState:
    index = action_seat(state, action)
    player = _player(state, index)
    if not in_hand(state, index):
        events.append(ev.PlayerLeft(index, player.stack))
        return replace(state, seats=put(state.seats, index, None))
    if player.leaving:
        raise IllegalAction(words("you are already leaving when this hand ends"))
    state = replace(state, seats=put(state.seats, index, with_stack(player, 0, leaving=True)))
    if state.phase == "declare" and not state.choices[index]:
        return _choose(state, index, "out", now, events)
    return state


def _top_up(
    state: ClassicState, action: Mapping[str, Any], now: float, events: Events
) -> ClassicState:
    index = action_seat(state, action)
    player = _player(state, index)
    amount = action_amount(action, "amount")
    if in_hand(state, index):
        raise IllegalAction(words("chips can't be added while you are in a hand"))
    check_top_up(state.config, player.stack, amount)
    events.append(ev.ToppedUp(index, amount))
    return _wake(replace(state, seats=put(state.seats, index, with_stack(player, amount))), now)


def _flag(name: str, value: bool) -> Handler:
    def handler(
        state: ClassicState, action: Mapping[str, Any], now: float, events: Events
    ) -> ClassicState:
        index = action_seat(state, action)
        player = _player(state, index)
        if getattr(player, name) == value:
            if name == "connected":
                return state  # a repeated notice from the runtime changes nothing
            raise IllegalAction(
                words("you are already sitting out") if value else words("you are not sitting out")
            )
        if name == "connected":
            events.append(ev.ConnectionChanged(index, value))
        else:
            events.append(ev.SatOut(index, "asked") if value else ev.SatIn(index))
        seats = put(state.seats, index, with_stack(player, 0, **{name: value}))
        return _wake(replace(state, seats=seats), now)

    return handler


def _deal(
    state: ClassicState, action: Mapping[str, Any], now: float, events: Events
) -> ClassicState:
    state = deal_cards(state, action, now, events)
    if state.config.staged:
        events.append(stage_started(state))
    if state.phase == "declare":
        return _next_turn(state, now, events)
    return state


def _pass(
    state: ClassicState, action: Mapping[str, Any], now: float, events: Events
) -> ClassicState:
    index = action_seat(state, action)
    if state.phase != "pass" or index not in state.dealt:
        raise IllegalAction(words("there is no card to pass now"))
    if state.passes[index] >= 0:
        raise IllegalAction(words("you have already passed a card"))
    text = action.get("card")
    hand = state.cards[index]
    chosen = [card for card in hand if isinstance(text, str) and _text(card) == text.strip()]
    if not chosen:
        shown = ", ".join(_text(card) for card in hand)
        raise IllegalAction(
            words("pass one of your cards ({cards}), not {value}", cards=shown, value=repr(text))
        )
    events.append(ev.CardPassed(index))
    state = replace(state, passes=put(state.passes, index, chosen[0]))
    if all(state.passes[seat] >= 0 for seat in state.dealt):
        return _exchange(state, now, events)
    return state


def _text(card: int) -> str:
    return str(DECK[card])


def _exchange(state: ClassicState, now: float, events: Events) -> ClassicState:
    """Every passed card goes to the next player clockwise (to the left)."""
    cards = list(state.cards)
    order = state.dealt
    for position, giver in enumerate(order):
        receiver = order[(position + 1) % len(order)]
        card = state.passes[giver]
        cards[giver] = tuple(held for held in cards[giver] if held != card)
        events.append(ev.CardReceived(receiver, giver, card))
    for position, giver in enumerate(order):
        receiver = order[(position + 1) % len(order)]
        cards[receiver] = (*cards[receiver], state.passes[giver])
    state = replace(
        state, cards=tuple(cards), phase="declare", deadline=now + state.config.decision_seconds
    )
    return _next_turn(state, now, events)


def _declare(
    state: ClassicState, action: Mapping[str, Any], now: float, events: Events
) -> ClassicState:
    index = action_seat(state, action)
    if state.phase != "declare" or index not in state.dealt:
        raise IllegalAction(words("you have no hand to declare now"))
    if state.choices[index]:
        raise IllegalAction(words("you have already chosen, and a choice is final"))
    if state.turn is not None and state.turn != index:
        raise IllegalAction(words("it is seat {seat}'s turn to declare", seat=state.turn))
    choice = action.get("choice")
    valid = choices_of(state)
    if choice not in valid:
        raise IllegalAction(
            words(
                "choose {choices}, not {choice}",
                choices=one_of([repr(name) for name in valid]),
                choice=repr(choice),
            )
        )
    return _choose(state, index, str(choice), now, events)


def choices_of(state: ClassicState) -> tuple[str, ...]:
    """What a player may declare at this table."""
    return ("high", "low", "both", "out") if state.config.hi_lo else ("in", "out")


def _sequential(state: ClassicState) -> bool:
    return state.config.declare == "sequential"


def _choose(
    state: ClassicState, seat: int, choice: str, now: float, events: Events, *, late: bool = False
) -> ClassicState:
    """Record a choice; in turn order it is public at once, else only that a seat decided.
    A choice in one's turn takes the time used past the turn's deadline from the time bank."""
    if _sequential(state):
        events.append(ev.Declared(seat, choice, late))
        if seat == state.turn and not late:
            state = replace(state, banks=state.banks.charged(seat, now, state.deadline))
    else:
        events.append(ev.Decided(seat))
    state = replace(state, choices=put(state.choices, seat, choice))
    return _next_turn(state, now, events)


def _next_turn(state: ClassicState, now: float, events: Events) -> ClassicState:
    """Move the turn on (sequential), apply the dealer's rules, or end the declare."""
    waiting = [seat for seat in state.dealt if not state.choices[seat]]
    if not _sequential(state):
        return _finish(state, now, events) if not waiting else state
    if not waiting:
        dealer = state.dealt[-1]
        ins = [seat for seat in state.dealt if state.choices[seat] != "out"]
        if state.config.dealer_challenge and not state.challenge and ins == [dealer]:
            others = [seat for seat in state.dealt if seat != dealer and not _leaving(state, seat)]
            if others:
                choices = list(state.choices)
                for seat in others:
                    choices[seat] = ""
                state = replace(state, choices=tuple(choices), challenge=True)
                return _next_turn(state, now, events)
        return _finish(state, now, events)
    turn = waiting[0]
    dealer = state.dealt[-1]
    others_out = all(state.choices[seat] == "out" for seat in state.dealt if seat != dealer)
    if turn == dealer and others_out and not state.challenge and state.config.dealer_auto_in:
        events.append(ev.Declared(dealer, "in", False))
        state = replace(state, choices=put(state.choices, dealer, "in"))
        return _next_turn(state, now, events)
    if turn == state.turn and state.banks.running(turn):
        return state  # another seat left during this turn's time bank: the bank runs on
    return replace(
        state, turn=turn, deadline=now + state.config.decision_seconds, banks=state.banks.stopped()
    )


def _leaving(state: ClassicState, seat: int) -> bool:
    player = state.seats[seat]
    return player is None or player.leaving


def _finish(state: ClassicState, now: float, events: Events) -> ClassicState:
    """The end of a declare: Two Plus One's third card, or the showdown, then the pause."""
    config = state.config
    choices = [choice or "out" for choice in state.choices]
    if not _sequential(state):
        for seat in state.dealt:
            if not config.two_plus_one or state.stage == 1 or len(state.cards[seat]) == 3:
                events.append(ev.Declared(seat, choices[seat], not state.choices[seat]))
    if config.staged:
        return finish_stage(state, choices, now, events)
    ins = [seat for seat in state.dealt if choices[seat] != "out"]
    if config.two_plus_one and state.stage == 1 and len(ins) >= 2:
        return _third_card(state, ins, choices, now, events)
    if config.partial_reveal:
        state = _turn_up_last_cards(state, choices, events)
    if config.flow == "four_two":
        state = deal_extra(state, choices, events)
        settlement = settle_four_two(state, choices)
    else:
        settlement = (settle_hi_lo if config.hi_lo else settle)(state, choices)
    books = settlement.books
    game_over = books.pot == 0 and books.reserve == 0
    return close_hand(state, settlement, choices, now, events, game_over=game_over)


def _third_card(
    state: ClassicState, ins: list[int], choices: list[str], now: float, events: Events
) -> ClassicState:
    """Two Plus One: each player In gets a third card; with ``second_declare`` it costs an
    ante, and a second declare follows among them (docs/rules/guts-classic.md, "Two Plus One")."""
    config = state.config
    cards = list(state.cards)
    stock = list(state.stock)
    for seat in ins:
        card = stock.pop(0)
        cards[seat] = (*cards[seat], card)
        events.append(ev.CardsDealt(seat, (card,)))
    state = replace(state, cards=tuple(cards), stock=tuple(stock), choices=tuple(choices))
    if not config.second_declare:
        return _finish(replace(state, stage=2), now, events)
    assert state.button is not None
    stacks = [None if seat is None else seat.stack for seat in state.seats]
    books = Books(stacks, pot=state.pot, reserve=state.reserve, button=state.button)
    for seat in ins:
        books.ante(seat, config.ante)
    books.balance(config.pot_limit)
    events.extend(books.events)
    seats = tuple(
        None if player is None else with_stack(player, (stacks_after or 0) - player.stack)
        for player, stacks_after in zip(state.seats, books.stacks, strict=True)
    )
    second = tuple("" if seat in ins else choice for seat, choice in enumerate(choices))
    state = replace(
        state,
        seats=seats,
        pot=books.pot,
        reserve=books.reserve,
        choices=second,
        stage=2,
        challenge=True,  # the dealer's rules belong to the first declare
        deadline=now + config.decision_seconds,
    )
    return _next_turn(state, now, events)


def _turn_up_last_cards(state: ClassicState, choices: list[str], events: Events) -> ClassicState:
    """Partial Reveal: each player In gets the last card face up, from the stock."""
    cards = list(state.cards)
    stock = list(state.stock)
    face_up = list(state.face_up)
    for seat in state.dealt:
        if choices[seat] != "out":
            card = stock.pop(0)
            cards[seat] = (*cards[seat], card)
            face_up.append(card)
            events.append(ev.FaceUpCard(seat, card))
    return replace(state, cards=tuple(cards), stock=tuple(stock), face_up=tuple(face_up))


def _timeout(
    state: ClassicState, action: Mapping[str, Any], now: float, events: Events
) -> ClassicState:
    if state.deadline is None:
        raise IllegalAction(words("nothing is waiting on the clock"))
    if now < state.deadline:
        raise IllegalAction(
            words(
                "the deadline {deadline} has not passed (now {now})",
                deadline=state.deadline,
                now=now,
            )
        )
    if state.phase == "pass":
        passes = list(state.passes)
        for seat in state.dealt:
            if passes[seat] < 0:
                passes[seat] = state.cards[seat][-1]
                events.append(ev.CardPassed(seat))
        return _exchange(replace(state, passes=tuple(passes)), now, events)
    if state.phase == "declare":
        turn = state.turn
        if _sequential(state) and turn is not None:
            expiry = expire(state.banks, [turn], state.deadline, now)
            events.extend(expiry.events())
            state = replace(state, banks=expiry.banks)
            if expiry.started:  # the time bank runs: the turn is still theirs
                return replace(state, deadline=expiry.deadline)
            return _choose(state, turn, "out", now, events, late=True)
        return _finish(state, now, events)
    if state.phase == "stage_over":
        state = next_stage(state, now, events)
        return _next_turn(state, now, events) if state.phase == "declare" else state
    return next_deal(state, now, events)


#: Every action kind of a classic table and its handler.
CLASSIC_ACTIONS: dict[str, Handler] = {
    "sit": _sit,
    "leave": _leave,
    "top_up": _top_up,
    "sit_out": _flag("sitting_out", True),
    "sit_in": _flag("sitting_out", False),
    "connect": _flag("connected", True),
    "disconnect": _flag("connected", False),
    "pass": _pass,
    "declare": _declare,
    "deal": _deal,
    "timeout": _timeout,
    "return_pot": return_classic_pot,
}


def apply(state: ClassicState, action: Mapping[str, Any]) -> tuple[ClassicState, tuple[Any, ...]]:
    """Apply one action: the new state and the events, or :class:`IllegalAction`."""
    if not isinstance(action, Mapping):
        raise IllegalAction(words("an action is a JSON object with a 'kind'"))
    handler = CLASSIC_ACTIONS.get(action.get("kind"))  # type: ignore[arg-type]
    if handler is None:
        kinds = ", ".join(CLASSIC_ACTIONS)
        raise IllegalAction(
            words(
                "unknown action {kind}; actions: {actions}",
                kind=repr(action.get("kind")),
                actions=kinds,
            )
        )
    events: Events = []
    state = handler(state, action, action_now(action), events)
    return state, tuple(events)
