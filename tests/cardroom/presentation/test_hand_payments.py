"""Every payment of a hand in every summary of it (issue 32): the table's log of recent hands, the
hand page and the replayer each list who paid whom and how much, over all the stages of a hand,
as the ledger recorded it, whatever the kind of the transfer.

The 3-5-7 hand here is the one of the issue: two stages each with a payment between the two
players In, then a last stage with nobody In ("the pot carries"). Its log line used to say only
what the last stage recorded: "nobody stayed In; the pot carries", the two payments missing.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from accounts.ledger import Posting, account_code, ledger_post
from accounts.models import AccountKind, TransferKind
from cardroom.history.replayer import hand_replay
from cardroom.models import Hand, Seat
from cardroom.presentation.pages import table_page_context
from cardroom.tables.hand_log import recent_hands
from cardroom.tables.runtime import table_act, table_create
from games.deck import shuffled_deck
from tests.cardroom.presentation.payments import (
    declare,
    ledger_payments,
    payer_and_payee,
    summary_payments,
)

pytestmark = pytest.mark.django_db

#: A seeded shuffle in which the two players In of stages 1 and 2 do not tie: each stage moves
#: money between them (the test checks it, so a change of the deal shows as that, not as a pass).
SEED = 32


@pytest.fixture
def staged_hand(monkeypatch, make_player):
    """A 3-5-7 hand: stages 1 and 2 played by ann and ben (each pays the other's better hand
    the pot), cat Out; stage 3 everyone Out, so the pot carries."""
    rng = random.Random(SEED)
    monkeypatch.setattr(
        "cardroom.tables.runtime.shuffled_deck", lambda: shuffled_deck(rng.randrange)
    )
    table = table_create(
        game="classic_guts", preset="three_five_seven", options={"ante": 100, "seats": 4},
        name="3-5-7",
    )  # fmt: skip
    players = [make_player(name) for name in ("ann", "ben", "cat")]
    for player in players:
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    ann, ben, cat = players
    declare(table, {ann: "in", ben: "in", cat: "out"})
    declare(table, {ann: "in", ben: "in", cat: "out"})
    declare(table, {ann: "out", ben: "out", cat: "out"})
    hand = Hand.objects.get(table=table, number=1)
    assert hand.ended is not None
    kinds = Counter(kind for *_, kind in ledger_payments(hand))
    assert kinds == {"ante": 3, "payment": 2}, kinds  # the deal this test is about
    return table, players, hand


def test_the_log_of_hands_lists_every_payment_of_every_stage(staged_hand):
    table, _, hand = staged_hand
    (row,) = recent_hands(table=table)
    assert row["number"] == hand.number
    assert summary_payments(row["payments"]) == ledger_payments(hand)
    # The keys the log's readers know are kept.
    assert {"nets", "units", "owed", "number", "root", "pot", "rake", "winners", "void",
            "summary", "summary_key"} <= set(row)  # fmt: skip


def test_the_log_says_every_payment_in_words(staged_hand):
    table, players, hand = staged_hand
    html = render_to_string(
        "cardroom/partials/_log.html", table_page_context(table=table, user=players[2])
    )
    line = " ".join(html.split("<li>")[1].split())
    assert "nobody stayed In; the pot carries" in line
    for payer, payee, cents, kind in ledger_payments(hand):
        if kind == "payment":
            assert f"{payer} pays {payee} ${cents // 100}.{cents % 100:02d}" in line, line
    assert "antes of $1.00: ann, ben, cat" in line, line


@pytest.mark.parametrize("language", ["es", "nb"])
def test_the_log_says_the_payments_in_the_readers_language(staged_hand, language):
    table, players, hand = staged_hand
    with translation.override(language):
        html = render_to_string(
            "cardroom/partials/_log.html", table_page_context(table=table, user=players[2])
        )
    line = " ".join(html.split("<li>")[1].split())
    payer, payee, *_ = next(pay for pay in ledger_payments(hand) if pay[3] == "payment")
    assert f"{payer} pays {payee}" not in line
    assert payer in line and payee in line
    assert "3,00" in line  # the amount in the language's own format


def test_the_hand_page_lists_every_payment(client, staged_hand):
    table, players, hand = staged_hand
    client.force_login(players[2])
    url = reverse("hand", args=[table.pk, hand.number])
    data = client.get(url + "?format=json").json()
    assert summary_payments(data["payments"]) == ledger_payments(hand)
    page = client.get(url).content.decode()
    section = page.split('id="payments"')[1].split("</ol>")[0]
    for payer, payee, cents, kind in ledger_payments(hand):
        if kind == "payment":
            assert f"{payer} pays {payee} ${cents // 100}.{cents % 100:02d}" in section


def refund_after(hand: Hand, seat_user, cents: int) -> None:
    """A transfer no event of the hand made (as a carried pot given back when a table closes
    is): the pot pays ``cents`` back to a player, recorded against ``hand``."""
    ledger_post(
        [
            Posting(
                source=account_code(kind=AccountKind.POT, table_id=hand.table_id),
                target=account_code(
                    kind=AccountKind.STACK, user_id=seat_user.pk, table_id=hand.table_id
                ),
                amount=cents,
                kind=TransferKind.REFUND,
                idempotency_key=f"test-refund-{hand.pk}",
            )
        ],
        table_id=hand.table_id,
        hand_id=hand.pk,
    )


def test_a_payment_no_event_made_is_in_every_summary(client, staged_hand):
    """The summaries read the ledger: a movement of a kind no event of the hand made (a carried
    pot given back) appears in each, with no case of its own."""
    table, players, hand = staged_hand
    ann = players[0]
    refund_after(hand, ann, 100)
    refund = ("the pot", "ann", 100)
    (row,) = recent_hands(table=table)
    assert ("pot", "ann", 100, "refund") in summary_payments(row["payments"])
    client.force_login(ann)
    data = client.get(reverse("hand", args=[table.pk, hand.number]) + "?format=json").json()
    assert ("pot", "ann", 100, "refund") in summary_payments(data["payments"])
    final = hand_replay(hand=hand, user_id=ann.pk).steps[-1]
    listed = [(pay["from"], pay["to"], pay["amount"]) for pay in final["payments"]]
    assert refund in listed, listed
    seat = Seat.objects.get(table=table, user=ann).number
    assert any(pay["source"] == "pot" and pay["target"] == f"stack:{seat}"
               for pay in final["payments"])  # fmt: skip


def test_the_replayer_lists_each_stages_payment(staged_hand):
    *_, hand = staged_hand
    final = hand_replay(hand=hand, user_id=None).steps[-1]
    listed = Counter()
    for pay in final["payments"]:
        listed[payer_and_payee(pay)] += pay["amount"]
    ledger = Counter()
    for payer, payee, cents, _kind in ledger_payments(hand):
        ledger[(payer, payee)] += cents
    assert listed == ledger
