"""A player's own limits (docs/responsible-gaming.md): the 24-hour delay of an increase, each
buy-in and loss window at its boundary, the Play a Three Card Poker bet may call for, a loss
limit reached in a hand, the session limit, and what the checks cost."""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from accounts.ledger import account_for, ledger_transfer
from accounts.models import AccountKind, Transfer, TransferKind
from accounts.selectors import bankroll_balance
from cardroom.models import Seat, TableAction
from cardroom.models.responsible import LimitChange, PlayerLimits
from cardroom.responsible.limits import apply_due_changes, limits_locked
from cardroom.responsible.sweep import responsible_sweep
from cardroom.responsible.terms import WINDOWS, moment_words
from cardroom.tables.runtime import table_act
from games.engine import IllegalAction
from tests.cardroom.queries import ORDINARY, queries
from tests.cardroom.responsible.play import (
    act,
    advance,
    fix_deck,
    limit,
    past_buy_in,
    past_loss,
    sit,
    survivor,
    three_card,
)

pytestmark = pytest.mark.django_db


def test_a_decrease_applies_at_once_an_increase_or_a_removal_24_hours_later(make_player):
    ann = make_player("ann")
    now = timezone.now()
    first = limit(ann, "buy_in_day", 30_000, now)
    assert first.applied == now and first.before is None
    assert PlayerLimits.objects.get(user=ann).buy_in_day == 30_000

    up = limit(ann, "buy_in_day", 50_000, now)
    assert up.applied is None and up.effective == now + timedelta(hours=24)
    row = PlayerLimits.objects.get(user=ann)
    assert (row.buy_in_day, row.pending_from) == (30_000, up.effective)
    with transaction.atomic():
        row = limits_locked(ann)
        apply_due_changes(row, up.effective - timedelta(seconds=1))
    assert row.buy_in_day == 30_000  # a second early: still the old limit
    with transaction.atomic():
        row = limits_locked(ann)
        apply_due_changes(row, up.effective)
    up.refresh_from_db()
    assert (row.buy_in_day, row.pending_from, up.applied) == (50_000, None, up.effective)

    later = up.effective + timedelta(hours=1)
    removal = limit(ann, "buy_in_day", None, later)
    assert removal.applied is None and removal.effective == later + timedelta(hours=24)
    # A decrease while the removal waits: at once, and the removal is cancelled.
    down = limit(ann, "buy_in_day", 20_000, later + timedelta(minutes=5))
    removal.refresh_from_db()
    assert down.applied is not None and removal.cancelled == later + timedelta(minutes=5)
    row = PlayerLimits.objects.get(user=ann)
    assert (row.buy_in_day, row.pending_from) == (20_000, None)
    # Asking for the value in force cancels a pending increase and records nothing new.
    again = limit(ann, "buy_in_day", 40_000, later + timedelta(minutes=6))
    assert limit(ann, "buy_in_day", 20_000, later + timedelta(minutes=7)) is None
    again.refresh_from_db()
    assert again.cancelled is not None and again.applied is None
    assert LimitChange.objects.filter(user=ann).count() == 5


def test_the_runtime_keeps_the_old_limit_until_the_increase_takes_effect(make_player):
    ann = make_player("ann")
    now = timezone.now()
    limit(ann, "buy_in_day", 20_000, now)
    up = limit(ann, "buy_in_day", 40_000, now)
    table = survivor()
    before = up.effective - timedelta(seconds=1)
    with pytest.raises(IllegalAction, match=r"daily buy-in limit of \$200\.00 is less than"):
        sit(ann, table, 30_000, now=before)
    sit(ann, table, 30_000, now=up.effective)
    assert PlayerLimits.objects.get(user=ann).buy_in_day == 40_000


