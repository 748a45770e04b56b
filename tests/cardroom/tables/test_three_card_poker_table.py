"""Three Card Poker at the table: the JSON protocol and the page socket end to end, the house
bot, and the commands (docs/rules/three-card-poker.md).

The deck is fixed (the runtime's shuffle is replaced) so every bet's result is known exactly.
Every frame each connection receives is kept and checked: the dealer's cards and other
players' cards reach nobody before the reveal. Money moves between the stacks and the house
bank; the rake ledger is untouched.
"""

from __future__ import annotations

import json
from datetime import timedelta
from functools import partial
from io import StringIO

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.ledger import account_for, house_account, rake_account
from accounts.models import Transfer
from cardroom.clock.bots import bot_decision
from cardroom.models import Seat, Table
from cardroom.realtime.auth import token_create
from cardroom.tables.runtime import table_create
from games.cards import DECK, parse_cards
from tests.cardroom.sockets import advance, make_clients
from tests.cardroom.tables.pages import Page, caught_up, shown_cards
from tests.cardroom.three_card_poker_deals import ANN, BEN, DEALER
from tests.games.three_card_poker.helpers import deck_for

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def fixed_deck(monkeypatch):
    """Deal ``hands`` to the bettors in seat order and ``dealer`` to the dealer."""

    def fix(hands: list[str], dealer: str) -> None:
        deck = parse_cards(deck_for(hands, dealer))
        monkeypatch.setattr("cardroom.tables.runtime.shuffled_deck", lambda: deck)

    return fix


@pytest.fixture
def table(db):
    # A decision that times out folds here; tests/cardroom/clock/test_time_bank.py has the bank.
    return table_create(
        game="three_card_poker", preset="standard", options={"time_bank": 0}, name="TCP"
    )


def cards_in(frame: object) -> set[str]:
    text = json.dumps(frame)
    return {str(card) for card in DECK if f'"{card}"' in text}


async def test_a_round_against_the_house_settles_every_bet_and_hides_the_dealer(table, fixed_deck):
    fixed_deck([ANN, BEN], DEALER)
    ann, ben, cat = await make_clients(table, ["ann", "ben", "cat"])
    for client in (ann, ben, cat):
        assert (await client.act(kind="sit", buy_in=10_000))["type"] == "ack"
    house_before = (await sync_to_async(house_account)()).balance
    rake_before = (await sync_to_async(rake_account)()).balance
    # The other side of the bets is this table's house account (accounts/ledger.py).
    table_house = partial(account_for, kind="house", table_id=table.pk)
    table_rake = partial(account_for, kind="rake", table_id=table.pk)
    assert (await ann.act(kind="bet", ante=100, pair_plus=50))["type"] == "ack"
    assert (await ben.act(kind="bet", ante=200))["type"] == "ack"
    await advance(table)  # Cat does not bet: at the deadline the deal goes to Ann and Ben
    await table.arefresh_from_db()
    assert table.state["phase"] == "deciding"
    assert (await ann.act(kind="play"))["type"] == "ack"
    await advance(table)  # Ben does not decide in time: a fold
    await caught_up(table, ann, ben, cat)
    for client in (ann, ben, cat):
        await client.close()

    final = ann.frames[-1]["table"]
    seats = {entry["seat"]: entry for entry in final["seats"]}
    assert final["dealer"]["cards"] == DEALER.split()
    assert final["dealer"]["qualifies"] is True
    assert seats[0]["results"] == [
        {"bet": "ante", "outcome": "won", "stake": 100, "paid": 200},
        {"bet": "play", "outcome": "won", "stake": 100, "paid": 200},
        {"bet": "pair_plus", "outcome": "won", "stake": 50, "paid": 100},
    ]
    assert seats[1]["results"] == [{"bet": "ante", "outcome": "lost", "stake": 200, "paid": 0}]
    assert (seats[0]["net"], seats[1]["net"]) == (250, -200)
    assert [seats[n]["stack"] for n in (0, 1, 2)] == [10_250, 9_800, 10_000]
    assert "results" not in seats[2]

    # Nobody saw the dealer's cards, or another player's, before the reveal.
    hands = {0: set(ANN.split()), 1: set(BEN.split())}
    for seat, client in enumerate((ann, ben, cat)):
        for frame in client.frames:
            if frame["type"] != "state" or frame["table"]["dealer"]["cards"] is not None:
                continue
            others = set().union(*(cards for owner, cards in hands.items() if owner != seat))
            assert not cards_in(frame) & (others | set(DEALER.split())), f"seat {seat} saw"

    # Money: bets to the house bank, payouts from it; the rake ledger untouched.
    house = await sync_to_async(table_house)()
    assert (house.code, house.kind, house.balance) == (f"house:t{table.pk}", "house", -50)
    assert (await sync_to_async(table_rake)()).balance == 0
    # The house's own accounts were not touched by the table.
    assert (await sync_to_async(house_account)()).balance == house_before
    assert (await sync_to_async(rake_account)()).balance == rake_before
    bets = Transfer.objects.filter(kind="bet", table_id=table.pk).order_by("id")
    assert [t.amount async for t in bets] == [100, 50, 200, 100]
    payouts = Transfer.objects.filter(kind="payout", table_id=table.pk).order_by("id")
    assert [t.amount async for t in payouts] == [200, 200, 100]
    assert await Transfer.objects.filter(kind__in=("rake", "fee"), table_id=table.pk).acount() == 0
    await sync_to_async(call_command)("audit_ledger", stdout=StringIO())


