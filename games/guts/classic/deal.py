"""Dealing a classic Guts hand (docs/rules/guts-classic.md): antes, the deal and its options.

Decisions where the page is silent:

- Antes are posted automatically at a home-game table: every player in play whose stack covers
  the ante antes when one is due. A game's players are those who anted at its start; a player
  who sits down, or sits out, during a game waits for the next one. A player whose stack no
  longer covers the ante is not dealt in (and may top up between deals).
- If fewer than two of a game's players are left to deal to, the game ends: the last one takes
  the pot and the reserve (raked as a pot won); with nobody left they stay for the next game.
- Cards go one at a time round the table from the dealer's left; then the ghost hand, then the
  Batey. Partial Reveal keeps each hand's last card in the stock for the players In. With
  ``low_wild`` the third card is dealt face up; the lowest face-up rank (or the ranks of the
  two lowest face-up cards) is wild, and every holder of a wild face-up card is In
  automatically.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.cards import RANKS
from games.engine import IllegalAction, seat_order
from games.guts import events as ev
from games.guts.books import Books
from games.guts.classic.state import ClassicState
from games.guts.rounds import read_deck, with_stack
from games.words import words

__all__ = ["deal_cards", "eligible", "next_deal"]


def eligible(state: ClassicState) -> list[int]:
    """Seats that could be dealt in now: seated, in play, stack covering the ante."""
    ante = state.config.ante
    return [
        index
        for index, seat in enumerate(state.seats)
        if seat is not None and not seat.sitting_out and not seat.leaving and seat.stack >= ante
    ]


def _with_books(state: ClassicState, books: Books, **changes: Any) -> ClassicState:
    seats = tuple(
        None if seat is None else with_stack(seat, (books.stacks[index] or 0) - seat.stack)
        for index, seat in enumerate(state.seats)
    )
    return replace(state, seats=seats, pot=books.pot, reserve=books.reserve, **changes)


def next_deal(state: ClassicState, now: float, events: list[Any]) -> ClassicState:
    """After the pause: post the antes due and ask for the deck, or end or start a game."""
    config = state.config
    stacks = [None if seat is None else seat.stack for seat in state.seats]
    button = state.button if state.button is not None else -1
    books = Books(stacks, pot=state.pot, reserve=state.reserve, button=button)
    ready = eligible(state)
    fresh: dict[str, Any] = {}  # a new game's marks (legs, nuts, tokens, points) and target
    if not state.game_active or config.time_bank_refill == "hand":
        fresh["banks"] = state.banks.refilled(config.time_bank)  # a "round" is a game
    if not state.game_active:
        if len(ready) < 2:
            return replace(state, phase="waiting", deadline=None)
        events.append(ev.RoundStarted(state.game + 1, tuple(ready)))
        seeders = ready
        if config.flow == "toh":  # the pot is seeded with one unit, by the game's first dealer
            seeders = seat_order(ready, state.button if state.button is not None else ready[0])[-1:]
        for seat in seeders:
            books.ante(seat, config.ante)
        players, game = ready, state.game + 1
        fresh["marks"] = (0,) * len(state.seats)
        fresh["kept"] = ((),) * len(state.seats)
        fresh["target"] = config.target(len(ready))
    else:
        game = state.game
        players = [seat for seat in ready if _in_game(state, seat)]
        if config.ante_when == "every_deal":
            for seat in players:
                if seat not in state.excused:
                    books.ante(seat, config.ante)
    books.balance(config.pot_limit)  # the pot played for is at most the limit
    events.extend(books.events)
    state = _with_books(state, books, game=game, **fresh)
    seats = list(state.seats)
    for index, player in enumerate(seats):
        if player is not None and player.in_round != (index in players):
            seats[index] = with_stack(player, 0, in_round=index in players)
    state = replace(state, seats=tuple(seats), game_active=True)
    if len(players) < 2:
        return _end_early(state, players, now, events)
    button = state.button if state.button is not None else players[0]
    order = tuple(seat_order(players, button))
    return replace(state, phase="deal", deadline=None, button=button, dealt=order)


def _in_game(state: ClassicState, seat: int) -> bool:
    player = state.seats[seat]
    return player is not None and player.in_round


def _end_early(
    state: ClassicState, players: list[int], now: float, events: list[Any]
) -> ClassicState:
    config = state.config
    books = Books(
        [None if seat is None else seat.stack for seat in state.seats],
        pot=state.pot,
        reserve=state.reserve,
        button=state.button if state.button is not None else 0,
    )
    if players:
        books.balance(books.pot + books.reserve)  # the whole reserve joins the pot
        books.award(books.pot, players, basis_points=config.rake_basis_points, cap=config.rake_cap)
    events.extend(books.events)
    events.append(ev.RoundEnded(state.game, "last_player" if players else "no_players"))
    state = _with_books(state, books)
    seats = tuple(
        None if seat is None else with_stack(seat, 0, in_round=False) for seat in state.seats
    )
    return replace(
        state,
        seats=seats,
        game_active=False,
        phase="pause",
        deadline=now + config.showdown_seconds,
        dealt=(),
    )


def _wild_ranks(face_up: list[int], count: int) -> str:
    lowest = sorted(face_up, key=lambda card: card // 4)[:count]
    return "".join(sorted({RANKS[card // 4] for card in lowest}))


def deal_cards(
    state: ClassicState, action: Mapping[str, Any], now: float, events: list[Any]
) -> ClassicState:
    """Deal the hand from ``action["deck"]`` and open the pass or the declare."""
    if state.phase != "deal":
        raise IllegalAction(
            words("no deal is due now (the table is in its {phase} phase)", phase=state.phase)
        )
    config = state.config
    deck = read_deck(action.get("deck"))
    order = state.dealt
    count = len(order)
    size = config.cards - (1 if config.partial_reveal else 0)
    cards: list[tuple[int, ...]] = [()] * len(state.seats)
    for position, seat in enumerate(order):
        cards[seat] = tuple(deck[position + turn * count] for turn in range(size))
    used = size * count
    ghost: tuple[int, ...] = ()
    if config.ghost != "none":
        ghost = tuple(deck[used : used + config.cards])
        used += config.cards
    community = (deck[used],) if config.community_card else ()
    used += len(community)
    assert state.button is not None
    events.append(ev.HandStarted(state.hand + 1, state.game, state.button, order, state.pot))
    face_up: list[int] = []
    for seat in order:
        hidden = cards[seat][:2] if config.low_wild else cards[seat]
        if config.no_peek:
            events.append(ev.BlindCardsDealt(seat, hidden))
        else:
            events.append(ev.CardsDealt(seat, hidden))
        if config.low_wild:
            face_up.append(cards[seat][2])
            events.append(ev.FaceUpCard(seat, cards[seat][2]))
    if community:
        events.append(ev.CommunityCard(community))
    if config.low_wild:
        wild = _wild_ranks(face_up, config.low_wild)
    elif config.staged:
        wild = config.stage_rules(1).wild
    else:
        wild = "2" if config.flow == "four_two" else ""  # 4-2-2 and 4-2-3: twos wild
    choices = ["" for _ in state.seats]
    for seat in order:
        player = state.seats[seat]
        if player is not None and player.leaving:
            choices[seat] = "out"
        elif config.low_wild and RANKS[cards[seat][2] // 4] in wild:
            choices[seat] = "in"
    return replace(
        state,
        phase="pass" if config.pass_left else "declare",
        deadline=now + config.decision_seconds,
        hand=state.hand + 1,
        cards=tuple(cards),
        face_up=tuple(face_up),
        community=community,
        ghost=ghost,
        stock=tuple(deck[used:]),
        choices=tuple(choices),
        passes=(-1,) * len(state.seats),
        revealed=(),
        stage_result=(),
        wild=wild,
        challenge=False,
        turn=None,
        stage=1,
    )
