"""Statistics (docs/statistics.md): real hands played through the runtime with fixed decks, and
every figure checked against the ledger and the hand histories, read here on their own.

The clock is the test's: ``timezone.now`` is replaced, so every row's time (transfers, events,
seats, hands) is one the test chose, and ranges, sessions and hours can be checked at their
boundaries.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from fractions import Fraction
from itertools import combinations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation

from accounts.ledger import cashier_account, ledger_transfer
from accounts.models import Account, AccountKind, Transfer
from accounts.money import format_cents
from accounts.selectors import bankroll_balance
from cardroom.models import Hand, HandEvent, Seat, Table
from cardroom.stats.charts import nice_ticks
from cardroom.stats.period import Period, period_from
from cardroom.stats.player import player_stats
from cardroom.stats.series import balance_series
from cardroom.stats.sessions import player_sessions
from cardroom.stats.tables import table_stats
from cardroom.tables.runtime import table_act, table_create, table_timeout
from cardroom.tables.selectors import table_state
from games.cards import DECK, parse_cards
from games.engine import seat_order
from games.three_card_poker.hands import hand_category, hand_key
from games.three_card_poker.odds import exact_odds
from tests.cardroom.chinese_poker_deals import ANN as CP_ANN
from tests.cardroom.chinese_poker_deals import BEN as CP_BEN
from tests.cardroom.chinese_poker_deals import CAT as CP_CAT
from tests.cardroom.chinese_poker_deals import cp_deck, hand_of
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)
from tests.games.three_card_poker.helpers import deck_for

pytestmark = pytest.mark.django_db

#: 23:40 UTC: the first hands are played before midnight, later ones after it.
START = datetime(2026, 11, 20, 23, 40, tzinfo=UTC)
EVERYTHING = Period()

# Three Survivor hands at seats 0 (ann), 1 (ben) and 2 (cat): each player's cards and choice.
# 1: ann's trips win, ben is the lowest hand In and pays. 2: ann Out, cat's pair beats ben.
# 3: ann In with seven-high loses to ben's straight flush. Ann: dealt 3, In 2, won In 1.
SURVIVOR_HANDS = [
    {"ann": ("As Ad Ah", "in"), "ben": ("2c 3d 5h", "in"), "cat": ("Kc 9d 7h", "out")},
    {"ann": ("4c 6d 8h", "out"), "ben": ("Kd Qc 9s", "in"), "cat": ("Jc Jd 2s", "in")},
    {"ann": ("3c 5d 7s", "in"), "ben": ("Ac Kc Qc", "in"), "cat": ("2d 4h 6c", "out")},
]


class Clock:
    """The time every row is written with (``timezone.now`` reads it)."""

    def __init__(self, moment: datetime) -> None:
        self.now = moment

    def __call__(self) -> datetime:
        return self.now

    def move(self, delta: timedelta) -> None:
        self.now += delta


@pytest.fixture
def clock(monkeypatch):
    clock = Clock(START)
    monkeypatch.setattr("django.utils.timezone.now", clock)
    return clock


def advance(table: Table, clock: Clock) -> None:
    """Let the clock pass the table's deadline."""
    table.refresh_from_db()
    assert table.deadline is not None
    clock.now = max(clock.now, table.deadline + timedelta(milliseconds=10))
    assert table_timeout(table_id=table.pk, now=clock.now)