async def test_bad_frames_are_refused_and_change_nothing(table, fixed_deck):
    fixed_deck([ANN], DEALER)
    (ann,) = await make_clients(table, ["ann"])
    assert (await ann.act(kind="sit", buy_in=10_000))["type"] == "ack"
    await table.arefresh_from_db()
    version = table.version
    refused = [
        ({"kind": "bet", "ante": 50}, "the Ante at this table is from $1.00 to $100.00, not $0.50"),
        ({"kind": "bet", "ante": 20_000}, "the Ante at this table is from $1.00 to $100.00"),
        ({"kind": "bet", "ante": 0, "pair_plus": 100}, "Pair Plus alone is not allowed"),
        ({"kind": "bet", "ante": 100, "pair_plus": 10_001}, "at most $100.00, not $100.01"),
        ({"kind": "bet", "ante": "100"}, "ante must be a whole number of cents"),
        ({"kind": "bet", "ante": 5_000, "pair_plus": 1}, "cannot cover"),
        ({"kind": "play"}, "has no hand to play now"),
        ({"kind": "fold"}, "has no hand to fold now"),
        ({"kind": "deal", "deck": [str(card) for card in DECK]}, "unknown action 'deal'"),
        ({"kind": "sit", "buy_in": 10_000}, "already in seat"),
    ]
    for action, message in refused:
        answer = await ann.act(**action)
        assert answer["type"] == "error", action
        assert message in answer["message"], (action, answer)
    await table.arefresh_from_db()
    assert table.version == version
    assert (await ann.act(kind="bet", ante=100))["type"] == "ack"  # alone: bets close, a deal
    await table.arefresh_from_db()
    assert table.state["phase"] == "deciding"
    version = table.version
    for action, message in [
        ({"kind": "bet", "ante": 100}, "bets are closed"),
        ({"kind": "top_up", "amount": 100}, "top up between rounds"),
        ({"kind": "play", "amount": 50}, "the Play bet is exactly the Ante, $1.00"),
    ]:
        answer = await ann.act(**action)
        assert message in answer.get("message", ""), (action, answer)
    await table.arefresh_from_db()
    assert table.version == version
    assert (await ann.act(kind="play"))["type"] == "ack"
    await ann.close()
    await sync_to_async(call_command)("audit_ledger", stdout=StringIO())


async def test_the_page_takes_bets_in_dollars_and_shows_no_hidden_card(table, fixed_deck):
    from accounts.services import user_create

    fixed_deck([ANN, BEN], DEALER)
    user = await sync_to_async(user_create)(username="ann")
    page = Page(table.pk, await sync_to_async(token_create)(user=user))
    await page.connect()
    assert "House edge of Ante and Play, best strategy: <strong>3.3730 %</strong>" in page.frames[0]
    assert "House edge of Pair Plus: <strong>2.3167 %</strong>" in page.frames[0]
    assert "Best strategy: play queen-high (Q-6-4) or better" in page.frames[0]
    await page.post(kind="sit", buy_in="100")
    (ben,) = await make_clients(table, ["ben"])
    assert (await ben.act(kind="sit", buy_in=10_000))["type"] == "ack"
    await caught_up(table, page)
    assert 'name="ante" id="tcp-ante" hx-preserve value="1.00"' in page.frames[-1]

    await page.post(kind="bet", ante="two dollars")
    assert "not an amount" in page.frames[-1]
    await page.post(kind="bet", ante="1.00", pair_plus="0.50")
    await table.arefresh_from_db()
    assert (table.state["seats"][0]["ante"], table.state["seats"][0]["pair_plus"]) == (100, 50)
    assert (await ben.act(kind="bet", ante=100))["type"] == "ack"  # everyone bet: the deal
    await caught_up(table, page)
    assert shown_cards(page.frames[-1]) == set(ANN.split())
    assert "Play $1.00" in page.frames[-1]
    await page.post(kind="play")
    assert (await ben.act(kind="fold"))["type"] == "ack"
    await caught_up(table, page)
    hidden = set(BEN.split()) | set(DEALER.split())
    revealed_at = next(i for i, html in enumerate(page.frames) if "king-high (K-9-3)" in html)
    for html in page.frames[:revealed_at]:
        assert not shown_cards(html) & hidden
    reveal = page.frames[-1]
    assert shown_cards(reveal) >= set(DEALER.split())
    assert not shown_cards(reveal) & set(BEN.split())  # ben folded: his hand stays mucked
    assert "king-high (K-9-3)" in reveal
    assert "Ante $1.00 won (+$1.00)" in reveal
    assert "Pair Plus $0.50 won (+$0.50)" in reveal
    assert "net +$2.50" in reveal
    assert "Ante $1.00 lost (−$1.00)" in reveal
    await page.communicator.disconnect()
    await ben.close()
    await sync_to_async(call_command)("audit_ledger", stdout=StringIO())


