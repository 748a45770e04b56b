"""A table that stops with money in the middle: no new ante call or deal once a close is asked,
and a carried pot goes back to those who paid into it, in the shares they paid."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.utils import timezone

from accounts.models import Account, AccountKind, Transfer, TransferKind
from accounts.selectors import bankroll_balance
from cardroom.models import Hand, HandEvent, Seat, TableStatus
from cardroom.responsible.usage import usage_of
from cardroom.tables.control import hand_void, table_close, table_pause
from cardroom.tables.pot_payers import pot_payers, shares_of
from cardroom.tables.runtime import table_act, table_create
from tests.cardroom.driving import play_to_declare, run_clock, to_declare

pytestmark = pytest.mark.django_db

GRANT = 100_000  # each persona's play-money grant, in cents


def act(table, player, kind: str, **fields) -> None:
    table_act(table_id=table.pk, user=player, action={"kind": kind, **fields})


def everyone_out(table, players) -> None:
    for player in players:
        act(table, player, "declare", choice="out")


def returned(table) -> dict[str, int]:
    """What each player got back of a pot, by name, from the ledger."""
    got: dict[str, int] = {}
    for transfer in Transfer.objects.filter(table_id=table.pk, kind=TransferKind.POT_RETURN):
        user = transfer.target.user
        got[user.username] = got.get(user.username, 0) + transfer.amount
    return got


def pot_balance(table) -> int:
    pots = Account.objects.filter(
        table_id=table.pk, kind__in=(AccountKind.POT, AccountKind.RESERVE)
    )
    return sum(account.balance for account in pots)


def assert_whole(table, players) -> None:
    """Everyone is stood up with every cent back: no rake was taken, no pot was won."""
    table.refresh_from_db()
    assert table.status == TableStatus.CLOSED
    assert not Seat.objects.filter(table=table, left__isnull=True).exists()
    assert pot_balance(table) == 0
    for player in players:
        assert bankroll_balance(user=player) == GRANT, player.username
    call_command("audit_ledger")


def test_a_close_after_a_carried_pot_gives_it_back_and_calls_no_ante(survivor_table, seated):
    play_to_declare(survivor_table, seated)
    table_close(table_id=survivor_table.pk)
    everyone_out(survivor_table, seated)  # nobody In: the $3.00 pot would carry
    assert not HandEvent.objects.filter(table=survivor_table, type="ante_called").exists()
    assert Hand.objects.filter(table=survivor_table, dealt=True).count() == 1
    assert returned(survivor_table) == {"ann": 100, "ben": 100, "cat": 100}
    assert_whole(survivor_table, seated)
    record = Hand.objects.filter(table=survivor_table).order_by("-number").first()
    assert record.result["type"] == "pot_returned"
    assert record.result["pot"] == 300
    assert sorted(r["player"] for r in record.result["returns"]) == ["ann", "ben", "cat"]
    # The return is in the table's history, against the hand that records it.
    event = HandEvent.objects.get(table=survivor_table, type="pot_returned")
    assert event.hand_id == record.pk
    assert set(
        Transfer.objects.filter(kind=TransferKind.POT_RETURN).values_list("hand_id", flat=True)
    ) == {record.pk}


def test_the_shares_follow_what_each_paid(survivor_table, seated):
    """A carried $3.00, then an ante call: two antes in before the close. Each gets back
    exactly what they put in, $2.00, $2.00 and $1.00."""
    ann, ben, _ = seated
    play_to_declare(survivor_table, seated)
    everyone_out(survivor_table, seated)
    run_clock(survivor_table)  # the next ante call: all three were Out, all are asked
    survivor_table.refresh_from_db()
    assert survivor_table.state["phase"] == "ante"
    act(survivor_table, ann, "ante")
    act(survivor_table, ben, "ante")
    table_close(table_id=survivor_table.pk)
    assert returned(survivor_table) == {"ann": 200, "ben": 200, "cat": 100}
    assert (
        not HandEvent.objects.filter(table=survivor_table, type="hand_started")
        .exclude(hand__number=1)
        .exists()
    )
    assert_whole(survivor_table, seated)


def test_a_payer_who_left_gets_their_share_in_their_bankroll(survivor_table, seated):
    cat = seated[2]
    play_to_declare(survivor_table, seated)
    everyone_out(survivor_table, seated)
    act(survivor_table, cat, "leave")  # between hands: her $1.00 stays in the pot
    assert bankroll_balance(user=cat) == GRANT - 100
    table_close(table_id=survivor_table.pk)
    assert returned(survivor_table) == {"ann": 100, "ben": 100, "cat": 100}
    # Through her stack at the table, as every result of hers: her limits and statistics
    # count it as money back.
    back = Transfer.objects.filter(target__user=cat).order_by("-id")[:2]
    assert [(t.kind, t.target.kind) for t in reversed(back)] == [
        (TransferKind.POT_RETURN, AccountKind.STACK),
        (TransferKind.CASH_OUT, AccountKind.BANKROLL),
    ]
    assert usage_of(user_id=cat.pk, now=timezone.now()).lost["day"] == 0
    assert_whole(survivor_table, seated)


def test_the_last_player_to_leave_takes_the_carried_pot_back_with_the_others(
    survivor_table, seated
):
    play_to_declare(survivor_table, seated)
    everyone_out(survivor_table, seated)
    for player in seated:
        act(survivor_table, player, "leave")
    survivor_table.refresh_from_db()
    assert survivor_table.status == TableStatus.OPEN
    assert survivor_table.state["pot"] == 0
    assert returned(survivor_table) == {"ann": 100, "ben": 100, "cat": 100}
    assert pot_balance(survivor_table) == 0
    for player in seated:
        assert bankroll_balance(user=player) == GRANT
    call_command("audit_ledger")


def test_a_void_on_a_closing_table_gives_back_the_pot_it_returns_to(survivor_table, seated):
    play_to_declare(survivor_table, seated)
    everyone_out(survivor_table, seated)  # $3.00 carries
    run_clock(survivor_table)
    for player in seated:
        act(survivor_table, player, "ante")  # $6.00, and a second hand is dealt
    survivor_table.refresh_from_db()
    assert survivor_table.state["phase"] == "declare"
    table_close(table_id=survivor_table.pk)
    hand_void(table_id=survivor_table.pk, reason="dealer error")
    # The void returns the antes of the voided hand; the pot it goes back to is returned too.
    assert returned(survivor_table) == {"ann": 100, "ben": 100, "cat": 100}
    assert_whole(survivor_table, seated)


def test_a_paused_table_closed_before_its_deal_deals_nothing(survivor_table, seated):
    run_clock(survivor_table)
    table_pause(table_id=survivor_table.pk)
    for player in seated:
        act(survivor_table, player, "ante")  # the call closes; the deal waits for the resume
    survivor_table.refresh_from_db()
    assert survivor_table.state["phase"] == "deal"
    table_close(table_id=survivor_table.pk)
    assert not Hand.objects.filter(table=survivor_table, dealt=True).exists()
    assert returned(survivor_table) == {"ann": 100, "ben": 100, "cat": 100}
    assert_whole(survivor_table, seated)


@pytest.fixture
def simultaneous(db):
    """A classic table whose pot carries when everyone is Out."""
    return table_create(
        game="classic_guts", preset="simultaneous", options={"ante": 100, "seats": 4},
        name="Simultaneous",
    )  # fmt: skip


def sit_three(table, make_player):
    players = [make_player(name) for name in ("ann", "ben", "cat")]
    for player in players:
        act(table, player, "sit", buy_in=20_000)
    return players


def test_a_classic_close_gives_back_the_carried_pot(simultaneous, make_player):
    players = sit_three(simultaneous, make_player)
    to_declare(simultaneous)
    table_close(table_id=simultaneous.pk)
    everyone_out(simultaneous, players)
    assert returned(simultaneous) == {"ann": 100, "ben": 100, "cat": 100}
    assert Hand.objects.filter(table=simultaneous, dealt=True).count() == 1
    assert_whole(simultaneous, players)


def test_a_three_five_seven_deal_closed_mid_stage_plays_out_and_gives_back_the_antes(
    three_five_seven, make_player
):
    """3-5-7: a close asked at the first stage lets the deal's stages play out, deals no more,
    and gives back the antes nobody won."""
    players = sit_three(three_five_seven, make_player)
    to_declare(three_five_seven)
    table_close(table_id=three_five_seven.pk)
    for _ in range(20):
        three_five_seven.refresh_from_db()
        if three_five_seven.status == TableStatus.CLOSED:
            break
        if three_five_seven.state["phase"] == "declare":
            everyone_out(three_five_seven, players)
        else:
            run_clock(three_five_seven)
    assert Hand.objects.filter(table=three_five_seven, dealt=True).count() == 1
    assert returned(three_five_seven) == {"ann": 100, "ben": 100, "cat": 100}
    assert_whole(three_five_seven, players)


def test_payers_start_afresh_once_the_pot_is_empty(survivor_table, seated):
    run_clock(survivor_table)
    for player in seated[:1]:
        act(survivor_table, player, "ante")
    run_clock(survivor_table)  # only ann anted: her ante goes back, the round does not start
    assert pot_payers(survivor_table.pk) == {}
    assert pot_balance(survivor_table) == 0


def test_shares_are_whole_cents_that_add_up_to_the_pot():
    assert shares_of(101, {1: 50, 2: 50}) == {1: 51, 2: 50}
    assert shares_of(7, {3: 1, 4: 2}) == {3: 2, 4: 5}
    shares = shares_of(1_000, {1: 3, 2: 3, 3: 3})
    assert sum(shares.values()) == 1_000 and max(shares.values()) - min(shares.values()) == 1


def test_a_three_card_poker_close_during_betting_returns_the_bets_and_deals_nothing(make_player):
    table = table_create(game="three_card_poker", preset="standard", options={}, name="TCP")
    ann, ben = make_player("ann"), make_player("ben")
    for player in (ann, ben):
        act(table, player, "sit", buy_in=20_000)
    act(table, ann, "bet", ante=500, pair_plus=100)  # ben has not bet: the betting stays open
    table.refresh_from_db()
    assert table.state["phase"] == "betting"
    table_close(table_id=table.pk)
    assert not Hand.objects.filter(table=table, dealt=True).exists()
    assert_whole(table, [ann, ben])


def test_a_chinese_poker_close_finishes_the_hand_and_deals_no_other(make_player):
    table = table_create(
        game="chinese_poker", preset="unit-1", options={"pause_seconds": 1}, name="CP"
    )
    players = [make_player(name) for name in ("ann", "ben")]
    for player in players:
        act(table, player, "sit", buy_in=20_000)
    for _ in range(4):
        table.refresh_from_db()
        if table.state["phase"] == "setting":
            break
        run_clock(table)
    assert table.state["phase"] == "setting"
    table_close(table_id=table.pk)
    for _ in range(6):
        table.refresh_from_db()
        if table.status == TableStatus.CLOSED:
            break
        run_clock(table)
    table.refresh_from_db()
    assert table.status == TableStatus.CLOSED
    assert Hand.objects.filter(table=table, dealt=True).count() == 1
    assert not Seat.objects.filter(table=table, left__isnull=True).exists()
    settled = sum(bankroll_balance(user=player) for player in players)
    fees = sum(t.amount for t in Transfer.objects.filter(table_id=table.pk, target__kind="rake"))
    assert settled + fees == 2 * GRANT  # units change hands between the players; nothing lost
    call_command("audit_ledger")