def guts_deck(table: Table, hands: dict[int, str]) -> list:
    """A deck dealing ``hands`` (seat → cards) one card at a time from the button's left."""
    table.refresh_from_db()
    button = table.state.get("button")
    order = seat_order(hands, min(hands) if button is None else button)
    cards = {seat: parse_cards(text) for seat, text in hands.items()}
    dealt = [cards[order[p % len(order)]][p // len(order)] for p in range(3 * len(order))]
    return [*dealt, *(card for card in DECK if card not in dealt)]


def play_guts(table, players, plans, clock, monkeypatch, gap=timedelta(seconds=5)) -> None:
    """Play one hand per plan (username → cards and choice): ante when asked, declare."""
    seats = {p.username: Seat.objects.get(table=table, user=p, left__isnull=True) for p in players}
    for plan in plans:
        hands = {seats[name].number: cards for name, (cards, _) in plan.items() if cards}
        if hands:
            deck = guts_deck(table, hands)
            monkeypatch.setattr("cardroom.tables.runtime.shuffled_deck", lambda deck=deck: deck)
        played = HandEvent.objects.filter(table=table, type="hand_ended").count()
        for _ in range(30):
            if HandEvent.objects.filter(table=table, type="hand_ended").count() > played:
                break
            acted = False
            for player in players:
                table.refresh_from_db()
                legal = {a["kind"] for a in table_state(table=table, user_id=player.pk)["you"]
                         ["legal_actions"]}  # fmt: skip
                if "ante" in legal:
                    table_act(table_id=table.pk, user=player, action={"kind": "ante"})
                    acted = True
                elif "declare" in legal:
                    choice = plan[player.username][1]
                    action = {"kind": "declare", "choice": choice}
                    table_act(table_id=table.pk, user=player, action=action)
                    acted = True
            if not acted:
                advance(table, clock)
        else:
            raise AssertionError("the hand did not end")
        clock.move(gap)


@pytest.fixture
def survivor(db, clock, make_player):
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name="Survivor $1"
    )
    players = [make_player(name) for name in ("ann", "ben", "cat")]
    for player in players:
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    return table, players


# What the ledger and the histories say, read without the statistics code.


def stack_codes(user) -> set[str]:
    return set(
        Account.objects.filter(user=user, kind=AccountKind.STACK).values_list("code", flat=True)
    )


def ledger_net(user, *, table_id=None, hand_ids=None, start=None, end=None) -> int:
    """The player's money won or lost at play: every transfer into or out of their stacks but
    those from or to their bankroll, summed here in Python."""
    stacks = stack_codes(user)
    bankroll = f"bankroll:u{user.pk}"
    total = 0
    for t in Transfer.objects.select_related("source", "target"):
        if table_id is not None and t.table_id != table_id:
            continue
        if hand_ids is not None and t.hand_id not in hand_ids:
            continue
        if (start and t.created < start) or (end and t.created >= end):
            continue
        if t.target.code in stacks and t.source.code != bankroll:
            total += t.amount
        if t.source.code in stacks and t.target.code != bankroll:
            total -= t.amount
    return total


def balance_after(user, codes: set[str], transfer_id: int) -> int:
    """The sum of the accounts ``codes`` right after transfer ``transfer_id``."""
    total = 0
    for t in Transfer.objects.filter(id__lte=transfer_id).select_related("source", "target"):
        total += t.amount * ((t.target.code in codes) - (t.source.code in codes))
    return total


def nearest(value: Fraction) -> int:
    """To the nearest cent, halves away from zero (docs/statistics.md)."""
    whole = int(abs(value) + Fraction(1, 2))
    return whole if value >= 0 else -whole


def seat_hands(user, table) -> dict[int, int]:
    """Hand id → the player's seat in it, from the seat rows (one sitting per test table)."""
    seat = Seat.objects.get(user=user, table=table).number
    dealt = HandEvent.objects.filter(table=table, type__in=("cards_dealt", "blind_cards_dealt"))
    return {e.hand_id: seat for e in dealt if e.data.get("seat") == seat}


# Guts, the ledger's net and the bankroll chart.


def test_guts_figures_equal_the_hand_histories(survivor, clock, monkeypatch):
    table, players = survivor
    play_guts(table, players, SURVIVOR_HANDS, clock, monkeypatch)
    ann = players[0]
    mine = seat_hands(ann, table)
    went_in = {
        e.hand_id
        for e in HandEvent.objects.filter(table=table, type="declared")
        if mine.get(e.hand_id) == e.data["seat"] and e.data["choice"] != "out"
    }
    won = {
        e.hand_id
        for e in HandEvent.objects.filter(table=table, type="pot_won")
        if mine.get(e.hand_id) == e.data["seat"] and e.hand_id in went_in
    }
    guts = player_stats(user=ann, period=EVERYTHING).guts
    assert (guts.hands, guts.went_in, guts.won_in) == (len(mine), len(went_in), len(won))
    assert (guts.hands, guts.went_in, guts.won_in) == (3, 2, 1)  # the plan above
    assert (guts.in_percent, guts.won_percent) == ("66.7 %", "50.0 %")
    for language in ("es", "nb"):
        with translation.override(language):
            assert (guts.in_percent, guts.won_percent) == ("66,7 %", "50,0 %")
    ben = player_stats(user=players[1], period=EVERYTHING).guts
    assert (ben.hands, ben.went_in, ben.won_in) == (3, 3, 1)


def test_net_by_game_and_table_equals_the_players_ledger_transfers(survivor, clock, monkeypatch):
    table, players = survivor
    play_guts(table, players, SURVIVOR_HANDS, clock, monkeypatch)
    tcp = table_create(game="three_card_poker", preset="standard", options={}, name="TCP")
    ann = players[0]
    fix_tcp_deck(monkeypatch, ["4c 4d 9s"], "Kd 9h 3s")
    play_tcp(tcp, [(ann, {"ante": 100, "pair_plus": 50}, "play")], clock)
    stats = player_stats(user=ann, period=EVERYTHING)
    by_table = {row.table_id: row for row in stats.by_table}
    assert by_table[table.pk].net == ledger_net(ann, table_id=table.pk)
    assert by_table[tcp.pk].net == ledger_net(ann, table_id=tcp.pk) == 250
    assert stats.net == ledger_net(ann)
    # Still seated: the net is the stacks now less the buy-ins.
    stacks = Account.objects.filter(user=ann, kind=AccountKind.STACK)
    assert stats.net == sum(s.balance for s in stacks) - 20_000 - 10_000
    by_game = {row.game: row for row in stats.by_game}
    assert (by_game["guts"].hands, by_game["guts"].net) == (3, by_table[table.pk].net)
    assert (by_game["three_card_poker"].hands, by_game["three_card_poker"].net) == (1, 250)
    assert stats.hands == 4
    for player in players[1:]:
        theirs = player_stats(user=player, period=EVERYTHING)
        assert theirs.net == ledger_net(player)


def test_the_bankroll_series_follows_the_ledger_point_by_point(survivor, clock, monkeypatch):
    table, players = survivor
    play_guts(table, players, SURVIVOR_HANDS[:2], clock, monkeypatch)
    ann = players[0]
    table_act(table_id=table.pk, user=ann, action={"kind": "leave"})  # cashes out
    clock.move(timedelta(minutes=1))
    table_act(table_id=table.pk, user=ann, action={"kind": "sit", "buy_in": 15_000})
    stats = player_stats(user=ann, period=EVERYTHING)
    bankroll = stats.bankroll
    assert bankroll.closing == bankroll_balance(user=ann)
    assert bankroll.points[-1].cents == bankroll_balance(user=ann)
    assert bankroll.changes == 4  # the grant, two buy-ins, a cash-out
    code = {f"bankroll:u{ann.pk}"}
    for point in bankroll.points:
        assert point.cents == balance_after(ann, code, point.transfer_id)
        assert point.at == Transfer.objects.get(pk=point.transfer_id).created
    holdings = stats.holdings
    everything = code | stack_codes(ann)
    assert holdings.closing == bankroll_balance(user=ann) + sum(
        a.balance for a in Account.objects.filter(user=ann, kind=AccountKind.STACK)
    )
    moved = [
        t
        for t in Transfer.objects.select_related("source", "target")
        if (t.source.code in everything) != (t.target.code in everything)
    ]
    # The grant, one ante and the pot won: having won the first hand, she was excused from
    # the second's ante (only the players who were Out ante again).
    assert holdings.changes == len(moved) == 3
    for point in holdings.points:
        assert point.cents == balance_after(ann, everything, point.transfer_id)


def test_a_long_series_is_thinned_to_exact_points(make_player, clock):
    dan = make_player("dan")
    for n in range(23):
        clock.move(timedelta(minutes=5))
        ledger_transfer(
            source=cashier_account(),
            target=Account.objects.get(user=dan, kind=AccountKind.BANKROLL),
            amount=100 + n,
            kind="reload",
            idempotency_key=f"test-reload-{n}",
        )
    series = balance_series(user=dan, period=EVERYTHING, max_points=5)
    assert series.changes == 24
    assert len(series.points) <= 5
    assert series.points[-1].cents == series.closing == bankroll_balance(user=dan)
    code = {f"bankroll:u{dan.pk}"}
    for point in series.points:
        assert point.cents == balance_after(dan, code, point.transfer_id)
    # A period starting later opens at the balance before it.
    later = Period(start=START + timedelta(minutes=61))
    cut = balance_series(user=dan, period=later)
    before = Transfer.objects.filter(created__lt=later.start).order_by("id").last()
    assert cut.opening == balance_after(dan, code, before.pk)
    assert cut.closing == series.closing
    assert all(point.at >= later.start for point in cut.points)


# Three Card Poker and Chinese Poker.


def fix_tcp_deck(monkeypatch, hands: list[str], dealer: str) -> None:
    deck = parse_cards(deck_for(hands, dealer))
    monkeypatch.setattr("cardroom.tables.runtime.shuffled_deck", lambda: deck)


def play_tcp(table: Table, bets, clock: Clock) -> None:
    """One round: each (player, bet, decision) sits if need be, bets, then plays or folds."""
    table.refresh_from_db()
    while table.deadline is not None and table.deadline < clock.now:
        # The pause after the last round, and rounds nobody bet in, run out first.
        assert table_timeout(table_id=table.pk, now=table.deadline + timedelta(milliseconds=10))
        table.refresh_from_db()
    for player, _, _ in bets:
        if not Seat.objects.filter(table=table, user=player, left__isnull=True).exists():
            table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 10_000})
    for player, bet, _ in bets:
        table_act(table_id=table.pk, user=player, action={"kind": "bet", **bet})
    table.refresh_from_db()
    if table.state["phase"] == "betting":
        advance(table, clock)  # someone seated did not bet: the deal at the deadline
    for player, _, decision in bets:
        table_act(table_id=table.pk, user=player, action={"kind": decision})
    table.refresh_from_db()
    assert table.state["phase"] != "deciding"


