"""The games in stages: Three-Five-Seven (legs), Nuts, Napalm (tokens) and Toh (points)
(docs/rules/guts-classic.md, "Games in stages with legs" and "Toh"; the stages: ``STAGES`` in
:mod:`games.guts.classic.config`).

One deck is one hand: its first cards come with the ``deal``; each later stage's cards come
from the same deck's stock. A stage is a declare and its result; then the phase is
``stage_over`` until the timeout deals the next stage, or, after the hand's last stage, the
``pause`` of every classic hand. Marks (legs, nuts, tokens, points) are kept through the game;
the first player to ``target`` takes the pot at once and the game ends::

    deal -> declare -> stage_over -> declare -> ... -> pause -> (antes) deal -> ...

Decisions where the page is silent:

- 3-5-7, Nuts and Napalm: only a player In alone takes a mark (the page: "One In: that player
  takes a leg"); a comparison moves money only. Nobody In: nothing happens, in every game.
- At a comparison, each player In without the best hand pays each best hand the pot (tied best
  hands pay each other nothing); Toh's losers match the pot into it instead. Every payment is
  capped by the payer's stack: a loser short of what it owes tied best hands pays all it has,
  split between them in equal shares (the odd cents one each in seat order from the button,
  as every split). The pot changes only with antes (and Toh's matches).
- The comparisons before the last stage are private in 3-5-7 and in Napalm ("played like
  3-5-7"): the In hands are shown only to the players In (``hand_shown_privately``); Nuts'
  are public (``private_compare``).
- A later stage's cards go to every player of the hand, Out or In, one at a time round the
  table from the dealer's left. A player who asked to leave is Out at every stage left; if
  fewer than two players remain, the hand ends.
- Napalm's "each deal" is one deck's three stages, as in 3-5-7: everyone antes at each.
- Napalm and Toh declare in turn, and the dealer is never In automatically: if everyone before
  the dealer is Out and the dealer says In, the others declare again (the "late In" and the
  "switch": ``dealer_challenge``). 3-5-7 and Nuts declare at once (``declare`` may be set to
  ``sequential``, also without the dealer's automatic In).
- Toh: one card each; after every deal the button moves to the next player of the hand, and
  the next deal comes from the same stock while it holds a card for each player; otherwise the
  next deal takes a new deck (a new hand). The best card (suits break ties) takes a point, and so
  does a player In alone; the point's card stays face up, in everyone's view. The dealer who
  starts a game seeds the pot with one ante. ``to_win`` 0 (the default) sets the points from the
  players at the game's start: 5 for up to four, 4 for five to seven, 3 for eight or more.
- The player who reaches ``target`` takes the whole pot (raked as a pot won) and the game
  ends; the stage's payments stand.

>>> from games.guts.classic.config import classic_config
>>> describe_stage(classic_config("three_five_seven", {"ante": 100}), 2)
'stage 2 of 3: five cards, fives wild, high'
>>> describe_stage(classic_config("toh", {"ante": 100}), 4)
'deal 4 from this deck: one card, high'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from games.cards import RANKS
from games.engine import seat_order
from games.guts import events as ev
from games.guts.books import Books
from games.guts.classic.config import STAGES, ClassicConfig
from games.guts.classic.settle import Settlement, close_hand, describe_hand, hand_of, key_for
from games.guts.classic.state import ClassicState
from games.guts.rounds import with_stack
from games.guts.showdown import best_seats

__all__ = ["MARKS", "describe_stage", "finish_stage", "next_stage", "stage_started"]

#: What a player collects in each game in stages.
MARKS: dict[str, str] = {"legs": "leg", "nuts": "nut", "napalm": "token", "toh": "point"}
_MARK_EVENTS = {"legs": ev.LegWon, "nuts": ev.NutWon, "napalm": ev.TokenWon}
_WORDS = ("one", "two", "three", "four", "five", "six", "seven")
_PLURALS = {"6": "sixes", "T": "tens", "J": "jacks", "Q": "queens", "K": "kings", "A": "aces"}
_NAMES = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines")


def describe_stage(config: ClassicConfig, stage: int) -> str:
    """A stage in words: which of how many, the cards, the wild ranks and the direction."""
    rules = config.stage_rules(stage)
    stages = len(STAGES[config.flow])
    where = f"deal {stage} from this deck" if config.flow == "toh" else f"stage {stage} of {stages}"
    cards = _WORDS[rules.cards - 1] + (" card" if rules.cards == 1 else " cards")
    wild = [_rank_plural(rank) for rank in rules.wild]
    wild_text = f", {' and '.join(wild)} wild" if wild else ""
    return f"{where}: {cards}{wild_text}, {'low' if rules.low else 'high'}"


def _rank_plural(rank: str) -> str:
    index = RANKS.index(rank)
    return _NAMES[index] if index < len(_NAMES) else _PLURALS[rank]


def stage_started(state: ClassicState) -> ev.StageStarted:
    """The public event opening the state's stage."""
    rules = state.config.stage_rules(state.stage)
    direction = "low" if rules.low else "high"
    return ev.StageStarted(state.stage, rules.cards, direction, state.wild, state.dealt[-1])


