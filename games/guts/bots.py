"""House bots for online Guts, and a driver that plays a table with them (simulate, bench).

The bot policy is deliberately simple: always ante; go In with a pair or better (two-card
hands: ace-ten or better), pass the lowest card left; top up to the minimum buy-in when the
stack runs short, except at a table where short stacks play all in (``short_ante`` ``all_in``,
a tournament's): there a short stack antes what it has, and the driver stops (``finished``)
when fewer than two players have chips. The driver never reads a clock: it jumps its own
``now`` to each deadline.
Online tables take a direct path through :func:`games.guts.online.apply` (the benchmark's);
classic tables go through :data:`games.guts.GAME`.

>>> from games.guts.game import make_config
>>> driver = Driver(make_config("monte_carlo", {"ante": 10}), players=3, rng=random.Random(2))
>>> driver.play(5)
>>> driver.hands, driver.conserved
(5, True)
"""

from __future__ import annotations

import random
from typing import Any

from games.cards import DECK, parse_cards
from games.guts import events as ev
from games.guts.classic import in_hand
from games.guts.classic.fourtwo import four_card_key
from games.guts.classic.settle import hand_of, hand_rules, key_for
from games.guts.classic.state import ClassicState
from games.guts.game import GAME, Config, State, new_table
from games.guts.online import apply
from games.guts.showdown import hand_key
from games.guts.table import OnlineState

__all__ = ["Driver", "classic_bot_action", "pair_or_better"]

_DECK_TEXT = [str(card) for card in DECK]


def pair_or_better() -> int:
    """The key of the lowest pair (2-2-3): a hand at least this good is a pair or better."""
    return hand_key("three_card")([card.index for card in parse_cards("2c 2d 3h")])


def _classic_thresholds(state: ClassicState) -> tuple[int, int]:
    """Keys a bot compares with: at least the first is In (High), at most the second Low."""
    two = state.config.hand_kind == "two_card"
    high, low = ("Ac Td", "7c 5d") if two else ("2c 2d 3h", "7c 5d 3h")
    key = key_for(state)
    return key([c.index for c in parse_cards(high)]), key([c.index for c in parse_cards(low)])


#: The least hand a bot plays In at a stage of each kind (its first cards, as many as the hand
#: holds; a five-card bar serves the best five of six or seven).
_BARS = {
    "one_card": "Jc",
    "two_card": "Ac Td",
    "three_card": "2c 2d 3h",
    "three_five_seven_stage_one": "8c 8d 4h",
    "five_card": "Jc Jd 9h 6s 4d",
    "best_five": "Tc Td 9h 9s 4d",
    "low_nuts": "8c 6d 4h 3s 2c",
    "low_napalm": "9c 8d 6h 4s 3c",
}
_FOUR_BAR = [card.index for card in parse_cards("Qc Qd 4h 6s")]


def _classic_choice(state: ClassicState, cards: tuple[int, ...]) -> str:
    config = state.config
    if config.flow == "four_two":  # four cards down: the best five comes after the declare
        strong = four_card_key(cards, state.wild) >= four_card_key(_FOUR_BAR, state.wild)
        return "in" if strong else "out"
    if len(cards) == 2 and config.hand_kind == "three_card":
        # Two Plus One's first declare, on two cards
        two = hand_key("two_card")
        return "in" if two(cards) >= two([c.index for c in parse_cards("Ac Td")]) else "out"
    key = key_for(state)
    if config.staged:
        bar = [card.index for card in parse_cards(_BARS[hand_rules(state)[0]])]
        return "in" if key(cards) >= key(bar[: min(len(cards), 5)]) else "out"
    high, low = _classic_thresholds(state)
    value = key(cards)
    if not config.hi_lo:
        return "in" if value >= high else "out"
    return "high" if value >= high else "low" if value <= low else "out"


