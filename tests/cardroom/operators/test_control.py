"""Pause, resume, close and void: the hand in play finishes (or goes back), the ledger balances."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.models import Account, AccountKind, Transfer
from accounts.selectors import bankroll_balance
from cardroom.models import Hand, Seat, TableStatus
from cardroom.tables.control import hand_void, table_close, table_pause, table_resume
from cardroom.tables.runtime import table_act, table_timeout
from games.engine import IllegalAction
from tests.cardroom.driving import declare_all, play_to_declare, run_clock

pytestmark = pytest.mark.django_db


def stacks(table) -> dict[str, int]:
    return {
        account.user.username: account.balance
        for account in Account.objects.filter(kind=AccountKind.STACK, table_id=table.pk)
    }


def test_pause_finishes_the_hand_in_play_then_deals_no_more(survivor_table, seated):
    play_to_declare(survivor_table, seated)
    table_pause(table_id=survivor_table.pk)
    declare_all(survivor_table, seated)
    survivor_table.refresh_from_db()
    assert Hand.objects.get(table=survivor_table, number=1).ended is not None
    assert survivor_table.status == TableStatus.PAUSED
    assert survivor_table.deadline is None  # the clock is held between hands
    later = timezone.now() + timedelta(hours=1)
    assert table_timeout(table_id=survivor_table.pk, now=later) is None
    assert Hand.objects.filter(table=survivor_table).count() == 1


def test_resume_starts_the_held_clock(survivor_table, seated):
    play_to_declare(survivor_table, seated)
    table_pause(table_id=survivor_table.pk)
    declare_all(survivor_table, seated)
    table_resume(table_id=survivor_table.pk)
    survivor_table.refresh_from_db()
    assert survivor_table.status == TableStatus.OPEN
    assert survivor_table.deadline is not None
    run_clock(survivor_table)
    survivor_table.refresh_from_db()
    assert survivor_table.state["phase"] == "ante"


def test_a_paused_table_takes_no_new_players(survivor_table, seated, make_player):
    table_pause(table_id=survivor_table.pk)
    with pytest.raises(IllegalAction, match="paused"):
        table_act(
            table_id=survivor_table.pk,
            user=make_player("dan"),
            action={"kind": "sit", "buy_in": 20_000},
        )
    with pytest.raises(IllegalAction, match="only an open table"):
        table_pause(table_id=survivor_table.pk)


def test_close_finishes_the_hand_then_gives_the_match_back_and_cashes_everyone_out(
    survivor_table, seated
):
    play_to_declare(survivor_table, seated)
    table_close(table_id=survivor_table.pk)
    declare_all(survivor_table, seated)  # the loser's match would be the next hand's pot
    survivor_table.refresh_from_db()
    assert survivor_table.status == TableStatus.CLOSED  # no ante call, no second deal
    assert Hand.objects.filter(table=survivor_table, dealt=True).count() == 1
    (match,) = Transfer.objects.filter(kind="match", table_id=survivor_table.pk)
    (back,) = Transfer.objects.filter(kind="pot_return", table_id=survivor_table.pk)
    assert (back.target.user, back.amount) == (match.source.user, match.amount)
    assert not Seat.objects.filter(table=survivor_table, left__isnull=True).exists()
    assert all(balance == 0 for balance in stacks(survivor_table).values())
    pot = Account.objects.filter(kind=AccountKind.POT, table_id=survivor_table.pk).first()
    assert pot is None or pot.balance == 0
    total = sum(bankroll_balance(user=player) for player in seated)
    rake = sum(t.amount for t in Transfer.objects.filter(kind="rake", table_id=survivor_table.pk))
    assert total + rake == 300_000
    call_command("audit_ledger")


def test_void_returns_exactly_what_was_committed_to_the_hand(survivor_table, seated):
    run_clock(survivor_table)
    before = stacks(survivor_table)
    for player in seated:
        table_act(table_id=survivor_table.pk, user=player, action={"kind": "ante"})
    assert stacks(survivor_table) == {name: amount - 100 for name, amount in before.items()}
    result = hand_void(table_id=survivor_table.pk, reason="dealer misdeal reported")
    assert result["returned"] == 300
    assert stacks(survivor_table) == before
    hand = Hand.objects.get(table=survivor_table, number=1)
    assert hand.void_reason == "dealer misdeal reported"
    assert hand.ended is not None
    voids = Transfer.objects.filter(kind="void", table_id=survivor_table.pk)
    assert sum(t.amount for t in voids) == 300
    # The table's log says the stakes went back, not that "the pot carries".
    from cardroom.tables.hand_log import recent_hands

    (logged,) = recent_hands(table=survivor_table)
    assert logged["summary"] == "voided by the house: every stake was returned"
    survivor_table.refresh_from_db()
    assert survivor_table.state["pot"] == 0
    call_command("audit_ledger")
    with pytest.raises(IllegalAction, match="no hand in play"):
        hand_void(table_id=survivor_table.pk, reason="again")


def test_a_second_void_before_a_point_between_hands_returns_only_the_second_hands_stakes(
    survivor_table, seated
):
    """The first void's reversals belong to the point between hands it went back to: the next
    hand, voided too, gets back what it moved and the first hand's stakes stay returned."""
    run_clock(survivor_table)
    before = stacks(survivor_table)
    for player in seated:
        table_act(table_id=survivor_table.pk, user=player, action={"kind": "ante"})
    assert hand_void(table_id=survivor_table.pk, reason="misdeal")["returned"] == 300
    run_clock(survivor_table)  # the next ante call, with no point between hands before it
    table_act(table_id=survivor_table.pk, user=seated[0], action={"kind": "ante"})
    assert hand_void(table_id=survivor_table.pk, reason="misdeal again")["returned"] == 100
    assert stacks(survivor_table) == before
    survivor_table.refresh_from_db()
    state = survivor_table.state
    seats = [seat for seat in state["seats"] if seat is not None]
    in_state = {seat["player"]: seat["stack"] for seat in seats}
    assert in_state == before and state["pot"] == 0
    pot = Account.objects.filter(kind=AccountKind.POT, table_id=survivor_table.pk)
    assert [account.balance for account in pot] in ([], [0])


