"""The rake report's house result (banked play) and fees beside the rake: checked against the
ledger to the cent after Three Card Poker played with known decks, in the page, the CSV, the
command and the chart, in a fixed number of queries."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, date, datetime, timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from accounts.ledger import account_for, cashier_account, ledger_transfer
from accounts.models import Account, AccountKind, Transfer
from cardroom.audit.reports import rake_chart, rake_report
from cardroom.models import Hand, Seat, Table
from cardroom.tables.control import hand_void
from cardroom.tables.runtime import table_act, table_create, table_timeout
from games.cards import parse_cards
from tests.cardroom.driving import run_clock
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)
from tests.games.three_card_poker.helpers import deck_for

pytestmark = pytest.mark.django_db

#: 23:40 UTC: the first round is played on the 20th, the second on the 21st.
START = datetime(2026, 11, 20, 23, 40, tzinfo=UTC)
DAY1, DAY2 = date(2026, 11, 20), date(2026, 11, 21)
RANGE = "?from=2026-11-20&to=2026-11-21"


class Clock:
    """The time every row is written with (``timezone.now`` reads it)."""

    def __init__(self, moment: datetime) -> None:
        self.now = moment

    def __call__(self) -> datetime:
        return self.now


def play_round(table: Table, bets, clock: Clock, monkeypatch, hands, dealer) -> None:
    """One round with a fixed deck: each (player, bet, decision) sits if need be, bets, then
    plays or folds."""
    deck = parse_cards(deck_for(hands, dealer))
    monkeypatch.setattr("cardroom.tables.runtime.shuffled_deck", lambda: deck)
    table.refresh_from_db()
    while table.deadline is not None and table.deadline < clock.now:
        assert table_timeout(table_id=table.pk, now=table.deadline + timedelta(milliseconds=10))
        table.refresh_from_db()
    for player, _, _ in bets:
        if not Seat.objects.filter(table=table, user=player, left__isnull=True).exists():
            table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 10_000})
    for player, bet, _ in bets:
        table_act(table_id=table.pk, user=player, action={"kind": "bet", **bet})
    table.refresh_from_db()
    if table.state["phase"] == "betting":  # someone seated did not bet: the deal is at the deadline
        clock.now = max(clock.now, table.deadline + timedelta(milliseconds=10))
        assert table_timeout(table_id=table.pk, now=clock.now)
    for player, _, decision in bets:
        table_act(table_id=table.pk, user=player, action={"kind": decision})
    table.refresh_from_db()
    assert table.state["phase"] != "deciding"


def players_net(table: Table) -> int:
    """What the players won at the table, from the ledger, summed here in Python: every
    transfer into or out of their stacks except their own bankroll's."""
    total = 0
    for t in Transfer.objects.filter(table_id=table.pk).select_related("source", "target"):
        own = {t.source.kind, t.target.kind} == {AccountKind.STACK, AccountKind.BANKROLL}
        if own:
            continue
        total += t.amount * (
            (t.target.kind == AccountKind.STACK) - (t.source.kind == AccountKind.STACK)
        )
    return total


def to_rake(amount: int, *, table: Table, kind: str, key: str, source=None) -> Transfer:
    """Rake or a hand fee at a table (from the cashier unless said: the report reads the
    rake's side, and where a void gives a fee back)."""
    return ledger_transfer(
        source=source or cashier_account(),
        target=account_for(kind=AccountKind.RAKE, table_id=table.pk),
        amount=amount,
        kind=kind,
        idempotency_key=key,
        table_id=table.pk,
    )


def given_back(transfer: Transfer) -> Transfer:
    """A void's reversal of ``transfer``, as cardroom/tables/control.py posts it."""
    return ledger_transfer(
        source=transfer.target,
        target=transfer.source,
        amount=transfer.amount,
        kind="void",
        idempotency_key=f"void:{transfer.pk}",
        table_id=transfer.table_id,
    )


