"""Settling a classic Guts deal (docs/rules/guts-classic.md: the basic game and every option).

Decisions where the page is silent:

- One player In takes the pot unseen, unless the hand must prove something: against the ghost,
  or under ``single_in_needs=pair``; then it is shown.
- Wimp and Henry rules (nobody In): the best hand of the deal pays, and that hand alone is
  shown so everyone can check who pays; tied best hands share the payment.
- Every payment is capped by the payer's table stack (nobody loses more than the stack).
- ``payment_multiple`` applies to every payment of a pot amount (losers, a lone hand without
  the pair it needs, Henry's match), and ``max_loss`` (4-2-2) caps each one.
- When the ghost beats every In hand, everyone In pays into the pot, also under Winner Takes
  All (there is no winner to pay).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from games.cards import RANKS, parse_cards
from games.engine import rake_amount, seat_order, split_amount
from games.guts import events as ev
from games.guts.books import Books
from games.guts.classic.config import ClassicConfig
from games.guts.classic.state import ClassicState
from games.guts.rounds import next_button, with_stack
from games.guts.showdown import best_seats, describe, hand_key, worst_seats
from games.guts.table import Seat

__all__ = [
    "Settlement",
    "close_hand",
    "describe_hand",
    "hand_of",
    "hand_rules",
    "key_for",
    "loss",
    "pair_floor",
    "settle",
    "settle_hi_lo",
    "show",
]


@dataclass(frozen=True, slots=True)
class Settlement:
    """What a showdown did: the books, who won what, who paid, which hands are now public."""

    books: Books
    winners: tuple[tuple[int, int], ...]
    owed: tuple[tuple[int, int], ...]
    revealed: tuple[int, ...]


def hand_rules(state: ClassicState) -> tuple[str, tuple[tuple[str, object], ...]]:
    """The evaluator kind and options of this deal's hands (this stage's, in a game in
    stages): the table's ranking options and the wild ranks in force."""
    config = state.config
    kind = config.stage_rules(state.stage).kind if config.staged else config.hand_kind
    return kind, config.ranking + ((("wild_ranks", state.wild),) if state.wild else ())


def key_for(state: ClassicState) -> Callable[[Sequence[int]], int]:
    """The key function of this deal's hands: greater is better (a low stage's key already
    puts the lowest hand highest)."""
    return hand_key(*hand_rules(state))


def loss(config: ClassicConfig, pot: int) -> int:
    """What a payment of "the pot" costs: times ``payment_multiple``, at most ``max_loss``."""
    amount = pot * config.payment_multiple
    return amount if config.max_loss is None else min(amount, config.max_loss)


def hand_of(state: ClassicState, seat: int) -> tuple[int, ...]:
    """The cards ``seat`` plays: its own and the community card (the Batey)."""
    return state.cards[seat] + state.community


def describe_hand(state: ClassicState, cards: tuple[int, ...]) -> str:
    """A hand in words, by this deal's (or stage's) ranking."""
    kind, options = hand_rules(state)
    return describe(kind, cards, options)


def show(state: ClassicState, books: Books, seats: Sequence[int]) -> None:
    """Show ``seats``' hands to everyone (``hand_shown``)."""
    for seat in seats:
        cards = hand_of(state, seat)
        books.events.append(ev.HandShown(seat, state.cards[seat], describe_hand(state, cards)))


def _nobody_in(state: ClassicState, books: Books) -> tuple[int, ...]:
    """The ``all_out`` rule; the seats whose hands it shows."""
    config = state.config
    rule = config.all_out
    if rule == "carry":
        books.events.append(ev.PotCarried(state.pot))
        return ()
    if rule == "chicken_fee":
        for seat in state.dealt:
            books.ante(seat, config.ante)
        return ()
    key = key_for(state)
    best = best_seats({seat: key(hand_of(state, seat)) for seat in state.dealt})
    show(state, books, best)
    cost = config.ante * len(state.dealt) if rule == "wimp" else loss(config, state.pot)
    for seat, share in split_amount(cost, list(best), books.button).items():
        if share:
            books.pay_into_pot(seat, share, owed=share)
    return best


