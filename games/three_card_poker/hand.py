"""The deal, Play or Fold, the dealer's reveal and the settlement (docs/rules/three-card-poker.md,
"A round", steps 2 to 5).

Decisions where the rules are silent:

- The deal gives one card at a time to each seat that bet, in seat order, then to the dealer,
  three times round: with ``n`` players, seat ``i`` (the i-th bettor) gets deck positions
  ``i``, ``n + 1 + i`` and ``2(n + 1) + i``, the dealer ``n``, ``2n + 1`` and ``3n + 2``.
- ``play`` may carry an ``amount``; if it does, it must equal the Ante.
- A decision after the deadline, before the clock's timeout arrives, is refused: it is a fold.
  With a time bank (games/time_bank.py) the deadline is the player's own: at the decision
  deadline the timeout starts the bank of each player with a reserve and folds the others; a
  decision during the bank pays for the time used; the bank's end folds the hand.
- Every bet gets a result event at the settlement, the folded Ante included (``ante_lost``),
  so a hand's history lists each bet's fate; the hand ends with each seat's net result.
- Players who asked to leave during the hand are cashed out right after it; the next round's
  betting opens at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.cards import DECK, CardError, card_from_index, parse_cards
from games.engine import Event, IllegalAction
from games.three_card_poker.betting import open_betting
from games.three_card_poker.events import (
    CardsDealt,
    DealerRevealed,
    Folded,
    HandEnded,
    HandStarted,
    Played,
    PlayerLeft,
    result_event,
)
from games.three_card_poker.hands import describe, hand_category, hand_key, qualify_key
from games.three_card_poker.settlement import net_result, settle
from games.three_card_poker.state import SeatState, TableState, seat_of, with_seat
from games.time_bank import expire, next_deadline
from games.words import Money, sentence_of, words

__all__ = ["deal", "decide", "finish_hand", "fold_undecided"]

_INDEX = {str(card): card.index for card in DECK}


def _texts(indices: tuple[int, ...]) -> tuple[str, ...]:
    return tuple(str(card_from_index(index)) for index in indices)


def deal(
    state: TableState, action: Mapping[str, Any], now: float
) -> tuple[TableState, list[Event]]:
    """Deal three cards to each seat that bet and to the dealer, from the action's deck."""
    if state.phase != "dealing":
        raise IllegalAction(words("no deal is due: bets are not closed"))
    deck_text = action.get("deck")
    if not isinstance(deck_text, list) or not all(isinstance(card, str) for card in deck_text):
        raise IllegalAction(words("a deal needs 'deck': a list of all 52 cards as text"))
    deck = [_INDEX.get(text, -1) for text in deck_text]
    if -1 in deck or len(set(deck)) != len(deck):
        # The slow path only to name the fault (a card such as "10h" is also accepted here).
        try:
            deck = [card.index for card in parse_cards(deck_text)]
        except CardError as error:
            raise IllegalAction(words("bad deck: {error}", error=sentence_of(error))) from error
    if len(deck) != 52:
        raise IllegalAction(words("a deck has all 52 cards, not {count}", count=len(deck)))
    bettors = [seat for seat in state.occupied() if seat.ante > 0]
    stride = len(bettors) + 1
    hand = state.hand + 1
    events: list[Event] = [
        HandStarted(hand=hand, bets=tuple((s.seat, s.ante, s.pair_plus) for s in bettors))
    ]
    seats = list(state.seats)
    for position, seat in enumerate(bettors):
        cards = (deck[position], deck[stride + position], deck[2 * stride + position])
        seats[seat.seat] = replace(seat, cards=cards, decision=None, play=0, results=())
        events.append(CardsDealt(seat=seat.seat, cards=_texts(cards)))
    for number, other in enumerate(seats):
        if other is not None and other.ante == 0:
            seats[number] = replace(other, cards=(), decision=None, results=())
    dealer = (deck[stride - 1], deck[2 * stride - 1], deck[3 * stride - 1])
    events.append(CardsDealt(seat=None, cards=_texts(dealer)))
    state = replace(
        state,
        seats=tuple(seats),
        phase="deciding",
        deadline=now + state.config.decision_seconds,
        hand=hand,
        dealer_cards=dealer,
        revealed=False,
        banks=state.banks.refilled(state.config.time_bank),
    )
    return state, events