#: How many of the 22,100 three-card hands fall in each category (counted below, once).
def category_counts() -> dict[str, int]:
    counts: dict[str, int] = {}
    for cards in combinations(range(52), 3):
        category = hand_category(cards, hand_key(cards))
        counts[category] = counts.get(category, 0) + 1
    return counts


def test_three_card_poker_return_against_the_exact_expectation(make_player, clock, monkeypatch):
    pays = [1, 3, 6, 30, 40]  # not the standard table: the table's own pay table is used
    table = table_create(
        game="three_card_poker", preset="standard", options={"pair_plus": pays}, name="TCP"
    )
    ann, ben = make_player("ann"), make_player("ben")
    # Ann's pair plays, beats the king-high dealer and wins Pair Plus; Ben folds ace-high.
    fix_tcp_deck(monkeypatch, ["4c 4d 9s", "Ac Kh 2d"], "Kd 9h 3s")
    play_tcp(
        table, [(ann, {"ante": 100, "pair_plus": 50}, "play"), (ben, {"ante": 200}, "fold")], clock
    )
    clock.move(timedelta(minutes=1))
    fix_tcp_deck(monkeypatch, ["2c 7d 9h"], "Ad Qh 3s")
    play_tcp(table, [(ann, {"ante": 300, "pair_plus": 100}, "fold")], clock)

    tcp = player_stats(user=ann, period=EVERYTHING).three_card_poker
    assert tcp.hands == 2
    assert tcp.staked == {"ante": 400, "play": 100, "pair_plus": 150}
    assert (tcp.wagered, tcp.returned) == (650, 200 + 200 + 100)  # Ante, Play, Pair Plus won
    assert tcp.result == ledger_net(ann, table_id=table.pk) == 500 - 650
    # The exact expectation, worked out here: Pair Plus from the 22,100 hands by category
    # under this table's pays; Ante and Play from the games package's exact odds.
    counts = category_counts()
    order = ("pair", "flush", "straight", "three_of_a_kind", "straight_flush")
    pair_plus_ev = Fraction(
        sum(counts[name] * pay for name, pay in zip(order, pays, strict=True))
        - (22_100 - sum(counts[name] for name in order)),
        22_100,
    )
    assert pair_plus_ev == -exact_odds(pair_plus=pays).pair_plus_house_edge
    ante_ev = -exact_odds(pair_plus=pays).ante_play_house_edge
    assert ante_ev == -exact_odds().ante_play_house_edge  # Pair Plus pays do not touch it
    expected = 400 * ante_ev + 150 * pair_plus_ev
    assert tcp.expected == expected
    assert tcp.expected_cents == nearest(expected)
    assert tcp.luck == nearest(tcp.result - expected)
    ben_tcp = player_stats(user=ben, period=EVERYTHING).three_card_poker
    assert ben_tcp.staked == {"ante": 200, "play": 0, "pair_plus": 0}
    assert ben_tcp.expected == 200 * ante_ev
    assert ben_tcp.result == -200


