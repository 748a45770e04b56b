"""Four-Two-Two and Four-Two-Three (docs/rules/guts-classic.md, "Games with a second deal").

Four cards down, twos wild, a simultaneous declare. With two or more In, 4-2-2 gives each of
them two more cards face up (the best five of six), 4-2-3 turns up three community cards (the
best five of their four and the three); then the showdown of the basic game
(:func:`games.guts.classic.settle.settle`): the best hand takes the pot, losers match it, each
payment capped by ``max_loss``. The game ends when the pot is empty: a player In alone takes it.

Options (seed 001): ``dropped_pay_ante``, ``nobody_plays_penalty``, ``lone_vs_deck``.

Decisions where the page is silent:

- The extra cards come only when two or more are In (a lone player takes the pot unseen, or
  plays four cards against the deck). 4-2-2's face-up cards go round the players In one at a
  time, from the dealer's left, twice; 4-2-3's three come after them in the stock.
- Four cards are ranked (against the deck, and for the nobody-plays penalty) by what they
  make without straights or flushes, which need five: four of a kind > three of a kind > two
  pair > pair > high card, twos wild; ties by the group's rank, then the odd cards.
- ``lone_vs_deck``: the deck's next four cards are turned up (``deck_hand_shown``); a tie is
  not a win, and costs nothing: the pot stays.
- ``nobody_plays_penalty``: every hand that pays is shown (the best of all, and each hand
  holding a two); a player in both groups pays once. Without it, ``all_out`` applies.
- ``dropped_pay_ante``: on a deal where at least one loser matches, everyone who was Out
  antes again (all the stack, if less).

>>> from games.cards import parse_cards
>>> hand = [card.index for card in parse_cards("Kc Kd 2h 9s")]
>>> describe_four(hand, "2")
'three kings, nine kicker'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from games.cards import RANKS
from games.engine import seat_order
from games.evaluators.values import (
    HIGH_CARD,
    PAIR,
    QUADS,
    TRIPS,
    TWO_PAIR,
    pack,
)
from games.evaluators.values import describe as describe_key
from games.guts import events as ev
from games.guts.books import Books
from games.guts.classic.settle import Settlement, loss, settle
from games.guts.classic.state import ClassicState
from games.guts.showdown import best_seats

__all__ = ["deal_extra", "describe_four", "four_card_key", "settle_four_two"]

_SHAPES = {(4,): QUADS, (3, 1): TRIPS, (2, 2): TWO_PAIR, (2, 1, 1): PAIR, (1, 1, 1, 1): HIGH_CARD}


def four_card_key(cards: Sequence[int], wild: str) -> int:
    """The key of four cards (greater is better): groups of a rank, wild cards joining the
    largest (then the highest) group, so they always make the most of a kind.

    >>> from games.cards import parse_cards
    >>> key = lambda text: four_card_key([c.index for c in parse_cards(text)], "2")
    >>> key("2c 2d 2h 2s") > key("Ac Ad Ah 3s") > key("Kc Kd 2s 9h") > key("Kc Kd 9s 9h")
    True
    """
    counts: dict[int, int] = {}
    wilds = 0
    for card in cards:
        rank = card // 4 + 2
        if RANKS[rank - 2] in wild:
            wilds += 1
        else:
            counts[rank] = counts.get(rank, 0) + 1
    groups = sorted(((count, rank) for rank, count in counts.items()), reverse=True)
    if groups:
        groups[0] = (groups[0][0] + wilds, groups[0][1])
    else:
        groups = [(wilds, 14)]  # four wild cards: four aces
    category = _SHAPES[tuple(count for count, _ in groups)]
    return pack(category, category, [rank for _, rank in groups])


def describe_four(cards: Sequence[int], wild: str) -> str:
    """Four cards in words (for the deck's hand and the penalty)."""
    return describe_key("five_card", four_card_key(cards, wild))


def deal_extra(state: ClassicState, choices: Sequence[str], events: list[Any]) -> ClassicState:
    """With two or more In: 4-2-2's two face-up cards each, or 4-2-3's community cards; with
    one In and ``lone_vs_deck``: the deck's four cards (kept as ``ghost``). From the stock."""
    config = state.config
    ins = [seat for seat in state.dealt if choices[seat] == "in"]
    stock = list(state.stock)
    if len(ins) == 1 and config.lone_vs_deck:
        deck_hand = tuple(stock[:4])
        events.append(ev.DeckHandShown(deck_hand, describe_four(deck_hand, state.wild)))
        return replace(state, ghost=deck_hand, stock=tuple(stock[4:]))
    if len(ins) < 2:
        return state
    if config.community_after_declare:
        count = config.community_after_declare
        community = tuple(stock[:count])
        events.append(ev.CommunityCard(community))
        return replace(state, community=community, stock=tuple(stock[count:]))
    cards = list(state.cards)
    face_up = list(state.face_up)
    for _ in range(2):
        for seat in ins:
            card = stock.pop(0)
            cards[seat] = (*cards[seat], card)
            face_up.append(card)
            events.append(ev.FaceUpCard(seat, card))
    return replace(state, cards=tuple(cards), face_up=tuple(face_up), stock=tuple(stock))


def settle_four_two(state: ClassicState, choices: Sequence[str]) -> Settlement:
    """Settle a deal of 4-2-2 or 4-2-3 (after :func:`deal_extra`)."""
    config = state.config
    ins = [seat for seat in state.dealt if choices[seat] == "in"]
    if not ins and config.nobody_plays_penalty:
        return _penalty(state)
    if len(ins) == 1 and config.lone_vs_deck:
        return _versus_deck(state, ins[0])
    settlement = settle(state, choices)
    books = settlement.books
    if config.dropped_pay_ante and len(ins) >= 2 and settlement.owed:
        for seat in seat_order(state.dealt, books.button):
            if choices[seat] != "in":
                books.ante(seat, config.ante)
        books.balance(config.pot_limit)
    return settlement


def _books(state: ClassicState) -> Books:
    assert state.button is not None
    stacks = [None if seat is None else seat.stack for seat in state.seats]
    return Books(stacks, pot=state.pot, reserve=state.reserve, button=state.button)


def _four_shown(state: ClassicState, books: Books, seats: Sequence[int]) -> None:
    for seat in seats:
        cards = state.cards[seat]
        books.events.append(ev.HandShown(seat, cards, describe_four(cards, state.wild)))


def _penalty(state: ClassicState) -> Settlement:
    """Nobody In: the best four cards of all match the pot, as does every hand with a two."""
    books = _books(state)
    for seat in state.dealt:
        books.events.append(ev.Mucked(seat))
    keys = {seat: four_card_key(state.cards[seat], state.wild) for seat in state.dealt}
    best = set(best_seats(keys))
    twos = {
        seat for seat in state.dealt if any(RANKS[c // 4] in state.wild for c in state.cards[seat])
    }
    payers = seat_order(best | twos, books.button)
    _four_shown(state, books, payers)
    amount = loss(state.config, state.pot)
    for seat in payers:
        books.pay_into_pot(seat, amount, owed=amount)
    books.balance(state.config.pot_limit)
    return Settlement(books, (), tuple((seat, amount) for seat in payers), tuple(payers))


def _versus_deck(state: ClassicState, alone: int) -> Settlement:
    """``lone_vs_deck``: the lone hand's four cards against the deck's next four."""
    config = state.config
    books = _books(state)
    for seat in state.dealt:
        if seat != alone:
            books.events.append(ev.Mucked(seat))
    _four_shown(state, books, (alone,))
    mine = four_card_key(state.cards[alone], state.wild)
    theirs = four_card_key(state.ghost, state.wild)
    winners: list[tuple[int, int]] = []
    owed: list[tuple[int, int]] = []
    if mine > theirs:
        rake = {"basis_points": config.rake_basis_points, "cap": config.rake_cap}
        winners = books.award(state.pot, (alone,), **rake)
    elif mine < theirs:
        amount = loss(config, state.pot)
        books.pay_into_pot(alone, amount, owed=amount)
        owed.append((alone, amount))
    else:
        books.events.append(ev.PotCarried(state.pot))
    books.balance(config.pot_limit)
    return Settlement(books, tuple(winners), tuple(owed), (alone,))