def decide(
    state: TableState, action: Mapping[str, Any], now: float
) -> tuple[TableState, list[Event]]:
    """A ``play`` or ``fold`` from a seat in the hand; the last decision settles the hand."""
    number = seat_of(state, action)
    seat = state.seats[number]
    assert seat is not None
    kind = action["kind"]
    if state.phase != "deciding" or seat.ante == 0:
        if kind == "play":
            raise IllegalAction(words("seat {seat} has no hand to play now", seat=number))
        raise IllegalAction(words("seat {seat} has no hand to fold now", seat=number))
    if seat.decision is not None:
        if seat.decision == "play":
            raise IllegalAction(words("seat {seat} has already decided: play", seat=number))
        raise IllegalAction(words("seat {seat} has already decided: fold", seat=number))
    if state.deadline is not None and now > state.banks.own_deadline(number, state.deadline):
        raise IllegalAction(words("the time to decide has run out: the hand is folded"))
    events: list[Event] = []
    if kind == "play":
        amount = action.get("amount", seat.ante)
        if amount != seat.ante or isinstance(amount, bool):
            raise IllegalAction(
                words("the Play bet is exactly the Ante, {amount}", amount=Money(seat.ante))
            )
        if seat.ante > seat.stack:
            raise IllegalAction(words("your stack cannot cover the Play bet"))
        seat = replace(seat, stack=seat.stack - seat.ante, play=seat.ante, decision="play")
        events.append(Played(seat=number, amount=seat.ante))
    else:
        seat = replace(seat, decision="fold")
        events.append(Folded(seat=number, ante=seat.ante, timed_out=False))
    state = with_seat(state, seat, number)
    deadline = state.deadline
    state = replace(state, banks=state.banks.charged(number, now, deadline))
    undecided = [other.seat for other in state.in_hand() if other.decision is None]
    if not undecided:
        return finish_hand(state, now, events), events
    return replace(state, deadline=next_deadline(state.banks, undecided, deadline)), events


def fold_undecided(state: TableState, now: float, events: list[Event]) -> TableState:
    """At the decision deadline: every seat yet to decide folds, unless its time bank starts
    or runs on; once nobody is deciding, the hand settles."""
    undecided = [seat.seat for seat in state.in_hand() if seat.decision is None]
    assert state.deadline is not None
    expiry = expire(state.banks, undecided, state.deadline, now)
    events.extend(expiry.events())
    state = replace(state, banks=expiry.banks)
    for seat in list(state.in_hand()):
        if seat.seat in expiry.expired:
            state = with_seat(state, replace(seat, decision="fold"), seat.seat)
            events.append(Folded(seat=seat.seat, ante=seat.ante, timed_out=True))
    if expiry.deadline is not None:  # some players are deciding on their time bank
        return replace(state, deadline=expiry.deadline)
    return finish_hand(state, now, events)


def finish_hand(state: TableState, now: float, events: list[Event]) -> TableState:
    """Reveal the dealer's cards, settle every seat, cash out leavers, open the next round."""
    dealer_key = hand_key(state.dealer_cards)
    qualify = qualify_key()
    events.append(
        DealerRevealed(
            cards=_texts(state.dealer_cards),
            hand=describe(state.dealer_cards),
            qualifies=dealer_key >= qualify,
        )
    )
    tables = state.config.pay_tables
    seats: list[SeatState | None] = list(state.seats)
    results: list[tuple[int, int]] = []
    for seat in state.in_hand():
        key = hand_key(seat.cards)
        bets = settle(
            ante=seat.ante,
            play=seat.play,
            pair_plus=seat.pair_plus,
            player_key=key,
            player_category=hand_category(seat.cards, key),
            dealer_key=dealer_key,
            qualify_key=qualify,
            tables=tables,
        )
        events.extend(result_event(seat.seat, b.bet, b.outcome, b.stake, b.paid) for b in bets)
        paid = sum(b.paid for b in bets)
        shown = tuple((b.bet, b.outcome, b.stake, b.paid) for b in bets)
        seats[seat.seat] = replace(
            seat, stack=seat.stack + paid, ante=0, pair_plus=0, play=0, results=shown
        )
        results.append((seat.seat, net_result(bets)))
    events.append(
        HandEnded(hand=state.hand, results=tuple(results), house=-sum(n for _, n in results))
    )
    for number, leaver in enumerate(seats):
        if leaver is not None and leaver.leaving:
            events.append(PlayerLeft(seat=number, stack=leaver.stack))
            seats[number] = None
    state = replace(
        state,
        seats=tuple(seats),
        phase="idle",
        deadline=None,
        revealed=True,
        banks=state.banks.stopped(),
    )
    return open_betting(state, now, events)