def test_chinese_poker_units_equal_the_hands_results(make_player, clock, monkeypatch):
    table = table_create(
        game="chinese_poker",
        preset="unit-1",
        options={"pause_seconds": 1, "time_bank": 0},
        name="CP $1",
    )
    deck = cp_deck([1, 2, 0], {0: hand_of(CP_ANN), 1: hand_of(CP_BEN), 2: CP_CAT})
    monkeypatch.setattr("cardroom.tables.runtime.shuffled_deck", lambda: deck)
    ann, ben, cat = (make_player(name) for name in ("ann", "ben", "cat"))
    for player in (ann, ben, cat):
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 10_000})
    advance(table, clock)  # the pause: then the deal
    table_act(table_id=table.pk, user=ann, action={"kind": "set", "submit": True, **CP_ANN})
    table_act(table_id=table.pk, user=ben, action={"kind": "set", "submit": True, **CP_BEN})
    advance(table, clock)  # Cat's time runs out: the cardroom sets her hand
    hand = Hand.objects.get(table=table, number=1)
    assert hand.result["units"] == {"0": -10, "1": 13, "2": -3}
    for seat, player in enumerate((ann, ben, cat)):
        figures = player_stats(user=player, period=EVERYTHING).chinese_poker
        assert (figures.hands, figures.units) == (1, hand.result["units"][str(seat)])
    assert player_stats(user=ann, period=EVERYTHING).chinese_poker.per_hand_text == "−10.00"
    with translation.override("es"):
        assert player_stats(user=ann, period=EVERYTHING).chinese_poker.per_hand_text == "−10,00"
    assert player_stats(user=ben, period=EVERYTHING).net == ledger_net(ben) == 1_300 - 20