def _leaving(state: ClassicState, seat: int) -> bool:
    player = state.seats[seat]
    return player is None or player.leaving


def _books(state: ClassicState) -> Books:
    assert state.button is not None
    stacks = [None if seat is None else seat.stack for seat in state.seats]
    return Books(stacks, pot=state.pot, reserve=state.reserve, button=state.button)


def _last_stage(state: ClassicState) -> bool:
    """Whether the hand ends after this stage: its last stage, Toh's stock too short for
    another deal, or fewer than two players left."""
    players = [seat for seat in state.dealt if not _leaving(state, seat)]
    if len(players) < 2:
        return True
    if state.config.flow == "toh":
        return len(state.stock) < len(players)
    return state.stage >= len(STAGES[state.config.flow])


def finish_stage(
    state: ClassicState, choices: Sequence[str], now: float, events: list[Any]
) -> ClassicState:
    """Settle the stage just declared: marks, comparisons, the pot to a player at ``target``;
    then the next stage waits (``stage_over``), or the hand ends."""
    config = state.config
    books = _books(state)
    ins = [seat for seat in state.dealt if choices[seat] != "out"]
    for seat in state.dealt:
        if choices[seat] == "out":
            books.events.append(ev.Mucked(seat))
    private = config.private_compare and state.stage < len(STAGES[config.flow])
    owed: list[tuple[int, int]] = []
    gainer = ins[0] if len(ins) == 1 else None
    if len(ins) >= 2:
        best = _compare(state, books, ins, private)
        amount = state.pot
        for loser in seat_order([seat for seat in ins if seat not in best], books.button):
            if config.flow == "toh":
                owed.append((loser, books.pay_into_pot(loser, amount, owed=amount)))
            else:
                # the loser owes each best hand the pot: what it can pay of that is split
                # between them (floor shares, odd cents in seat order from the button)
                owed.append((loser, books.pay_seats(loser, best, amount * len(best))))
        if config.flow == "toh":
            gainer = best[0]  # suits break ties: one best card
    if gainer is not None:
        state = _mark(state, gainer, books)
    revealed = tuple(ins) if len(ins) >= 2 else ()
    if gainer is not None and state.marks[gainer] >= state.target:
        rake = {"basis_points": config.rake_basis_points, "cap": config.rake_cap}
        winners = books.award(books.pot, (gainer,), **rake)
        settlement = Settlement(books, tuple(winners), tuple(owed), revealed)
        reason = f"{MARKS[config.flow]}s_won"
        return close_hand(
            state,
            settlement,
            choices,
            now,
            events,
            game_over=True,
            reason=reason,
            private_show=private,
        )
    if _last_stage(state):
        settlement = Settlement(books, (), tuple(owed), revealed)
        return close_hand(
            state, settlement, choices, now, events, game_over=False, private_show=private
        )
    events.extend(books.events)
    seats = tuple(
        None if seat is None else with_stack(seat, (books.stacks[index] or 0) - seat.stack)
        for index, seat in enumerate(state.seats)
    )
    return replace(
        state,
        stage_result=stage_result(books.events),
        seats=seats,
        pot=books.pot,
        phase="stage_over",
        deadline=now + config.showdown_seconds,
        choices=tuple(choices),
        turn=None,
        revealed=revealed,
        private_show=private,
    )


