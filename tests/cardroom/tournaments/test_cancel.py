"""Cancelling: every entry refunded, buy-in and fee, the table closed, the operator's action
logged; the prize account at zero and the audit clean."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.audit import ledger_audit
from cardroom.models import (
    Entry,
    EntryStatus,
    HandEvent,
    OperatorAction,
    OperatorActionKind,
    TableStatus,
    TournamentStatus,
)
from cardroom.tables.runtime import table_timeout
from cardroom.tournaments.cancel import CancelRefused, cancel_tournament
from cardroom.tournaments.registration import register
from tests.cardroom.tournaments.money import balance, bankroll

pytestmark = pytest.mark.django_db

GRANT = 100_000


def test_cancel_before_the_start_refunds_the_registered(make_tournament, alice, bob):
    tournament = make_tournament(seats=3)
    register(tournament_id=tournament.pk, user=alice)
    register(tournament_id=tournament.pk, user=bob)
    cancel_tournament(tournament_id=tournament.pk, reason="nobody else came", actor=alice)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.CANCELLED
    assert tournament.cancel_reason == "nobody else came"
    assert (bankroll(alice), bankroll(bob)) == (GRANT, GRANT)
    assert (balance(f"prize:n{tournament.pk}"), balance("fees")) == (0, 0)
    assert set(Entry.objects.values_list("status", flat=True)) == {EntryStatus.REFUNDED}
    logged = OperatorAction.objects.get(kind=OperatorActionKind.TOURNAMENT_CANCEL)
    assert logged.details["refunded"] == 2 and logged.reason == "nobody else came"
    assert ledger_audit().ok


def test_cancel_mid_hand_refunds_everyone_and_closes_the_table(
    seeded, make_tournament, make_player
):
    tournament = make_tournament(seats=3)
    players = [make_player(name) for name in ("ann", "ben", "cat")]
    for player in players:
        register(tournament_id=tournament.pk, user=player)
    tournament.refresh_from_db()
    table = tournament.table
    # The clock opens the first ante call: the players are asked, or anted, and dealt.
    now = timezone.now()
    while table.state["phase"] != "declare":
        now = max(now, table.deadline) + timedelta(milliseconds=5)
        table_timeout(table_id=table.pk, now=now)
        table.refresh_from_db()
    assert table.open_hand_id is not None  # a hand is in play
    cancel_tournament(tournament_id=tournament.pk, reason="server maintenance")
    table.refresh_from_db()
    assert table.status == TableStatus.CLOSED
    assert HandEvent.objects.filter(table=table, type="hand_voided").count() == 1
    assert [bankroll(player) for player in players] == [GRANT] * 3
    assert (balance(f"prize:n{tournament.pk}"), balance("fees")) == (0, 0)
    assert ledger_audit().ok
    with pytest.raises(CancelRefused, match="is over"):
        cancel_tournament(tournament_id=tournament.pk, reason="again")
    assert [bankroll(player) for player in players] == [GRANT] * 3


def test_a_cancel_needs_a_reason(make_tournament, alice):
    tournament = make_tournament()
    register(tournament_id=tournament.pk, user=alice)
    with pytest.raises(CancelRefused, match="say why"):
        cancel_tournament(tournament_id=tournament.pk, reason="  ")
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.REGISTERING
    assert bankroll(alice) == GRANT - 1100


def test_the_audit_finds_a_prize_account_left_over(make_tournament, alice, bob):
    """A tournament that is over with money still in its pool is a finding of the audit."""
    tournament = make_tournament(seats=3)
    register(tournament_id=tournament.pk, user=alice)
    assert ledger_audit().ok  # registering: the pool holds the buy-in, rightly
    tournament.status = TournamentStatus.FINISHED
    tournament.save(update_fields=["status"])
    audit = ledger_audit()
    assert not audit.ok
    assert audit.mismatches == [
        {
            "account": f"prize:n{tournament.pk}",
            "cached": 1000,
            "recomputed": 0,
            "check": "the prize account of a tournament that is over is at zero",
        }
    ]