def test_no_peek_deals_are_the_seated_players(make_player, clock):
    table = table_create(
        game="classic_guts", preset="no_peek", options={"ante": 100, "seats": 4}, name="No Peek"
    )
    players = [make_player(name) for name in ("ann", "ben", "cat")]
    for player in players:
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    plan = {"ann": ("", "in"), "ben": ("", "out"), "cat": ("", "in")}
    play_guts(table, players, [plan], clock, monkeypatch=None)
    assert HandEvent.objects.filter(table=table, type="blind_cards_dealt").count() == 3
    assert not HandEvent.objects.filter(table=table, type="cards_dealt").exists()
    for player in players:
        guts = player_stats(user=player, period=EVERYTHING).guts
        assert (guts.hands, guts.went_in) == (1, int(plan[player.username][1] == "in"))


# Ranges, sessions and speed.


def test_a_range_of_days_counts_what_happened_inside_it(survivor, clock, monkeypatch):
    table, players = survivor
    ann = players[0]
    play_guts(table, players, SURVIVOR_HANDS[:1], clock, monkeypatch)  # before midnight
    clock.now = datetime(2026, 11, 21, tzinfo=UTC)  # a grant of ten cents at midnight exactly
    bankroll = Account.objects.get(user=ann, kind=AccountKind.BANKROLL)
    ledger_transfer(
        source=cashier_account(), target=bankroll, amount=10, kind="grant", idempotency_key="m"
    )
    clock.now = datetime(2026, 11, 21, 0, 5, tzinfo=UTC)
    play_guts(table, players, SURVIVOR_HANDS[1:], clock, monkeypatch)  # after it
    first_day = Period.of_days(date(2026, 11, 20), date(2026, 11, 20))
    second_day = Period.of_days(date(2026, 11, 21), date(2026, 11, 21))
    both = Period.of_days(date(2026, 11, 20), date(2026, 11, 21))
    day_one, day_two, all_of_it = (
        player_stats(user=ann, period=p) for p in (first_day, second_day, both)
    )
    assert (day_one.hands, day_two.hands, all_of_it.hands) == (1, 2, 3)
    midnight = second_day.start
    assert day_one.net == ledger_net(ann, end=midnight)
    assert day_two.net == ledger_net(ann, start=midnight)
    assert day_one.net + day_two.net == all_of_it.net == ledger_net(ann)
    assert day_one.bankroll.closing == day_two.bankroll.opening
    # The midnight grant opens the second day: it is its first change, and not the first's.
    assert day_two.bankroll.points[0].at == midnight
    assert day_two.bankroll.points[0].cents == day_one.bankroll.closing + 10
    assert all(point.at < midnight for point in day_one.bankroll.points)
    # The day after sees nothing; its bankroll opens and closes at the balance then.
    after = player_stats(user=ann, period=Period.of_days(date(2026, 11, 22), date(2026, 11, 22)))
    assert (after.hands, after.net, after.bankroll.points) == (0, 0, ())
    assert after.bankroll.opening == after.bankroll.closing == bankroll_balance(user=ann)