def _compare(state: ClassicState, books: Books, ins: list[int], private: bool) -> tuple[int, ...]:
    """Show the In hands (to the players In only, if ``private``); the best hands' seats."""
    key = key_for(state)
    keys = {}
    for seat in ins:
        cards = hand_of(state, seat)
        keys[seat] = key(cards)
        text = describe_hand(state, cards)
        if private:
            books.events.append(ev.HandShownPrivately(seat, cards, text, tuple(ins)))
        else:
            books.events.append(ev.HandShown(seat, cards, text))
    return best_seats(keys)


def _mark(state: ClassicState, seat: int, books: Books) -> ClassicState:
    """``seat`` takes a leg, nut, token or point (Toh: its card stays face up)."""
    marks = list(state.marks)
    marks[seat] += 1
    if state.config.flow != "toh":
        books.events.append(_MARK_EVENTS[state.config.flow](seat, marks[seat]))
        return replace(state, marks=tuple(marks))
    card = state.cards[seat][0]
    books.events.append(ev.PointWon(seat, card, marks[seat]))
    kept = list(state.kept)
    kept[seat] = (*kept[seat], card)
    return replace(state, marks=tuple(marks), kept=tuple(kept))


def stage_result(events: Sequence[Any]) -> tuple[tuple[Any, ...], ...]:
    """The stage's outcome as the table shows it until the next stage: hands shown, who paid
    whom, who matched the pot (Toh), who took a mark (the events say the same; the state keeps
    it for the view)."""
    lines: list[tuple[Any, ...]] = []
    for event in events:
        if isinstance(event, ev.HandShown | ev.HandShownPrivately):
            lines.append(("shown", event.seat, event.description))
        elif isinstance(event, ev.SeatPaid):
            lines.append(("paid", event.payer, event.payee, event.amount))
        elif isinstance(event, ev.PotMatched) and event.amount:
            lines.append(("matched", event.seat, event.amount))
        elif isinstance(event, ev.LegWon | ev.NutWon | ev.TokenWon | ev.PointWon):
            lines.append(("mark", event.seat, event.total))
    return tuple(lines)


def next_stage(state: ClassicState, now: float, events: list[Any]) -> ClassicState:
    """Deal the next stage from the stock and open its declare (Toh: the next deal, the
    button one player on); or end the hand if fewer than two players are left."""
    config = state.config
    if len([seat for seat in state.dealt if not _leaving(state, seat)]) < 2:
        # everyone else left while the last stage's result showed: the hand ends here
        settlement = Settlement(_books(state), (), (), state.revealed)
        return close_hand(
            state,
            settlement,
            state.choices,
            now,
            events,
            game_over=False,
            private_show=state.private_show,
        )
    stage = state.stage + 1
    rules = config.stage_rules(stage)
    cards = list(state.cards)
    order = state.dealt
    button = state.button
    if config.flow == "toh":
        players = [seat for seat in state.dealt if not _leaving(state, seat)]
        assert button is not None
        button = seat_order(players, button)[0]
        order = tuple(seat_order(players, button))
        events.append(ev.ButtonMoved(button))
        cards = [()] * len(cards)  # the last deal's cards are set aside
    count = rules.cards - len(cards[order[0]])
    stock = list(state.stock)
    new: dict[int, list[int]] = {seat: [] for seat in order}
    for _ in range(count):
        for seat in order:
            new[seat].append(stock.pop(0))
    choices = ["" for _ in state.seats]
    for seat in order:
        cards[seat] = (*cards[seat], *new[seat])
        if _leaving(state, seat):
            choices[seat] = "out"
    state = replace(
        state,
        stage=stage,
        button=button,
        dealt=order,
        cards=tuple(cards),
        stock=tuple(stock),
        choices=tuple(choices),
        wild=rules.wild,
        revealed=(),
        private_show=False,
        stage_result=(),
        turn=None,
        challenge=False,
        phase="declare",
        deadline=now + config.decision_seconds,
    )
    events.append(stage_started(state))
    events.extend(ev.CardsDealt(seat, tuple(new[seat])) for seat in order)
    return state