def test_the_console_pauses_and_voids_with_a_logged_reason(client, survivor_table, seated):
    from django.contrib.auth.models import Group
    from django.urls import reverse

    from cardroom.models import OperatorAction
    from tests.conftest import login_with_two_factor

    operator = seated[0].__class__.objects.create_user(username="op", password="pw")
    operator.groups.add(Group.objects.get(name="Operators"))
    login_with_two_factor(client, operator)  # staff give a second factor first
    url = reverse("operators-play", args=[survivor_table.pk])
    assert client.post(url, {"action": "pause", "reason": ""}).status_code == 400
    assert client.post(url, {"action": "pause", "reason": "maintenance"}).status_code == 302
    survivor_table.refresh_from_db()
    assert survivor_table.status == TableStatus.PAUSED
    refused = client.post(url, {"action": "void", "reason": "no hand"})
    assert refused.status_code == 400
    assert "no hand in play" in refused.content.decode()
    logged = list(OperatorAction.objects.values_list("kind", "reason"))
    assert logged == [("table_pause", "maintenance")]


def test_a_player_may_not_pause_a_table(client, survivor_table, seated):
    from django.urls import reverse

    client.force_login(seated[0])
    url = reverse("operators-play", args=[survivor_table.pk])
    assert client.post(url, {"action": "pause", "reason": "mine"}).status_code == 403
    survivor_table.refresh_from_db()
    assert survivor_table.status == TableStatus.OPEN


def test_a_voided_hand_fee_leaves_the_rake_report(make_player):
    from cardroom.audit.reports import rake_report
    from cardroom.tables.runtime import table_create

    table = table_create(game="chinese_poker", preset="unit-1", options={}, name="CP")
    for name in ("ann", "ben"):
        table_act(
            table_id=table.pk, user=make_player(name), action={"kind": "sit", "buy_in": 10_000}
        )
    for _ in range(3):
        table.refresh_from_db()
        if Hand.objects.filter(table=table).exists():
            break
        run_clock(table)
    today = timezone.localdate()
    assert rake_report(start=today, end=today).total == 40  # two fees of a fifth of $1
    hand_void(table_id=table.pk, reason="wrong deck")
    assert rake_report(start=today, end=today).total == 0
    assert set(stacks(table).values()) == {10_000}
    call_command("audit_ledger")


def test_a_paused_table_says_so_instead_of_a_stuck_countdown(survivor_table, seated):
    from cardroom.presentation.pages import table_page_context

    survivor_table.refresh_from_db()
    before = table_page_context(table=survivor_table, user=seated[0])
    assert before["deadline"] is not None and before["house_note"] == ""

    table_pause(table_id=survivor_table.pk)
    survivor_table.refresh_from_db()
    paused = table_page_context(table=survivor_table, user=seated[0])
    assert paused["phase_words"] == "Paused by the house"
    assert paused["deadline"] is None
    assert "resumes" in paused["house_note"]

    table_resume(table_id=survivor_table.pk)
    play_to_declare(survivor_table, seated)
    table_close(table_id=survivor_table.pk)
    survivor_table.refresh_from_db()
    closing = table_page_context(table=survivor_table, user=seated[0])
    assert survivor_table.status == TableStatus.CLOSING, "the hand is under way"
    assert "closes after this hand" in closing["house_note"]
    assert closing["deadline"] is not None  # the hand plays on to its end