@pytest.fixture
def played(make_player, monkeypatch):
    """Two rounds of Three Card Poker on two days, Guts rake and Chinese Poker fees (one fee
    and one rake given back by a void)."""
    clock = Clock(START)
    monkeypatch.setattr("django.utils.timezone.now", clock)
    tcp = table_create(game="three_card_poker", preset="standard", options={}, name="TCP")
    guts = table_create(game="guts", preset="survivor", options={"ante": 100}, name="Guts")
    chinese = table_create(game="chinese_poker", preset="unit-1", options={}, name="CP")
    ann, ben = make_player("ann"), make_player("ben")
    # Day 1: Ann's pair plays and wins Ante, Play and Pair Plus (+$2.50); Ben folds (-$2.00).
    play_round(
        tcp,
        [(ann, {"ante": 100, "pair_plus": 50}, "play"), (ben, {"ante": 200}, "fold")],
        clock,
        monkeypatch,
        ["4c 4d 9s", "Ac Kh 2d"],
        "Kd 9h 3s",
    )
    to_rake(9, table=guts, kind="rake", key="rake-1")
    # Ann pays a hand fee from her stack; a void gives it back there.
    stack = account_for(kind=AccountKind.STACK, user=ann, table_id=chinese.pk)
    ledger_transfer(
        source=cashier_account(),
        target=stack,
        amount=1_000,
        kind="buy_in",
        idempotency_key="cp-stack",
        table_id=chinese.pk,
    )
    fee = to_rake(20, table=chinese, kind="fee", key="fee-1", source=stack)
    given_back(fee)
    to_rake(20, table=chinese, kind="fee", key="fee-2")
    clock.now = START + timedelta(hours=1)
    # Day 2: Ann folds seven-high: her $3.00 Ante and $1.00 Pair Plus go to the house.
    play_round(
        tcp,
        [(ann, {"ante": 300, "pair_plus": 100}, "fold")],
        clock,
        monkeypatch,
        ["2c 7d 9h"],
        "Ad Qh 3s",
    )
    given_back(to_rake(30, table=guts, kind="rake", key="rake-2"))
    to_rake(40, table=chinese, kind="fee", key="fee-3")
    return tcp, guts, chinese


def test_the_house_result_is_what_the_players_lost_to_the_house_to_the_cent(played):
    tcp, guts, chinese = played
    report = rake_report(start=DAY1, end=DAY2)
    house = Account.objects.get(code=f"house:t{tcp.pk}")
    # Day 1: the house paid Ann $2.50 and won Ben's $2.00; day 2 it won Ann's $4.00.
    assert report.totals["house"] == house.balance == -players_net(tcp) == -50 + 400
    by_row = {(row["day"], row["table_id"]): row for row in report.rows}
    assert by_row[DAY1, tcp.pk]["house"] == -50
    assert by_row[DAY2, tcp.pk]["house"] == 400
    assert by_row[DAY1, tcp.pk]["cents"] == by_row[DAY1, tcp.pk]["transfers"] == 0
    # A fee given back by a void lowers the fees; rake given back lowers the rake.
    assert (by_row[DAY1, chinese.pk]["fees"], by_row[DAY1, chinese.pk]["rake"]) == (20, 0)
    assert (by_row[DAY2, guts.pk]["rake"], by_row[DAY2, guts.pk]["fees"]) == (0, 0)
    assert by_row[DAY2, guts.pk]["transfers"] == 2
    rake_accounts = Account.objects.filter(kind=AccountKind.RAKE)
    assert report.totals["cents"] == sum(a.balance for a in rake_accounts) == 9 + 20 + 40
    assert report.totals == {
        "cents": 69,
        "rake": 9,
        "fees": 60,
        "house": 350,
        "tournament_fees": 0,
        "income": 419,
    }
    for rows in (report.rows, report.by_day, report.by_table, report.by_game):
        for name in report.totals:
            assert sum(row[name] for row in rows) == report.totals[name], name
    games = {row["game"]: row for row in report.by_game}
    assert (games["three_card_poker"]["house"], games["three_card_poker"]["income"]) == (350, 350)
    assert (games["chinese_poker"]["fees"], games["guts"]["rake"]) == (60, 9)
    assert all(isinstance(row[name], int) for row in report.rows for name in report.totals)


def test_the_report_is_two_queries_however_many_rows(played, django_assert_num_queries):
    # The sums, grouped; the tournaments' fees (none: no third query for their tournaments);
    # the tables' names.
    with django_assert_num_queries(3):
        report = rake_report(start=DAY1, end=DAY2)
    assert len(report.rows) == 6  # two days at three tables


def test_the_csv_appends_the_house_columns_after_the_old_ones(as_user, auditor, played):
    tcp, _, _ = played
    response = as_user(auditor).get(reverse("audit-rake-csv") + RANGE)
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == [
        "day", "table_id", "table", "game", "transfers", "cents",
        "rake_cents", "fee_cents", "house_result_cents", "income_cents", "tournament_fee_cents",
    ]  # fmt: skip
    tcp_day2 = ["2026-11-21", str(tcp.pk), "TCP", "three_card_poker", "0", "0"]
    assert [*tcp_day2, "0", "0", "400", "400", "0"] in rows
    assert rows[-1] == ["total", "", "", "", "7", "69", "9", "60", "350", "419", "0"]