def test_the_range_words_and_presets():
    today = date(2026, 11, 30)
    assert period_from({}, today=today)[0] == Period(preset="all")
    week, error = period_from({"range": "7d"}, today=today)
    assert (week.first_day, week.last_day, week.words, error) == (
        date(2026, 11, 24),
        today,
        "the last 7 days",
        "",
    )
    assert week.end == datetime(2026, 12, 1, tzinfo=UTC)
    assert period_from({"range": "nope"}, today=today)[1] == "There is no range called 'nope'."
    assert "YYYY-MM-DD" in period_from({"from": "30/11/2026"}, today=today)[1]
    open_start, _ = period_from({"to": "2026-11-02"}, today=today)
    assert (open_start.start, open_start.end) == (None, datetime(2026, 11, 3, tzinfo=UTC))
    assert nice_ticks(-250, 1_000) == [-500, 0, 500, 1000]


def test_sessions_split_at_thirty_minutes_without_a_hand(survivor, clock, monkeypatch):
    table, players = survivor
    ann = players[0]
    play_guts(table, players, SURVIVOR_HANDS[:2], clock, monkeypatch, gap=timedelta(minutes=29))
    clock.move(timedelta(minutes=2))  # 31 minutes after the second hand: a new session
    play_guts(table, players, SURVIVOR_HANDS[2:], clock, monkeypatch)
    sessions = player_sessions(user=ann, period=EVERYTHING)
    assert sessions.count == 2
    newest, oldest = sessions.latest
    assert (oldest.hands, newest.hands) == (2, 1)
    assert oldest.length >= timedelta(minutes=29)
    assert newest.start - oldest.end > timedelta(minutes=30)
    hands = list(Hand.objects.filter(table=table, result__type="hand_ended").order_by("number"))
    assert oldest.net == ledger_net(ann, hand_ids={hands[0].pk, hands[1].pk})
    assert newest.net == ledger_net(ann, hand_ids={hands[2].pk})
    assert sessions.net == oldest.net + newest.net
    assert oldest.tables == newest.tables == frozenset({table.pk})


def test_the_queries_do_not_grow_with_the_hands(survivor, clock, monkeypatch):
    table, players = survivor
    ann = players[0]
    play_guts(table, players, SURVIVOR_HANDS[:1], clock, monkeypatch)
    with CaptureQueriesContext(connection) as one_hand:
        player_stats(user=ann, period=EVERYTHING)
    play_guts(table, players, SURVIVOR_HANDS[1:], clock, monkeypatch)
    with CaptureQueriesContext(connection) as three_hands:
        player_stats(user=ann, period=EVERYTHING)
    assert len(three_hands) == len(one_hand) <= 20


# The operators' per-table figures.