@pytest.mark.parametrize("window", ["day", "week", "month"])
def test_each_buy_in_window_allows_exactly_its_limit_and_rolls(make_player, window):
    span = WINDOWS[window]
    ann = make_player("ann")
    past_buy_in(ann, 20_000, ago=span + timedelta(hours=1))  # out of the window: not counted
    recent = past_buy_in(ann, 20_000, ago=span - timedelta(hours=1))
    limit(ann, f"buy_in_{window}", 50_000)
    table = survivor()
    sit(ann, table, 10_000)
    act(ann, table, kind="top_up", amount=20_000)  # 20,000 + 10,000 + 20,000: the limit exactly
    label = {"day": "daily", "week": "weekly", "month": "monthly"}[window]
    until = moment_words(recent.created + span)
    with pytest.raises(IllegalAction) as refused:
        act(ann, table, kind="top_up", amount=1)
    assert str(refused.value) == (
        f"Your {label} buy-in limit of $500.00 allows $0.00 more until {until}"
        " (this top-up is $0.01)"
    )
    assert Seat.objects.get(user=ann, table=table).left is None
    assert bankroll_balance(user=ann) == 100_000 - 70_000


def test_buy_ins_at_every_table_count_together(make_player):
    ann = make_player("ann")
    limit(ann, "buy_in_day", 30_000)
    first, second = survivor("First"), survivor("Second")
    sit(ann, first, 20_000)
    bought = Transfer.objects.get(kind=TransferKind.BUY_IN, table_id=first.pk)
    with pytest.raises(IllegalAction) as refused:
        sit(ann, second, 15_000)
    assert str(refused.value) == (
        "Your daily buy-in limit of $300.00 allows $100.00 more until"
        f" {moment_words(bought.created + timedelta(hours=24))} (this buy-in is $150.00)"
    )
    assert not Seat.objects.filter(user=ann, table=second).exists()
    sit(ann, second, 10_000)  # the $100.00 left, exactly


@pytest.mark.parametrize("window", ["day", "week", "month"])
def test_each_loss_window_allows_an_ante_that_reaches_the_limit_exactly(make_player, window):
    span = WINDOWS[window]
    ann, ben, cat = make_player("ann"), make_player("ben"), make_player("cat")
    past_loss(ann, 5_000, ago=span + timedelta(hours=1))  # out of the window
    past_loss(ann, 400, ago=span - timedelta(hours=1))
    recent = past_loss(ben, 401, ago=span - timedelta(hours=1))
    limit(ann, f"loss_{window}", 500)
    limit(ben, f"loss_{window}", 500)
    table = survivor()
    for player in (ann, ben, cat):
        sit(player, table, 20_000)
    advance(table)  # the ante call
    act(ann, table, kind="ante")  # 400 + 100: the limit exactly
    label = {"day": "daily", "week": "weekly", "month": "monthly"}[window]
    with pytest.raises(IllegalAction) as refused:
        act(ben, table, kind="ante")
    assert str(refused.value) == (
        f"Your {label} loss limit of $5.00 allows $0.99 more until"
        f" {moment_words(recent.created + span)} (this ante risks $1.00)"
    )
    act(cat, table, kind="ante")
    table.refresh_from_db()
    assert table.state["phase"] == "ante"  # Ben is still asked; the clock declines for him


def test_a_win_makes_room_under_a_loss_limit(make_player):
    ann, ben = make_player("ann"), make_player("ben")
    past_loss(ann, 450, ago=timedelta(hours=2))
    limit(ann, "loss_day", 500)
    table = survivor()
    sit(ann, table, 20_000)
    sit(ben, table, 20_000)
    advance(table)
    with pytest.raises(IllegalAction, match=r"allows \$0\.50 more"):
        act(ann, table, kind="ante")
    # $3.00 won back (a pot paid to her stack) makes room for the ante.
    pot = account_for(kind=AccountKind.POT, table_id=table.pk)
    ledger_transfer(
        source=account_for(kind=AccountKind.STACK, user=ben, table_id=table.pk),
        target=pot, amount=300, kind=TransferKind.MATCH, idempotency_key="ben-pays",
    )  # fmt: skip
    ledger_transfer(
        source=pot, target=account_for(kind=AccountKind.STACK, user=ann, table_id=table.pk),
        amount=300, kind=TransferKind.POT_WIN, idempotency_key="ann-wins",
    )  # fmt: skip
    act(ann, table, kind="ante")