def state_for(cards: str, legal: list[dict], seats: list[dict] | None = None) -> dict:
    """A bot's own ``state`` message, as the selectors build it (the parts a policy reads)."""
    view = {
        "game": "three-card-poker",
        "pay_tables": {"ante_bonus": [1, 4, 5], "pair_plus": [1, 4, 6, 30, 40]},
        "seats": seats or [{"seat": 0, "player": "house-bot-1", "status": "deciding"}],
        "you": {"seat": 0, "cards": cards.split(), "legal_actions": legal},
    }
    return {"type": "state", "table": view, "you": view["you"]}


def test_the_bot_plays_the_exact_best_strategy():
    decide = [{"kind": "play", "amount": 100}, {"kind": "fold"}]
    assert bot_decision("three_card_poker", state_for("Qs 6d 4c", decide)) == {"kind": "play"}
    assert bot_decision("three_card_poker", state_for("Qs 6d 3c", decide)) == {"kind": "fold"}
    bet = [{"kind": "bet", "min_ante": 100, "max_ante": 5_000, "max_pair_plus": 9_800}]
    alone = [{"seat": 0, "player": "house-bot-1", "ante": 0}]
    company = [*alone, {"seat": 1, "player": "ann", "ante": 300}]
    assert bot_decision("three_card_poker", state_for("", bet, alone)) is None
    assert bot_decision("three_card_poker", state_for("", bet, company)) == {
        "kind": "bet",
        "ante": 100,
    }
    short = [{"seat": 0, "player": "house-bot-1", "status": "short", "stack": 100}]
    leave = [{"kind": "top_up"}, {"kind": "leave"}]
    assert bot_decision("three_card_poker", state_for("", leave, short)) == {"kind": "leave"}


async def test_the_house_bot_sits_and_follows_a_players_bet(table, fixed_deck):
    from cardroom.clock.bots import bots_sweep

    await sync_to_async(Table.objects.filter(pk=table.pk).update)(bots=1)
    fixed_deck(["Qs 6d 4h", ANN], DEALER)  # the bot sits first: seat 0
    await sync_to_async(bots_sweep)()
    bot_seat = await Seat.objects.select_related("user").aget(table=table, left__isnull=True)
    assert (bot_seat.number, bot_seat.user.is_bot) == (0, True)
    await table.arefresh_from_db()
    assert table.state["seats"][0]["stack"] == 400  # twice the least stack: 2 × (Ante + Play)
    (ann,) = await make_clients(table, ["ann"])
    assert (await ann.act(kind="sit", buy_in=10_000))["type"] == "ack"
    assert (await ann.act(kind="bet", ante=300))["type"] == "ack"
    await table.arefresh_from_db()
    later = table.updated + timedelta(seconds=30)
    assert await sync_to_async(bots_sweep)(now=later) == 1  # the bot bets the least Ante
    await table.arefresh_from_db()
    assert table.state["phase"] == "deciding"
    assert table.state["seats"][0]["ante"] == 100
    assert await sync_to_async(bots_sweep)(now=table.updated + timedelta(seconds=30)) == 1
    await table.arefresh_from_db()
    assert table.state["seats"][0]["decision"] == "play"  # Q-6-4: the threshold hand plays
    await ann.close()


def test_create_table_and_seed_demo_open_three_card_poker_tables(db):
    out = StringIO()
    call_command(
        "create_table", "--game", "three_card_poker", "--min-ante", "100", "--max-ante", "10000",
        stdout=out,
    )  # fmt: skip
    table = Table.objects.get(pk=int(out.getvalue()))
    assert (table.game, table.preset, table.stakes) == ("three_card_poker", "standard", 100)
    assert table.state["config"]["max_ante"] == 10_000
    with pytest.raises(CommandError, match="unknown option 'ante'; valid options: min_ante"):
        call_command("create_table", "--game", "three_card_poker", "--ante", "5")
    call_command("seed_demo", stdout=StringIO())
    demo = Table.objects.get(game="three_card_poker", bots=1)
    assert (demo.preset, demo.stakes) == ("standard", 100)
