"""The table runtime: one action, one transaction; money through the ledger; history kept."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.ledger import LedgerError
from accounts.models import Account, AccountKind, Transfer
from accounts.selectors import bankroll_balance
from cardroom.models import Hand, HandEvent, Seat, Table
from cardroom.tables.runtime import table_act, table_timeout
from cardroom.tables.selectors import table_state
from games.deck import verify_opening  # noqa: F401  (the commitment is checked below)
from games.engine import IllegalAction
from tests.cardroom.driving import play_to_declare

pytestmark = pytest.mark.django_db


def phase(table: Table) -> str:
    table.refresh_from_db()
    return table.state["phase"]


def test_sitting_down_buys_in_through_the_ledger(survivor_table, seated):
    ann = seated[0]
    assert bankroll_balance(user=ann) == 80_000
    stack = Account.objects.get(kind=AccountKind.STACK, user=ann, table_id=survivor_table.pk)
    assert stack.balance == 20_000
    assert Seat.objects.filter(table=survivor_table, left__isnull=True).count() == 3
    assert phase(survivor_table) == "pause"  # a short pause, then the round's ante call
    advance(survivor_table)
    assert phase(survivor_table) == "ante"


def test_buy_in_below_the_minimum_is_refused_and_nothing_changes(survivor_table, make_player):
    dan = make_player("dan")
    with pytest.raises(IllegalAction, match=r"\$100\.00"):
        table_act(table_id=survivor_table.pk, user=dan, action={"kind": "sit", "buy_in": 500})
    assert not Seat.objects.filter(user=dan).exists()
    assert bankroll_balance(user=dan) == 100_000


def test_buy_in_above_the_bankroll_is_refused(survivor_table, make_player):
    dan = make_player("dan")
    with pytest.raises(LedgerError, match=r"less than the \$1,500\.00"):
        table_act(table_id=survivor_table.pk, user=dan, action={"kind": "sit", "buy_in": 150_000})
    assert not Seat.objects.filter(user=dan).exists()
    survivor_table.refresh_from_db()
    assert survivor_table.version == 0


def advance(table: Table) -> None:
    """Let the clock pass the table's deadline."""
    table.refresh_from_db()
    assert table.deadline is not None
    assert table_timeout(table_id=table.pk, now=table.deadline + timedelta(seconds=0.01))


def test_a_player_cannot_act_for_another_seat(survivor_table, seated):
    ann, ben, _ = seated
    advance(survivor_table)
    survivor_table.refresh_from_db()
    version = survivor_table.version
    with pytest.raises(IllegalAction, match="only for your own seat, 0"):
        table_act(table_id=survivor_table.pk, user=ann, action={"kind": "ante", "seat": 1})
    with pytest.raises(IllegalAction, match="not 99"):
        table_act(table_id=survivor_table.pk, user=ann, action={"kind": "ante", "table": 99})
    survivor_table.refresh_from_db()
    assert survivor_table.version == version
    view = table_state(table=survivor_table, user_id=ben.pk)
    assert {"kind": "ante", "amount": 100} in view["you"]["legal_actions"]


def test_a_decision_after_its_deadline_is_refused(survivor_table, seated):
    ann = seated[0]
    advance(survivor_table)
    survivor_table.refresh_from_db()
    late = survivor_table.deadline + timedelta(milliseconds=1)
    with pytest.raises(IllegalAction, match="too late"):
        table_act(table_id=survivor_table.pk, user=ann, action={"kind": "ante"}, now=late)
    assert not Transfer.objects.filter(kind="ante").exists()


def test_a_stranger_cannot_act_at_the_table(survivor_table, seated, make_player):
    with pytest.raises(IllegalAction, match="not seated"):
        table_act(table_id=survivor_table.pk, user=make_player("zed"), action={"kind": "leave"})