def test_a_bet_risks_the_play_it_may_call_for(make_player):
    ann = make_player("ann")
    limit(ann, "loss_day", 250)
    table = three_card()
    sit(ann, table, 10_000)
    with pytest.raises(IllegalAction) as refused:
        act(ann, table, kind="bet", ante=100, pair_plus=51)
    assert str(refused.value) == (
        "Your daily loss limit of $2.50 is less than the $2.51 at risk"
        " (this bet risks $2.51 with the Play it may call for)"
    )
    act(ann, table, kind="bet", ante=100, pair_plus=50)  # $2.50 at risk: the limit exactly


def test_a_loss_limit_reached_in_a_hand_lets_it_finish_then_stands_the_player_up(
    make_player, monkeypatch
):
    fix_deck(monkeypatch, ["2c 4d 7h"], "Kd Qh 3s")  # Ann's seven-high loses to a king
    ann = make_player("ann")
    limit(ann, "loss_day", 250)
    table = three_card()
    sit(ann, table, 10_000)
    act(ann, table, kind="bet", ante=100, pair_plus=50)  # alone: dealt at once
    table.refresh_from_db()
    assert table.state["phase"] == "deciding"
    act(ann, table, kind="play")  # the Play is never refused: it was counted at the bet
    seat = Seat.objects.get(user=ann, table=table)
    assert seat.left is not None and seat.leave_at_rest
    assert bankroll_balance(user=ann) == 100_000 - 250
    kinds = list(TableAction.objects.filter(table=table).values_list("action__kind", flat=True))
    assert kinds[-2:] == ["play", "leave"]  # the same action: the hand ended, then she left
    with pytest.raises(IllegalAction, match=r"daily loss limit of \$2\.50 is reached until"):
        sit(ann, table, 10_000)


def test_the_session_limit_stands_the_player_up_and_says_when_they_may_sit_again(make_player):
    ann = make_player("ann")
    limit(ann, "session_minutes", 10)
    table = three_card()
    sit(ann, table, 10_000)
    Seat.objects.filter(user=ann).update(joined=timezone.now() - timedelta(minutes=11))
    with pytest.raises(IllegalAction) as refused:
        act(ann, table, kind="bet", ante=100)
    assert str(refused.value) == (
        "Your session limit of 10 minutes is reached: you will be stood up at the end of the"
        " hand in play"
    )
    now = timezone.now()
    assert responsible_sweep(now=now) == 1
    seat = Seat.objects.get(user=ann, table=table)
    assert seat.left == now
    with pytest.raises(IllegalAction) as refused:
        sit(ann, table, 10_000, now=now + timedelta(minutes=29))
    assert str(refused.value) == (
        "Your session limit of 10 minutes is reached: you can sit down again from"
        f" {moment_words(now + timedelta(minutes=30))}"
    )
    sit(ann, table, 10_000, now=now + timedelta(minutes=30))  # a new session


def test_checks_cost_no_query_without_limits_and_few_with_them(make_player):
    from accounts.ledger import rake_account

    rake_account()
    table = survivor()
    ann, ben, cat, dan, eve = (make_player(name) for name in ("ann", "ben", "cat", "dan", "eve"))
    PlayerLimits.objects.create(user=ben, reality_minutes=30)  # a row, but no limit
    limit(cat, "loss_week", 100_000)
    for player in (ann, ben, cat, dan, eve):
        sit(player, table, 20_000)
    advance(table)
    act(dan, table, kind="ante")  # the first ante opens the hand: not measured
    ids = itertools.count()

    def ante(player):
        return queries(
            lambda: table_act(
                table_id=table.pk, user=player, action={"kind": "ante"}, action_id=str(next(ids))
            )
        )

    plain, with_row, limited = ante(ann), ante(ben), ante(cat)  # Eve's ante would deal
    assert plain == with_row <= ORDINARY, (plain, with_row)
    assert limited <= plain + 2, (plain, limited)  # the row's lock and one sum of the ledger
