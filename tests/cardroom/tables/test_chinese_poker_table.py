"""Chinese Poker at the table: the JSON protocol and the page socket end to end, the house bots,
and the commands (docs/rules/chinese-poker.md).

The deck is fixed (the runtime's shuffle is replaced) so every payment is known exactly. Every
frame each connection receives is kept and checked: nobody sees another player's cards or
unsubmitted rows before the reveal, and a surrendered hand is never shown.
"""

from __future__ import annotations

import json
from datetime import timedelta
from io import StringIO

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command

from accounts.models import Transfer
from cardroom.models import Hand, Seat, Table
from cardroom.realtime.auth import token_create
from cardroom.tables.runtime import table_create
from games.cards import DECK, parse_cards
from games.chinese_poker import best_arrangement
from tests.cardroom.chinese_poker_deals import ANN, BEN, CAT, ROWS, cp_deck, hand_of
from tests.cardroom.sockets import Client, advance, make_clients
from tests.cardroom.tables.pages import Page, caught_up, shown_cards

pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture
def fixed_deck(monkeypatch):
    """Deal the given hands instead of a shuffled deck: ``fixed_deck(order, hands)``."""

    def fix(order: list[int], hands: dict[int, str]) -> None:
        deck = cp_deck(order, hands)
        monkeypatch.setattr("cardroom.tables.runtime.shuffled_deck", lambda: deck)

    return fix


@pytest.fixture
def table(db):
    # The timeout's own policy is tested here; tests/cardroom/clock/test_time_bank.py has the bank.
    return table_create(
        game="chinese_poker",
        preset="unit-1",
        options={"pause_seconds": 1, "time_bank": 0},
        name="CP $1",
    )


def cards_in(frame: object) -> set[str]:
    text = json.dumps(frame)
    return {str(card) for card in DECK if f'"{card}"' in text}


async def deal(table: Table, clients: list[Client]) -> None:
    for client in clients:
        assert (await client.act(kind="sit", buy_in=10_000))["type"] == "ack"
    await advance(table)  # the pause before the first hand: then the deal
    await caught_up(table, *clients)


async def test_three_players_set_their_hands_and_only_the_reveal_shows_them(table, fixed_deck):
    fixed_deck([1, 2, 0], {0: hand_of(ANN), 1: hand_of(BEN), 2: CAT})
    ann, ben, cat, dan = await make_clients(table, ["ann", "ben", "cat", "dan"])
    await deal(table, [ann, ben, cat])
    await table.arefresh_from_db()
    assert table.state["phase"] == "setting"
    assert sorted(ann.frames[-1]["you"]["cards"]) == sorted(hand_of(ANN).split())

    # Ann's rows are set but not submitted: the others see only that she is still setting.
    assert (await ann.act(kind="set", **ANN))["type"] == "ack"
    assert (await ann.act(kind="submit"))["type"] == "ack"
    assert (await ben.act(kind="set", submit=True, **BEN))["type"] == "ack"
    await advance(table)  # Cat's time runs out: the solver sets her hand
    await caught_up(table, ann, ben, cat, dan)
    for client in (ann, ben, cat, dan):
        await client.close()

    final = ann.frames[-1]["table"]
    seats = {entry["seat"]: entry for entry in final["seats"]}
    best = best_arrangement(parse_cards(CAT))
    assert seats[2]["rows"] == {
        name: [str(card) for card in row] for name, row in zip(ROWS, best.rows, strict=True)
    }
    assert [seats[n]["result"] for n in (0, 1, 2)] == ["foul", "regular", "regular"]
    result = final["result"]
    assert [(p["seats"], p["total"], p["reason"]) for p in result["pairs"]] == [
        ([0, 1], -7, "foul"),
        ([0, 2], -3, "foul"),
        ([1, 2], 6, "rows"),
    ]
    assert result["pairs"][2]["rows"] == [1, 1, 4]
    assert result["payments"] == [
        {"from": 0, "to": 1, "amount": 700},
        {"from": 0, "to": 2, "amount": 300},
        {"from": 2, "to": 1, "amount": 600},
    ]
    assert result["units"] == {"0": -10, "1": 13, "2": -3}
    assert [seats[n]["stack"] for n in (0, 1, 2)] == [8_980, 11_280, 9_680]

    # Hidden information: before the reveal nobody saw another's cards or rows.
    hands = {0: set(hand_of(ANN).split()), 1: set(hand_of(BEN).split()), 2: set(CAT.split())}
    for seat, client in enumerate((ann, ben, cat, dan)):
        for frame in client.frames:
            if frame["type"] != "state" or frame["table"]["phase"] != "setting":
                continue
            others = set().union(*(cards for owner, cards in hands.items() if owner != seat))
            assert not cards_in(frame) & others, f"seat {seat} saw another's card"
            for entry in frame["table"]["seats"]:
                if entry["seat"] != seat:
                    assert "rows" not in entry and "cards" not in entry
    assert cards_in(dan.frames[-1]) == set().union(*hands.values())  # the reveal is public

    # Money: three hand fees to the rake, the payments between stacks, the ledger balanced.
    fees = Transfer.objects.filter(kind="fee", table_id=table.pk)
    assert [t.amount async for t in fees] == [20, 20, 20]
    payments = Transfer.objects.filter(kind="payment", table_id=table.pk).order_by("id")
    assert [t.amount async for t in payments] == [700, 300, 600]
    assert await Transfer.objects.filter(kind__in=("rake", "bet", "payout")).acount() == 0
    hand = await Hand.objects.aget(table=table, number=1)
    assert hand.ended is not None
    await sync_to_async(call_command)("audit_ledger", stdout=StringIO())