def test_a_hand_is_dealt_from_a_committed_deck_and_settled(survivor_table, seated):
    ann, ben, cat = seated
    play_to_declare(survivor_table, seated)
    hand = Hand.objects.get(table=survivor_table)
    assert len(hand.commitment["leaves"]) == 52
    assert len(hand.commitment_root) == 64
    table_act(table_id=survivor_table.pk, user=ann, action={"kind": "declare", "choice": "in"})
    table_act(table_id=survivor_table.pk, user=ben, action={"kind": "declare", "choice": "in"})
    table_act(table_id=survivor_table.pk, user=cat, action={"kind": "declare", "choice": "out"})
    hand.refresh_from_db()
    assert hand.ended is not None
    assert hand.result["type"] == "hand_ended"
    rake = Transfer.objects.filter(kind="rake", table_id=survivor_table.pk)
    assert sum(t.amount for t in rake) == 9  # 3 % of a 300-cent pot
    call_command("audit_ledger")


def test_private_cards_are_recorded_private(survivor_table, seated):
    play_to_declare(survivor_table, seated)
    dealt = HandEvent.objects.filter(table=survivor_table, type="cards_dealt")
    assert sorted(event.private_to for event in dealt) == [0, 1, 2]


def test_views_show_each_player_only_their_own_cards(survivor_table, seated):
    play_to_declare(survivor_table, seated)
    survivor_table.refresh_from_db()
    for seat_number, player in enumerate(seated):
        view = table_state(table=survivor_table, user_id=player.pk)
        with_cards = [s["seat"] for s in view["table"]["seats"] if "cards" in s]
        assert with_cards == [seat_number]
        assert len(view["you"]["cards"]) == 3


def test_the_clock_mucks_a_player_who_does_not_declare(survivor_table, seated):
    ann, ben, _ = seated
    play_to_declare(survivor_table, seated)
    table_act(table_id=survivor_table.pk, user=ann, action={"kind": "declare", "choice": "in"})
    table_act(table_id=survivor_table.pk, user=ben, action={"kind": "declare", "choice": "in"})
    survivor_table.refresh_from_db()
    assert table_timeout(table_id=survivor_table.pk) is None  # not yet due
    later = survivor_table.deadline + timedelta(seconds=1)
    outcome = table_timeout(table_id=survivor_table.pk, now=later)
    assert outcome is not None
    assert "hand_ended" in outcome.events
    mucked = HandEvent.objects.filter(table=survivor_table, type="mucked").first()
    assert mucked is None or mucked.private_to in (None, 2)


def test_leaving_between_hands_cashes_out(survivor_table, seated):
    ann = seated[0]
    table_act(table_id=survivor_table.pk, user=ann, action={"kind": "leave"})
    assert bankroll_balance(user=ann) == 100_000
    seat = Seat.objects.get(user=ann)
    assert seat.left is not None
    assert seat.left <= timezone.now()
    call_command("audit_ledger")


def test_rounds_are_recorded_with_their_hands(survivor_table, seated):
    from cardroom.models import Round

    play_to_declare(survivor_table, seated)
    round_ = Round.objects.get(table=survivor_table, number=1)
    assert round_.ended is None
    assert list(round_.hands.values_list("number", flat=True)) == [1]


def test_every_chip_of_a_hand_is_recorded_against_it(survivor_table, seated):
    ann, ben, cat = seated
    advance(survivor_table)
    table_act(table_id=survivor_table.pk, user=ann, action={"kind": "ante"})
    hand = Hand.objects.get(table=survivor_table)  # opened, with its deck committed, at once
    assert (hand.dealt, len(hand.commitment_root)) == (False, 64)
    play_on = [ben, cat]
    for player in play_on:
        table_act(table_id=survivor_table.pk, user=player, action={"kind": "ante"})
    survivor_table.refresh_from_db()
    # While the hand is in play the table row says it was dealt; the Hand row, once it ends.
    assert (survivor_table.open_hand, survivor_table.open_hand_dealt) == (hand, True)
    antes = Transfer.objects.filter(kind="ante", table_id=survivor_table.pk)
    assert sorted(antes.values_list("hand_id", flat=True)) == [hand.pk] * 3


def test_a_hand_whose_antes_never_come_to_a_deal_ends_undealt(survivor_table, seated):
    ann = seated[0]
    advance(survivor_table)
    table_act(table_id=survivor_table.pk, user=ann, action={"kind": "ante"})
    advance(survivor_table)  # the others never ante: the antes go back
    hand = Hand.objects.get(table=survivor_table)
    assert hand.result == {"type": "hand_not_dealt"}
    assert hand.ended is not None
    assert bankroll_balance(user=ann) == 80_000
    call_command("audit_ledger")