def test_table_stats_count_hands_rake_and_players_per_hour(survivor, clock, monkeypatch):
    table, players = survivor
    play_guts(table, players, SURVIVOR_HANDS[:2], clock, monkeypatch)
    clock.move(timedelta(hours=1))
    play_guts(table, players, SURVIVOR_HANDS[2:], clock, monkeypatch)
    stats = table_stats(table=table, period=EVERYTHING, now=clock.now)
    rake = Transfer.objects.filter(table_id=table.pk, target__kind=AccountKind.RAKE)
    total_rake = sum(t.amount for t in rake)
    assert total_rake > 0
    assert stats.rake == total_rake
    assert stats.hands == Hand.objects.filter(table=table, dealt=True).count() == 3
    assert stats.players == 3
    hours = {t.created.replace(minute=0, second=0, microsecond=0) for t in rake}
    started = HandEvent.objects.filter(table=table, type="hand_started")
    hand_hours = {e.created.replace(minute=0, second=0, microsecond=0) for e in started}
    assert stats.hours == len(hand_hours) == 2
    assert stats.rake_per_hour == nearest(Fraction(total_rake, 2))
    assert stats.hands_per_hour == Fraction(3, 2)
    assert stats.players_per_hour == 3
    assert stats.bucket == "hour"
    assert sum(b.hands for b in stats.buckets) == 3
    assert sum(b.rake for b in stats.buckets) == total_rake
    assert {b.start for b in stats.buckets if b.rake} == hours
    # A range after the play sees none of it.
    later = table_stats(
        table=table, period=Period.of_days(date(2026, 11, 23), date(2026, 11, 23)), now=clock.now
    )
    assert (later.hands, later.rake, later.players, later.hours) == (0, 0, 0, 0)


# The pages.


def test_the_stats_page_shows_the_figures_and_the_chart(survivor, clock, monkeypatch, as_user):
    table, players = survivor
    play_guts(table, players, SURVIVOR_HANDS, clock, monkeypatch)
    ann = players[0]
    page = as_user(ann).get(reverse("stats") + "?range=all")
    assert page.status_code == 200
    html = page.content.decode()
    assert '<dd id="stats-hands">3</dd>' in html
    assert "<svg" in html and '<title id="bankroll-chart-title">' in html
    assert '<desc id="bankroll-chart-desc">' in html
    assert "<details" in html and "$1,000.00" in html  # the grant, in the chart's numbers
    assert "Survivor $1" in html and "66.7 %" in html
    assert "bankroll:u" not in html and "stack:t" not in html
    net = player_stats(user=ann, period=EVERYTHING).net
    assert f'<dd id="stats-net" class="{"in" if net > 0 else "out"}">' in html
    assert format_cents(net) in html


def test_the_stats_page_for_a_player_without_hands(player, as_user):
    page = as_user(player).get(reverse("stats"))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="stats-no-hands"' in html
    assert '<dd id="stats-hands">0</dd>' in html
    assert "bankroll-chart" in html  # the grant moved the bankroll
    for preset in ("7d", "30d", "all"):
        assert as_user(player).get(reverse("stats"), {"range": preset}).status_code == 200
    bad = as_user(player).get(reverse("stats"), {"from": "2026-11-05", "to": "2026-11-01"})
    assert "before it starts" in bad.content.decode()


def test_who_may_open_which_statistics(survivor, as_user, player, operator):
    table, _ = survivor
    mine = reverse("stats")
    theirs = reverse("operators-table-stats", args=[table.pk])
    anonymous = as_user(None)
    assert anonymous.get(mine).status_code == 302
    assert anonymous.get(mine)["Location"].startswith(reverse("login"))
    assert anonymous.get(theirs).status_code == 302
    assert as_user(player).get(theirs).status_code == 403
    page = as_user(operator).get(theirs)
    assert page.status_code == 200
    assert 'id="table-hands"' in page.content.decode()
    console = as_user(operator).get(reverse("operators-table", args=[table.pk])).content.decode()
    assert f'href="{theirs}"' in console
    assert as_user(operator).get(reverse("operators-table-stats", args=[99_999])).status_code == 404


def test_the_operators_page_draws_hands_and_rake(survivor, clock, monkeypatch, as_user, operator):
    table, players = survivor
    play_guts(table, players, SURVIVOR_HANDS, clock, monkeypatch)
    html = (
        as_user(operator)
        .get(reverse("operators-table-stats", args=[table.pk]), {"range": "all"})
        .content.decode()
    )
    stats = table_stats(table=table, period=EVERYTHING, now=clock.now)
    assert f'<dd id="table-hands">{stats.hands}</dd>' in html
    assert '<title id="hands-chart-title">' in html and '<title id="rake-chart-title">' in html
    assert '<desc id="rake-chart-desc">' in html
    assert 'id="table-buckets"' in html