def settle(state: ClassicState, choices: Sequence[str]) -> Settlement:
    """Settle the deal in ``state`` with the final ``choices`` (``in`` / ``out`` per seat)."""
    config = state.config
    assert state.button is not None
    books = Books(
        [None if seat is None else seat.stack for seat in state.seats],
        pot=state.pot,
        reserve=state.reserve,
        button=state.button,
    )
    players = [seat for seat in state.dealt if choices[seat] == "in"]
    for seat in state.dealt:
        if choices[seat] != "in":
            books.events.append(ev.Mucked(seat))
    pot = state.pot
    amount = loss(config, pot)
    rake = {"basis_points": config.rake_basis_points, "cap": config.rake_cap}
    winners: list[tuple[int, int]] = []
    owed: list[tuple[int, int]] = []
    ghost_plays = bool(players) and (
        config.ghost == "always" or (config.ghost == "single_in" and len(players) == 1)
    )
    key = key_for(state)
    if not players:
        revealed = _nobody_in(state, books)
    elif len(players) == 1 and not ghost_plays:
        (alone,) = players
        cards = hand_of(state, alone)
        if config.single_in_needs == "pair" and key(cards) < pair_floor(state):
            show(state, books, players)
            books.pay_into_pot(alone, amount, owed=amount)
            owed.append((alone, amount))
            revealed = (alone,)
        else:
            winners = books.award(pot, players, **rake)
            revealed = ()
    else:
        show(state, books, players)
        keys = {seat: key(hand_of(state, seat)) for seat in players}
        beaten = keys
        if ghost_plays:
            ghost = state.ghost + state.community
            books.events.append(ev.GhostShown(state.ghost, describe_hand(state, ghost)))
            ghost_key = key(ghost)
            beaten = {seat: value for seat, value in keys.items() if value > ghost_key}
        best = best_seats(beaten) if beaten else ()
        losers = {seat: value for seat, value in keys.items() if seat not in best}
        if best and losers and config.payers == "worst_losers":
            payers: Sequence[int] = worst_seats(losers)
        else:
            payers = sorted(losers)
        if best and config.winner_takes_pot:
            winners = books.award(pot, best, **rake)
        for payer in seat_order(payers, books.button):
            owed.append((payer, amount))
            if best and config.losers_pay == "winner":
                books.pay_seats(payer, best, amount)
            else:
                books.pay_into_pot(payer, amount, owed=amount)
        revealed = tuple(players)
    books.balance(config.pot_limit)
    return Settlement(books, tuple(winners), tuple(owed), tuple(revealed))


def close_hand(
    state: ClassicState,
    settlement: Settlement,
    choices: Sequence[str],
    now: float,
    events: list[Any],
    *,
    game_over: bool,
    reason: str = "pot_empty",
    **changes: Any,
) -> ClassicState:
    """The end of a hand (of its last stage, in a game in stages): the settlement's events,
    ``hand_ended``, players leaving stand up, the game's end (``reason``), the button moves,
    the pause. ``changes``: more fields of the new state."""
    config = state.config
    books = settlement.books
    events.extend(books.events)
    events.append(
        ev.HandEnded(
            state.hand, state.pot, books.rake, settlement.winners, settlement.owed, game_over
        )
    )
    seats: list[Seat | None] = []
    for index, player in enumerate(state.seats):
        stack = books.stacks[index]
        if player is None or stack is None:
            seats.append(None)
        elif player.leaving:
            events.append(ev.PlayerLeft(index, stack))
            seats.append(None)
        else:
            in_game = player.in_round and not game_over
            seats.append(with_stack(player, stack - player.stack, in_round=in_game))
    if game_over:
        events.append(ev.RoundEnded(state.game, reason))
    button = next_button(seats, state.button)
    if button is not None and button != state.button:
        events.append(ev.ButtonMoved(button))
    return replace(
        state,
        seats=tuple(seats),
        pot=books.pot,
        reserve=books.reserve,
        phase="pause",
        deadline=now + config.showdown_seconds,
        button=button,
        choices=tuple(choices),
        turn=None,
        revealed=settlement.revealed,
        # the games in stages ante every deal, whoever paid
        excused=() if config.staged else tuple(sorted(set(books.paid))),
        game_active=not game_over,
        **changes,
    )


