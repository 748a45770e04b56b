"""Hands played through the runtime: every game and the Classic Guts variants that differ most,
from seeded decks with players deciding as the house bots do; and one Survivor hand from a
fixed deck (Ben wins the pot)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.utils import timezone

from cardroom.clock.bots import bot_decision
from cardroom.models import Hand, Seat, Table
from cardroom.tables.runtime import table_act, table_create, table_timeout
from cardroom.tables.selectors import table_state
from games.deck import shuffled_deck
from games.engine import IllegalAction

#: Every game, and the Classic Guts variants whose tables differ most: a ghost and a reserve
#: (Kitty), stages and private comparisons (3-5-7), deals of one card from one deck (Toh), a
#: community card (Batey), a third card (2+1), a face-up wild card, No Peek, Hi-Lo, 4-2-2.
VARIANTS: list[tuple[str, str, dict[str, Any]]] = [
    ("guts", "survivor", {"ante": 100, "seats": 4}),
    ("guts", "monte_carlo", {"ante": 100, "seats": 4}),
    ("classic_guts", "kitty", {"ante": 100, "seats": 4}),
    ("classic_guts", "three_five_seven", {"ante": 100, "seats": 4}),
    ("classic_guts", "toh", {"ante": 100, "seats": 4}),
    ("classic_guts", "batey", {"ante": 100, "seats": 4}),
    ("classic_guts", "two_plus_one", {"ante": 100, "seats": 4}),
    ("classic_guts", "one_low_wild", {"ante": 100, "seats": 4}),
    ("classic_guts", "no_peek", {"ante": 100, "seats": 4}),
    ("classic_guts", "hi_lo", {"ante": 100, "seats": 4}),
    ("classic_guts", "four_two_two", {"ante": 100, "seats": 4}),
    ("chinese_poker", "unit-1", {"seats": 4}),
    ("three_card_poker", "standard", {"seats": 4}),
]


def seeded_decks(monkeypatch, seed: int) -> None:
    """Every hand's deck from one seeded shuffle: the same hands on every run."""
    rng = random.Random(seed)
    monkeypatch.setattr(
        "cardroom.tables.runtime.shuffled_deck", lambda: shuffled_deck(rng.randrange)
    )


class Driver:
    """Players at one table deciding as the house bots do, and the clock when nobody acts."""

    def __init__(self, table: Table, players: list[Any]) -> None:
        self.table, self.players = table, players
        self.clock = timezone.now()

    def act(self, user: Any, action: dict[str, Any]) -> None:
        self.clock += timedelta(milliseconds=200)
        table_act(table_id=self.table.pk, user=user, action=action, now=self.clock)

    def seat(self, user: Any) -> int | None:
        seats = Seat.objects.filter(table=self.table, user=user, left__isnull=True)
        return seats.values_list("number", flat=True).first()

    def decision(self, user: Any, seat: int) -> dict[str, Any] | None:
        if self.table.game == "classic_guts":
            from games.guts import GAME
            from games.guts.bots import classic_bot_action

            return classic_bot_action(GAME.load(self.table.state), seat)
        state = table_state(table=self.table, user_id=user.pk)
        legal = {action["kind"]: action for action in state["you"].get("legal_actions", [])}
        if self.table.game == "three_card_poker" and "bet" in legal:
            least = legal["bet"]["min_ante"]
            return {"kind": "bet", "ante": least, "pair_plus": least if seat == 0 else 0}
        return bot_decision(self.table.game, state)

    def play(self, hands: int, *, buy_in: int = 20_000, limit: int = 600) -> list[Hand]:
        """Sit everyone down and play until ``hands`` hands have ended."""
        for player in self.players:
            self.act(player, {"kind": "sit", "buy_in": buy_in})
        for _ in range(limit):
            self.table.refresh_from_db()
            ended = Hand.objects.filter(table=self.table, ended__isnull=False)
            if ended.count() >= hands:
                return list(ended.order_by("number"))
            if not self.step():
                assert self.table.deadline is not None, self.table.state.get("phase")
                self.clock = max(self.clock, self.table.deadline) + timedelta(milliseconds=5)
                table_timeout(table_id=self.table.pk, now=self.clock)
        raise AssertionError(f"fewer than {hands} hands in {limit} steps")

    def step(self) -> bool:
        for player in self.players:
            seat = self.seat(player)
            action = None if seat is None else self.decision(player, seat)
            if action is None:
                continue
            try:
                self.act(player, action)
            except IllegalAction:
                continue
            return True
        return False


def played(monkeypatch, make_player, game: str, preset: str, options: dict[str, Any],
           *, hands: int = 2, seed: int = 7) -> tuple[Table, list[Any], list[Hand]]:  # fmt: skip
    seeded_decks(monkeypatch, seed)
    if game != "guts":  # the driver's timeouts end decisions: no time bank to run first
        options = {"time_bank": 0, **options}
    table = table_create(game=game, preset=preset, options=options, name=f"{preset} table")
    players = [make_player(name) for name in ("ann", "ben", "cat")]
    buy_in = 10_000 if game == "three_card_poker" else 20_000
    return table, players, Driver(table, players).play(hands, buy_in=buy_in)


#: Dealt one card at a time from the button's left: Ben, Cat, Ann.
HANDS = {"ben": "Qs Ah 9c", "cat": "7h Ad 4c", "ann": "7d Th 5h"}


def survivor_hand(monkeypatch, survivor_table, seated) -> Hand:
    """Ben (A-Q-9) and Ann (T-7-5) go In, Cat (A-7-4) Out: Ben wins the $3.00 pot."""
    from games.cards import DECK, parse_cards

    hands = [parse_cards(HANDS[name]) for name in ("ben", "cat", "ann")]
    order = [hand[turn] for turn in range(3) for hand in hands]
    deck = tuple(order) + tuple(card for card in DECK if card not in order)
    monkeypatch.setattr("cardroom.tables.runtime.shuffled_deck", lambda: deck)
    from tests.cardroom.driving import play_to_declare

    ann, ben, cat = seated
    play_to_declare(survivor_table, seated)
    for player, choice in ((ann, "in"), (ben, "in"), (cat, "out")):
        action = {"kind": "declare", "choice": choice}
        table_act(table_id=survivor_table.pk, user=player, action=action)
    return Hand.objects.get(table=survivor_table, number=1)