async def test_a_surrendered_hand_is_never_shown_and_the_solver_answers_only_its_owner(
    table, fixed_deck
):
    fixed_deck([1, 0], {0: hand_of(ANN), 1: hand_of(BEN)})
    ann, ben = await make_clients(table, ["ann", "ben"])
    await deal(table, [ann, ben])
    await table.arefresh_from_db()
    version = table.version

    ben.next_id += 1
    await ben.send({"type": "action", "id": "ask", "action": {"kind": "suggest"}})
    answer = await ben.receive()
    best = best_arrangement(parse_cards(hand_of(BEN)))
    assert answer == {
        "type": "suggestion",
        "id": "ask",
        "hand": 1,
        "natural": None,
        **{name: [str(card) for card in row] for name, row in zip(ROWS, best.rows, strict=True)},
    }
    await table.arefresh_from_db()
    assert table.version == version  # a suggestion is a read: nothing changed

    assert (await ann.act(kind="surrender"))["type"] == "ack"
    rows = {name: answer[name] for name in ROWS}
    assert (await ben.act(kind="set", submit=True, **rows))["type"] == "ack"
    await caught_up(table, ann, ben)
    for client in (ann, ben):
        await client.close()

    assert not cards_in(ben.frames) & set(hand_of(ANN).split())  # not even after the reveal
    for frame in ann.frames:
        if frame["type"] == "state" and frame["table"]["phase"] == "setting":
            assert not cards_in(frame) & set(hand_of(BEN).split())
    assert cards_in(ann.frames[-1]) >= set(hand_of(BEN).split())  # Ben's hand was shown
    result = ben.frames[-1]["table"]["result"]
    assert result["pairs"] == [{"seats": [0, 1], "rows": None, "total": -3, "reason": "surrender"}]
    assert result["payments"] == [{"from": 0, "to": 1, "amount": 300}]
    assert "rows" not in ben.frames[-1]["table"]["seats"][0]
    await sync_to_async(call_command)("audit_ledger", stdout=StringIO())


async def test_bad_frames_are_refused_and_change_nothing(table, fixed_deck):
    fixed_deck([1, 0], {0: hand_of(ANN), 1: hand_of(BEN)})
    ann, ben, dan = await make_clients(table, ["ann", "ben", "dan"])
    await deal(table, [ann, ben])
    await table.arefresh_from_db()
    version = table.version
    refused = [
        ({"kind": "set", **ANN, "front": "As Ah"}, "front row needs 3 cards, not 2"),
        ({"kind": "set", **ANN, "front": "As Ah Qd"}, "exactly your 13 cards"),
        ({"kind": "set", **ANN, "back": 5}, "back row is missing"),
        ({"kind": "set", **ANN, "middle": "3d 4d 5c 7d 1x"}, "middle row"),
        ({"kind": "submit"}, "set your front, middle and back before submitting"),
        ({"kind": "declare_natural", "natural": "rainbow"}, "unknown natural 'rainbow'"),
        ({"kind": "timeout"}, "unknown action 'timeout'"),
        ({"kind": "deal", "deck": [str(card) for card in DECK]}, "unknown action 'deal'"),
        ({"kind": "sit", "buy_in": 10_000}, "already in seat"),
        ({"kind": "top_up", "amount": 500}, "top up between hands"),
    ]
    for action, message in refused:
        answer = await ann.act(**action)
        assert answer["type"] == "error", action
        assert answer["code"] == "refused"
        assert message in answer["message"], (action, answer)
    answer = await dan.act(kind="suggest")
    assert (answer["code"], answer["message"]) == ("refused", "you have no hand being set")
    await table.arefresh_from_db()
    assert table.version == version
    assert (await ann.act(kind="surrender"))["type"] == "ack"
    answer = await ann.act(kind="set", **ANN)
    assert answer["type"] == "error"
    assert "already surrendered" in answer["message"]
    for client in (ann, ben, dan):
        await client.close()
    await sync_to_async(call_command)("audit_ledger", stdout=StringIO())