def test_the_command_prints_the_house_result(played):
    tcp, _, _ = played
    out = io.StringIO()
    call_command("rake_report", "--from", "2026-11-20", "--to", "2026-11-21", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[-2] == "house result: $3.50 (350 cents); income: $4.19 (419 cents)"
    assert lines[-1] == "total: $0.69 (69 cents)"
    assert any(re.fullmatch(r"\s+three_card_poker\s+\$0\.00\s+\$3\.50\s+\$3\.50", x) for x in lines)
    out = io.StringIO()
    call_command("rake_report", "--from", "2026-11-20", "--to", "2026-11-21", "--json", stdout=out)
    data = json.loads(out.getvalue())
    assert (data["total"], data["by_table"][str(tcp.pk)]) == (69, 0)
    assert (data["rake"], data["fees"], data["house_result"], data["income"]) == (9, 60, 350, 419)
    assert data["income_by_day"]["2026-11-20"] == {
        "rake": 9, "fees": 20, "house_result": -50, "tournament_fees": 0, "income": -21
    }  # fmt: skip
    assert data["income_by_table"][str(tcp.pk)]["house_result"] == 350
    assert data["income_by_game"]["chinese_poker"] == {
        "rake": 0, "fees": 60, "house_result": 0, "tournament_fees": 0, "income": 60
    }  # fmt: skip


def test_the_chart_draws_the_house_result_beside_the_rake_on_one_scale(played):
    report = rake_report(start=DAY1, end=DAY2)
    chart = rake_chart(report.by_day)
    first, second = chart["bars"]
    assert [(bar["cents"], bar["house"]) for bar in chart["bars"]] == [(29, -50), (40, 400)]
    assert (chart["top"], chart["bottom"]) == (400, -50)
    # The day the house paid out is below the zero line; the day it won, above; the rake's
    # bars stand on the zero line.
    assert first["house_y"] > chart["zero"] > second["house_y"]
    assert second["house_y"] == 8  # the highest figure is the top of the plot
    assert first["y"] + first["height"] == pytest.approx(chart["zero"])
    assert second["height"] / first["height"] == pytest.approx(40 / 29, rel=1e-2)
    assert chart["house_line"] == (
        f"{first['label_x']},{first['house_y']} {second['label_x']},{second['house_y']}"
    )


def test_an_empty_range_draws_flat_series_on_the_zero_line(db):
    chart = rake_chart(rake_report(start=DAY1, end=DAY2).by_day)
    assert {bar["height"] for bar in chart["bars"]} == {0}
    assert {bar["house_y"] for bar in chart["bars"]} == {chart["zero"]}


def test_the_page_shows_the_house_result_beside_the_rake_with_its_explanation(
    as_user, auditor, operator, played
):
    tcp, _, _ = played
    url = reverse("audit-rake") + RANGE
    assert as_user(operator).get(url)["Location"].startswith(reverse("admin:login"))
    page = as_user(auditor).get(url).content.decode()
    assert '<strong id="house-result-total">$3.50</strong>' in page
    assert '<strong id="house-income-total">$4.19</strong>' in page
    assert "what the house won from players at banked tables, less what it paid them" in page
    assert len(re.findall(r'<circle class="house-point"', page)) == 2
    games = re.search(r'<table id="by-game">(.*?)</table>', page, re.S)
    assert games is not None
    cells = [re.sub(r"<[^>]+>", " ", row).split() for row in re.findall(r"<tr.*?</tr>", games[1])]
    assert ["Three", "Card", "Poker", "$0.00", "$0.00", "$3.50", "$3.50"] in cells
    assert cells[-1] == ["Total", "$0.09", "$0.60", "$3.50", "$4.19"]
    row = re.search(
        rf"<tr class=\"rake-row\"><td>2026-11-21</td><td>#{tcp.pk} TCP</td>.*?</tr>", page, re.S
    )
    assert row is not None
    assert re.findall(r'<td class="num">([^<]*)</td>', row[0]) == [
        "0", "0", "$0.00", "$0.00", "$0.00", "$4.00", "$4.00"
    ]  # fmt: skip


def test_the_drill_down_lists_the_hands_played_against_the_house(as_user, auditor, played):
    tcp, _, _ = played
    url = reverse("audit-rake-hands") + f"?day=2026-11-21&table={tcp.pk}"
    page = as_user(auditor).get(url).content.decode()
    assert '<strong id="drill-total">$0.00</strong> from 1 hand.' in page
    assert '<strong id="drill-house">$4.00</strong>' in page
    hand = Hand.objects.get(table=tcp, number=2)
    assert reverse("admin:cardroom_hand_change", args=[hand.pk]) in page
    for transfer in Transfer.objects.filter(hand_id=hand.pk):
        assert f"<td>{transfer.pk}</td>" in page


def test_hand_fees_an_operator_voided_leave_the_fees_not_the_rake(make_player):
    table = table_create(game="chinese_poker", preset="unit-1", options={}, name="CP")
    for name in ("ann", "ben"):
        table_act(
            table_id=table.pk, user=make_player(name), action={"kind": "sit", "buy_in": 10_000}
        )
    for _ in range(3):  # the clock deals the first hand
        if Hand.objects.filter(table=table).exists():
            break
        run_clock(table)
        table.refresh_from_db()
    today = timezone.localdate()
    taken = rake_report(start=today, end=today).totals
    assert (taken["cents"], taken["fees"], taken["rake"], taken["house"]) == (40, 40, 0, 0)
    hand_void(table_id=table.pk, reason="wrong deck")
    assert rake_report(start=today, end=today).totals == dict.fromkeys(taken, 0)