def pair_floor(state: ClassicState) -> int:
    """The key of this table's lowest pair: a hand at least this good is "a pair or better"."""
    return _pair_floor(state.config.hand_kind, state.config.ranking, state.wild)


@cache
def _pair_floor(kind: str, ranking: tuple[tuple[str, object], ...], wild: str) -> int:
    natural = [rank for rank in RANKS if rank not in wild]
    pair, kicker = natural[0], natural[1]
    text = f"{pair}c {pair}d" + (f" {kicker}h" if kind == "three_card" else "")
    options = ranking + ((("wild_ranks", wild),) if wild else ())
    return hand_key(kind, options)([card.index for card in parse_cards(text)])


def _hi_lo_winners(
    keys: dict[int, int], choices: Sequence[str], ghost_key: int | None
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The best High and best Low hands, after dropping High-Low declarers who fail either way.

    A High-Low declarer must win or tie both ways; one who fails is out of both directions and
    the halves go to the best of the others (repeated until nobody else fails).
    """
    both = {seat for seat in keys if choices[seat] == "both"}
    while True:
        high = {s: k for s, k in keys.items() if choices[s] == "high" or s in both}
        low = {s: -k for s, k in keys.items() if choices[s] == "low" or s in both}
        if ghost_key is not None:
            high = {s: k for s, k in high.items() if k > ghost_key}
            low = {s: k for s, k in low.items() if k > -ghost_key}
        high_best = best_seats(high) if high else ()
        low_best = best_seats(low) if low else ()
        failing = {s for s in both if s not in high_best or s not in low_best}
        if not failing:
            return high_best, low_best
        both -= failing


def settle_hi_lo(state: ClassicState, choices: Sequence[str]) -> Settlement:
    """Hi-Lo (docs/rules/guts-classic.md, "Hi-Lo"): half the pot to the best High, half to the best
    Low (the lowest hand by the ranking in force); everyone else who declared pays the pot.

    The rake is taken once, on what is won; of the raked pot the Low half is the floor of half
    and the High half the rest. A half nobody wins stays in the pot.
    """
    config = state.config
    assert state.button is not None
    books = Books(
        [None if seat is None else seat.stack for seat in state.seats],
        pot=state.pot,
        reserve=state.reserve,
        button=state.button,
    )
    players = [seat for seat in state.dealt if choices[seat] != "out"]
    for seat in state.dealt:
        if choices[seat] == "out":
            books.events.append(ev.Mucked(seat))
    if not players:
        revealed = _nobody_in(state, books)
        books.balance(config.pot_limit)
        return Settlement(books, (), (), revealed)
    show(state, books, players)
    key = key_for(state)
    keys = {seat: key(hand_of(state, seat)) for seat in players}
    ghost_key = None
    if config.ghost == "always" or (config.ghost == "single_in" and len(players) == 1):
        ghost = state.ghost + state.community
        books.events.append(ev.GhostShown(state.ghost, describe_hand(state, ghost)))
        ghost_key = key(ghost)
    high, low = _hi_lo_winners(keys, choices, ghost_key)
    pot = state.pot
    won = (pot - pot // 2 if high else 0) + (pot // 2 if low else 0)
    winners: list[tuple[int, int]] = []
    if won:
        rake = rake_amount(won, basis_points=config.rake_basis_points, cap=config.rake_cap)
        if rake:
            books.events.append(ev.RakeTaken(rake))
            books.rake += rake
            books.pot -= rake
        net = won - rake
        low_share = (net // 2 if high else net) if low else 0
        for seats, amount in ((low, low_share), (high, net - low_share)):
            if seats and amount:
                for seat, share in split_amount(amount, list(seats), books.button).items():
                    books.pot -= share
                    books.events.append(ev.PotWon(seat, share))
                    stack = books.stacks[seat]
                    assert stack is not None
                    books.stacks[seat] = stack + share
                    winners.append((seat, share))
    amount = loss(config, pot)
    owed = []
    for payer in seat_order([s for s in players if s not in high and s not in low], books.button):
        books.pay_into_pot(payer, amount, owed=amount)
        owed.append((payer, amount))
    books.balance(config.pot_limit)
    return Settlement(books, tuple(winners), tuple(owed), tuple(players))