async def test_the_page_board_sets_rows_asks_the_solver_and_shows_no_hidden_card(table, fixed_deck):
    from accounts.services import user_create

    fixed_deck([1, 0], {0: hand_of(ANN), 1: hand_of(BEN)})
    user = await sync_to_async(user_create)(username="ann")
    page = Page(table.pk, await sync_to_async(token_create)(user=user))
    await page.connect()
    await page.post(kind="sit", buy_in="100")  # dollars, as the page's form sends them
    (ben,) = await make_clients(table, ["ben"])
    assert (await ben.act(kind="sit", buy_in=10_000))["type"] == "ack"
    await advance(table)
    await caught_up(table, page)
    board = page.frames[-1]
    assert 'id="cp-board"' in board
    assert shown_cards(board) == set(hand_of(ANN).split())
    assert "Cards sorted by rank" in board

    await page.post(kind="set", **ANN)  # card lists travel as space-separated text
    await caught_up(table, page)  # under load the push may lag behind a drain's silence
    await table.arefresh_from_db()
    entry = next(e for e in table.state["entries"] if e["seat"] == 0)
    assert entry["status"] == "setting"
    assert [str(DECK[i]) for i in entry["front"]] == ANN["front"].split()
    board = page.frames[-1]
    assert "pair of aces" in board
    assert "Foul: the back must be at least as strong" in board

    await page.post(kind="suggest")
    # The solver may take longer than a drain waits, and a push may come first: wait for it.
    suggestion = page.frames[-1]
    for _ in range(10):
        if suggestion.strip().startswith('<div id="cp-suggestion"'):
            break
        suggestion = await page.receive(timeout=5)
    assert "The solver suggests" in suggestion
    assert shown_cards(suggestion) == set(hand_of(ANN).split())

    await page.post(kind="submit")
    await table.arefresh_from_db()
    entry = next(e for e in table.state["entries"] if e["seat"] == 0)
    assert entry["status"] == "submitted"
    before_reveal = list(page.frames)
    assert (await ben.act(kind="set", submit=True, **BEN))["type"] == "ack"
    await caught_up(table, page)
    for html in before_reveal:
        assert not shown_cards(html) & set(hand_of(BEN).split())
    reveal = page.frames[-1]
    assert "Hand #1" in reveal
    assert shown_cards(reveal) >= set(hand_of(BEN).split())
    assert "ann pays ben $7.00" in reveal
    assert "four kings" in reveal
    await page.communicator.disconnect()
    await ben.close()


async def test_house_bots_sit_and_set_their_hands_with_the_solver(db, fixed_deck):
    from cardroom.clock.bots import bots_sweep

    fixed_deck([1, 0], {0: hand_of(ANN), 1: hand_of(BEN)})
    table = await sync_to_async(table_create)(
        game="chinese_poker", preset="unit-1", options={"pause_seconds": 1}, name="Bots", bots=2
    )
    later = lambda: table.updated + timedelta(seconds=30)  # noqa: E731  (past any think time)
    await sync_to_async(bots_sweep)()
    seats = [s async for s in Seat.objects.filter(table=table, left__isnull=True)]
    assert len(seats) == 2
    await table.arefresh_from_db()
    assert [s["stack"] for s in table.state["seats"] if s] == [4_000, 4_000]  # 2 × 20 units
    await advance(table)
    await table.arefresh_from_db()
    assert table.state["phase"] == "setting"
    assert await sync_to_async(bots_sweep)(now=later()) == 2
    await table.arefresh_from_db()
    assert table.state["result"] is not None  # both submitted: revealed and settled
    for entry, hand in zip(table.state["entries"], (ANN, BEN), strict=True):
        best = best_arrangement(parse_cards(hand_of(hand)))
        rows = tuple(tuple(DECK[i] for i in entry[name]) for name in ROWS)
        assert rows == best.rows
        assert (entry["status"], entry["natural"]) == ("submitted", None)
    owners = [await sync_to_async(lambda s=s: s.user.is_bot)() for s in seats]
    assert owners == [True, True]
    fees = Transfer.objects.filter(kind="fee", table_id=table.pk)
    assert [t.amount async for t in fees] == [20, 20]
    await sync_to_async(call_command)("audit_ledger", stdout=StringIO())


def test_create_table_and_seed_demo_open_chinese_poker_tables(db):
    out = StringIO()
    call_command(
        "create_table", "--game", "chinese_poker", "--unit", "100", "--seats", "3", stdout=out
    )
    table = Table.objects.get(pk=int(out.getvalue()))
    assert (table.game, table.preset, table.stakes) == ("chinese_poker", "unit-1", 100)
    assert table.state["config"]["min_buy_in"] == 2_000
    assert len(table.state["seats"]) == 3
    call_command("seed_demo", stdout=StringIO())
    demo = Table.objects.get(game="chinese_poker", bots=2)
    assert (demo.preset, demo.stakes) == ("unit-1", 100)
