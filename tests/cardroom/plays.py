"""Tables played through the runtime by random legal actions, seat changes and the clock
(Hypothesis draws them), keeping the cards each viewer's live view has shown: the property
the history, replayer, export and summary tests check their pages against."""

from __future__ import annotations

import contextlib
import re
from collections import defaultdict
from datetime import timedelta
from typing import Any
from unittest import mock

from django.conf import settings as settings_django
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from accounts.ledger import LedgerError
from accounts.models import User
from accounts.services import user_create
from cardroom.history.history import hand_history
from cardroom.history.journal_audit import table_replay
from cardroom.models import Hand, HandEvent, Seat, Table
from cardroom.tables.engines import engine_for
from cardroom.tables.runtime import table_act, table_create, table_timeout
from games.cards import DECK
from games.engine import IllegalAction
from games.events import card_fields, event_cards

_CARD = re.compile(r"(?<!\w)[2-9TJQKA][cdhs](?!\w)")


def named_cards(value: Any) -> set[str]:
    """Every card text anywhere in JSON, in any field: a list entry, or a word of any text."""
    if isinstance(value, dict):
        return set().union(*(named_cards(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(named_cards(item) for item in value))
    return set(_CARD.findall(value)) if isinstance(value, str) else set()


#: Four players for three seats (someone is always waiting for one) and one who only watches.
PLAYERS = ("pam", "pat", "peg", "pip")


TABLES = {
    "survivor": ("guts", "survivor", {"ante": 100, "seats": 3}),
    "monte_carlo": ("guts", "monte_carlo", {"ante": 100, "seats": 3}),
    "three_five_seven": ("classic_guts", "three_five_seven", {"ante": 100, "seats": 3}),
    "chinese_poker": ("chinese_poker", "unit-1", {"seats": 3}),
    "three_card_poker": ("three_card_poker", "standard", {"seats": 3}),
}


CLASSIC = tuple(name for name in engine_for("classic_guts").presets if name != "three_five_seven")


#: The actions that change who sits where, and those that stop a hand being played: each kind
#: is drawn now and then; the other actions, the decisions that play the hand, most often.
SEATING = frozenset({"sit", "leave"})


RARE = frozenset({"sit_out", "sit_in", "decline", "surrender"})


Choice = tuple[User, dict[str, Any]]


class Play:
    """One table played through the runtime by random legal actions, seat changes and the
    clock, keeping the cards each viewer's live view has shown (key ``None``: anonymous)."""

    def __init__(self, table: Table, data: Any) -> None:
        self.table, self.data = table, data
        self.game = engine_for(table.game).game
        self.players = [user_create(username=name) for name in PLAYERS]
        self.watcher = user_create(username="wat")
        self.shown: dict[int | None, set[str]] = defaultdict(set)
        self.clock = timezone.now()

    def step(self) -> None:
        """One action: mostly a decision, so that hands are dealt and played to the end; now
        and then the clock, a player sitting down or standing up, or sitting out."""
        kinds = self.choices()
        roll = self.data.draw(st.integers(0, 11), label="roll")
        wanted = {1: "clock", 2: "seat", 3: "rare"}.get(roll, "play")
        for kind in (wanted, "play", "clock", "seat", "rare"):
            if kind == "clock" and self.table.deadline is not None:
                self.tick()
                return
            if kinds.get(kind):
                break
        else:
            return
        user, action = self.data.draw(st.sampled_from(kinds[kind]), label="action")
        self.clock += timedelta(milliseconds=200)
        before = self.seated()
        with contextlib.suppress(IllegalAction, LedgerError):
            table_act(table_id=self.table.pk, user=user, action=action, now=self.clock)
        self.observe(before)

    def tick(self) -> None:
        """The clock: whatever the passed deadline calls for."""
        before = self.seated()
        self.clock = max(self.clock, self.table.deadline) + timedelta(milliseconds=5)
        table_timeout(table_id=self.table.pk, now=self.clock)
        self.observe(before)

    def choices(self) -> dict[str, list[Choice]]:
        """Every action the players may take now, by kind (``seat``, ``rare``, ``play``)."""
        state = self.game.load(self.table.state)
        seats = self.seated()
        free = [e["seat"] for e in self.game.view(state, None)["seats"] if "player" not in e]
        found: list[Choice] = [
            (user, {"kind": "sit", "buy_in": 20_000, "seat": number})
            for user in self.players
            if user.pk not in seats
            for number in free
        ]
        for user in self.players:
            if user.pk not in seats:
                continue
            seat = seats[user.pk]
            cards = self.game.view(state, seat)["you"].get("cards") or []
            for legal in self.game.legal_actions(state, seat):
                found += [(user, action) for action in concrete(legal, cards)]
        kinds: dict[str, list[Choice]] = defaultdict(list)
        for user, action in found:
            kind = action["kind"]
            kinds["seat" if kind in SEATING else "rare" if kind in RARE else "play"].append(
                (user, action)
            )
        return kinds

    def seated(self) -> dict[int, int]:
        rows = Seat.objects.filter(table=self.table, left__isnull=True)
        return dict(rows.values_list("user_id", "number"))

    def observe(self, before: dict[int, int]) -> None:
        """What each viewer's live view shows now (``before``: who sat where before)."""
        self.table.refresh_from_db()
        state = self.game.load(self.table.state)
        seats = self.seated()
        public = named_cards(self.game.view(state, None))
        self.shown[None] |= public
        for user in [*self.players, self.watcher]:
            seat = seats.get(user.pk)
            self.shown[user.pk] |= (
                public if seat is None else named_cards(self.game.view(state, seat))
            )
        if set(before.values()) - set(seats.values()):
            self.shown_as_seats_emptied(before)

    def shown_as_seats_emptied(self, before: dict[int, int]) -> None:
        """A live view shows nothing of an empty seat, so a hand shown as its player cashes
        out (a leave asked for during the hand, done at its end) reaches no live view, though
        the rules show it (to everyone, or to the players In). For such an action the cards
        of its events count as shown to each viewer they were for, by the seat held before."""
        for event in HandEvent.objects.filter(table=self.table, version=self.table.version):
            for viewer in [*(user.pk for user in (*self.players, self.watcher)), None]:
                seat = before.get(viewer) if viewer is not None else None
                if event.audience is not None:
                    readable = seat in event.audience
                else:
                    readable = event.private_to is None or event.private_to == seat
                if readable:
                    self.shown[viewer] |= named_cards(event.data)

    def finish(self) -> None:
        """Let the clock end the hand in play, so that its openings are given."""
        for _ in range(20):
            open_hand = Hand.objects.filter(table=self.table, ended__isnull=True, dealt=True)
            if not open_hand.exists() or self.table.deadline is None:
                return
            self.tick()

    def check(self) -> None:
        """Every history, each user's and a spectator's, within what its reader was shown;
        and every card an event holds, in whatever field, is one its card fields hold."""
        for data in HandEvent.objects.filter(table=self.table).values_list("data", flat=True):
            assert data["type"] in card_fields(), data
            assert named_cards(data) <= event_cards(data), data
        viewers = [*(user.pk for user in (*self.players, self.watcher)), None]
        for hand in Hand.objects.filter(table=self.table):
            for viewer in viewers:
                history = hand_history(hand=hand, user_id=viewer)
                opened = {opening["card"] for opening in history["openings"]}
                named = named_cards([event["data"] for event in history["events"]]) | opened
                leaked = named - self.shown[viewer]
                assert not leaked, f"hand {hand.number}: user {viewer} reads {sorted(leaked)}"
                assert all(opening["verified"] for opening in history["openings"])
        assert table_replay(table=self.table).ok


def concrete(legal: dict[str, Any], cards: list[str]) -> list[dict[str, Any]]:
    """The actions a legal-action template stands for (a few of each, with their figures)."""
    kind = legal["kind"]
    if kind == "declare":
        return [{"kind": kind, "choice": choice} for choice in legal["choices"]]
    if kind == "pass":
        return [{"kind": kind, "card": card} for card in legal["cards"]]
    if kind == "bet":
        bets = [{"kind": kind, "ante": legal["min_ante"]}]
        if legal["max_pair_plus"] >= legal["min_ante"]:
            bets.append({"kind": kind, "ante": legal["min_ante"], "pair_plus": legal["min_ante"]})
        return bets
    if kind == "set":
        ranked = sorted(cards, key=lambda text: "23456789TJQKA".index(text[0]))
        return [
            {"kind": kind, "front": row[:3], "middle": row[3:8], "back": row[8:], "submit": submit}
            for row, submit in ((cards, False), (ranked, True))
        ]
    if kind in ("sit", "top_up", "declare_natural"):
        return []  # seats are taken above; money and naturals play no part here
    return [{"kind": kind}]


def play_and_check(name: str, data: Any, check: Any = None, play_class: type[Play] = Play) -> None:
    """Play a table of ``name`` (a table above, or a Classic Guts preset), each hand from a
    deck the example draws, and check it (``play.check()``, or ``check(play)``: the replayer's
    and the export's tests play the same way; ``play_class``: a ``Play`` that checks more as it
    goes); nothing of it outlives the example."""
    game, preset, options = TABLES.get(name) or ("classic_guts", name, {"ante": 100, "seats": 3})

    def deck() -> tuple[Any, ...]:
        return tuple(data.draw(st.permutations(DECK), label="deck"))

    # The play's clock is the only one: whatever reads the time while it plays (the runtime
    # where no time is handed to it, the rows' timestamps) reads the play's, so how fast the
    # machine runs changes nothing of what is played.
    started = timezone.now()
    playing: list[Play] = []

    def now() -> Any:
        return playing[0].clock if playing else started

    with (
        transaction.atomic(),
        mock.patch("cardroom.tables.runtime.shuffled_deck", deck),
        mock.patch("django.utils.timezone.now", now),
    ):
        table = table_create(game=game, preset=preset, options=options, name=name)
        play = play_class(table, data)
        playing.append(play)
        for _ in range(data.draw(st.integers(10, 40), label="steps")):
            play.step()
        play.finish()
        if check is None:
            play.check()
        else:
            check(play)
        # The next example starts from an empty room (the suite's replay check of every
        # table cannot see these, so check() replays each itself).
        transaction.set_rollback(True)


def examples(count: int) -> int:
    """How many played tables a property draws: ``count`` on SQLite; a third (at least two) on
    PostgreSQL, where each costs twice as much. What those tables check (the rules, the
    summaries, what each reader is shown) does not depend on the database, and every example
    runs on SQLite in the same CI run; on PostgreSQL they check that the same writes and reads
    hold there. Derandomized, the first examples drawn are the same on both."""
    if settings_django.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        return count
    return max(2, count // 3)


#: A few examples each, the same on every run; a failure prints its draws (shrinking a played
#: table would take minutes).
PROPERTY = settings(
    max_examples=examples(15),
    deadline=None,
    derandomize=True,
    phases=[Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)