def classic_bot_action(state: ClassicState, seat: int) -> dict[str, Any] | None:
    """What a house bot in ``seat`` does now at a classic table, or ``None`` to wait.

    It reads only what the seat may know: its own cards (with any community card) and the
    table's public rules; under No Peek it does not look at its cards at all and goes In on
    alternate hands, so it neither always folds nor always calls.
    """
    if seat not in state.dealt or state.phase not in ("pass", "declare"):
        return None
    if state.phase == "pass":
        if state.passes[seat] >= 0:
            return None
        lowest = min(state.cards[seat], key=lambda card: card // 4)
        return {"kind": "pass", "card": str(DECK[lowest])}
    if state.choices[seat] or state.turn not in (None, seat):
        return None
    if state.config.no_peek:
        return {"kind": "declare", "choice": "in" if (state.hand + seat) % 2 else "out"}
    return {"kind": "declare", "choice": _classic_choice(state, hand_of(state, seat))}


class Driver:
    """A table of bots, played hand after hand through :func:`games.guts.online.apply`.

    With ``audit``, every event's moves are posted to a ledger of places and checked against
    the state after every action (``conserved`` turns false at the first difference).
    """

    def __init__(
        self,
        config: Config,
        *,
        players: int,
        rng: random.Random,
        audit: bool = True,
        threshold: int | None = None,
    ) -> None:
        self.state: State = new_table(config)
        self.rng = rng
        self.audit = audit
        self.now = 0.0
        self.key = hand_key("three_card")
        self.threshold = pair_or_better() if threshold is None else threshold
        self.hands = 0
        self.rounds = 0
        self.biggest_pot = 0
        self.rake = 0
        self.bought_in = 0
        self.conserved = True
        #: A table of short stacks all in: fewer than two players have chips left.
        self.finished = False
        self.ledger: dict[str, int] = {}
        for seat in range(players):
            sit = {"kind": "sit", "seat": seat, "stack": config.min_buy_in, "player": f"bot{seat}"}
            self.act(sit)

    def act(self, action: dict[str, Any]) -> None:
        """Apply one action at the driver's ``now`` and record its events."""
        action["now"] = self.now
        if isinstance(self.state, OnlineState):
            self.state, events = apply(self.state, action)
        else:
            self.state, events = GAME.apply(self.state, action)
        for event in events:
            kind = type(event)
            if kind is ev.HandStarted:
                self.hands += 1
                self.biggest_pot = max(self.biggest_pot, event.pot)
            elif kind is ev.RoundStarted:
                self.rounds += 1
            elif kind is ev.RakeTaken:
                self.rake += event.amount
            elif kind is ev.PlayerSat:
                self.bought_in += event.stack
            elif kind is ev.ToppedUp:
                self.bought_in += event.amount
        if self.audit:
            self._post(events)

    def _post(self, events: tuple[Any, ...]) -> None:
        ledger = self.ledger
        for event in events:
            for move in event.moves():
                ledger[move.source] = ledger.get(move.source, 0) - move.amount
                ledger[move.target] = ledger.get(move.target, 0) + move.amount
        state = self.state
        reserve = state.reserve if isinstance(state, ClassicState) else 0
        on_table = state.pot + reserve
        for index, seat in enumerate(state.seats):
            if seat is not None:
                on_table += seat.stack
                if ledger.get(f"stack:{index}", 0) != seat.stack:
                    self.conserved = False
        if ledger.get("reserve", 0) != reserve:
            self.conserved = False
        if ledger.get("pot", 0) != state.pot or on_table + self.rake != self.bought_in:
            self.conserved = False
        if sum(ledger.values()) != 0:
            self.conserved = False

    def play(self, hands: int) -> None:
        """Play until ``hands`` more hands have been dealt (and the last one settled)."""
        target = self.hands + hands
        while self.hands < target or self.state.phase in ("declare", "stage_over"):
            self.step()
            if self.finished:
                return

    def step(self) -> None:
        """Take the next action the table is waiting for."""
        state = self.state
        if isinstance(state, ClassicState):
            self._classic_step(state)
            return
        phase = state.phase
        config = state.config
        # Short stacks play on all in at such a table: nobody tops up.
        tops_up = config.short_ante != "all_in"
        if phase == "deal":
            deck = _DECK_TEXT[:]
            self.rng.shuffle(deck)
            self.act({"kind": "deal", "deck": deck})
        elif phase == "declare":
            key, threshold, cards = self.key, self.threshold, state.cards
            for seat in state.dealt:
                if not self.state.choices[seat]:
                    choice = "in" if key(cards[seat]) >= threshold else "out"
                    self.act({"kind": "declare", "seat": seat, "choice": choice})
        elif phase == "ante" and (state.pending or any(state.owed)):
            for seat, owed in enumerate(state.owed):
                player = state.seats[seat]
                if tops_up and owed and player is not None and player.stack < owed:
                    self.act({"kind": "top_up", "seat": seat, "amount": owed - player.stack})
            for seat in state.pending:
                player = self.state.seats[seat]
                if tops_up and player is not None and player.stack < config.ante:
                    self.act({"kind": "top_up", "seat": seat, "amount": config.min_buy_in})
                self.act({"kind": "ante", "seat": seat})
            now = self.state
            if (
                not tops_up
                and isinstance(now, OnlineState)
                and now.phase == "ante"
                and not now.pending
            ):
                # a short loser's window, which nobody uses at such a table
                self.now = max(self.now, self.state.deadline or self.now)
                self.act({"kind": "timeout"})
        elif phase == "waiting" and not tops_up:
            self.finished = True
        elif phase == "waiting":
            for seat, player in enumerate(state.seats):
                if player is not None and player.stack < config.ante:
                    self.act({"kind": "top_up", "seat": seat, "amount": config.min_buy_in})
            if self.state.phase == "waiting":
                raise RuntimeError("the bots' table cannot start a round")
        else:
            if phase == "pause" and tops_up:
                for seat, player in enumerate(state.seats):
                    if player is not None and player.stack < config.ante:
                        self.act({"kind": "top_up", "seat": seat, "amount": config.min_buy_in})
            self.now = max(self.now, self.state.deadline or self.now)
            self.act({"kind": "timeout"})

    def _shuffled(self) -> list[str]:
        deck = _DECK_TEXT[:]
        self.rng.shuffle(deck)
        return deck

    def _classic_step(self, state: ClassicState) -> None:
        phase = state.phase
        config = state.config
        if phase == "deal":
            self.act({"kind": "deal", "deck": self._shuffled()})
        elif phase == "pass":
            for seat in state.dealt:
                if state.passes[seat] < 0 and self.state.phase == "pass":
                    lowest = min(state.cards[seat], key=lambda card: card // 4)
                    self.act({"kind": "pass", "seat": seat, "card": str(DECK[lowest])})
        elif phase == "declare":
            for seat in state.dealt:
                current = self.state
                if not isinstance(current, ClassicState) or current.phase != "declare":
                    break
                if current.choices[seat] or current.turn not in (None, seat):
                    continue
                choice = _classic_choice(current, hand_of(current, seat))
                self.act({"kind": "declare", "seat": seat, "choice": choice})
        else:
            for seat, player in enumerate(state.seats):
                short = player is not None and player.stack < config.ante
                if short and not in_hand(state, seat):  # chips go on between hands only
                    self.act({"kind": "top_up", "seat": seat, "amount": config.min_buy_in})
            if self.state.phase == "waiting":
                raise RuntimeError("the bots' table cannot start a game")
            self.now = max(self.now, self.state.deadline or self.now)
            self.act({"kind": "timeout"})
