"""The result banner belongs to one deal or stage and clears at the next (issue 32).

At 3-5-7 the last deal's banner stayed up into the next deal: "You won $2.91" on a stage where
only a leg was taken and no money moved, "You pay $3.00" to a player who had declared Out. A
banner now says what the stage just settled, or the deal just ended, meant for the viewer, and
names the hand and stage it belongs to.
"""

from __future__ import annotations

import random

import pytest
from django.template.loader import render_to_string

from accounts.models import Transfer
from cardroom.models import Hand
from cardroom.presentation.pages import table_page_context
from cardroom.tables.runtime import table_act, table_create
from games.deck import shuffled_deck
from tests.cardroom.presentation.payments import declare

pytestmark = pytest.mark.django_db


def banner(table, user) -> dict | None:
    table.refresh_from_db()
    return table_page_context(table=table, user=user)["result_banner"]


@pytest.fixture
def table(monkeypatch, db):
    rng = random.Random(5)
    monkeypatch.setattr(
        "cardroom.tables.runtime.shuffled_deck", lambda: shuffled_deck(rng.randrange)
    )
    return table_create(
        game="classic_guts", preset="three_five_seven", options={"ante": 100, "seats": 4},
        name="3-5-7",
    )  # fmt: skip


@pytest.fixture
def players(table, make_player):
    seated = [make_player(name) for name in ("ann", "ben", "cat")]
    for player in seated:
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    return seated


def test_a_won_pot_is_not_said_again_at_the_next_deals_leg(table, players):
    ann, ben, cat = players
    for _ in range(3):  # ann In alone three times: three legs, and the pot
        declare(table, {ann: "in", ben: "out", cat: "out"})
    assert table.state["phase"] == "pause"
    won = banner(table, ann)
    assert won is not None and won["kind"] == "won" and won["text"].startswith("You won $")
    assert won["hand"] == 1
    # The next game's first stage: ann takes a leg, and no money moves.
    declare(table, {ann: "in", ben: "out", cat: "out"})
    assert table.state["phase"] == "stage_over"
    assert banner(table, ann) is None
    assert banner(table, ben) is None


def test_a_player_out_of_a_stage_is_not_told_to_pay(table, players):
    ann, ben, cat = players
    declare(table, {ann: "out", ben: "out", cat: "out"})
    declare(table, {ann: "out", ben: "out", cat: "out"})
    declare(table, {ann: "in", ben: "in", cat: "out"})  # the last stage: one of them pays
    hand = Hand.objects.get(table=table, number=1)
    ((loser_seat, paid),) = hand.result["owed"]
    loser = next(p for p in players if table_page_context(table=table, user=p)["you"]["seat"]
                 == loser_seat)  # fmt: skip
    told = banner(table, loser)
    assert told == {"kind": "lost", "text": f"You pay ${paid // 100}.00", "hand": 1,
                    "stage": None}  # fmt: skip
    # The next deal's first stage: the loser is Out, ann In alone takes a leg.
    others = {p: "out" for p in players if p is not ann}
    declare(table, {ann: "in", **others} if loser is not ann else
            {ann: "out", ben: "in", cat: "out"})  # fmt: skip
    assert table.state["phase"] == "stage_over"
    assert banner(table, loser) is None


def test_a_stage_banner_says_what_the_stage_moved(table, players):
    ann, ben, cat = players
    declare(table, {ann: "in", ben: "in", cat: "out"})
    assert table.state["phase"] == "stage_over"
    paid = Transfer.objects.filter(kind="payment").get()
    payer, payee = paid.source.user, paid.target.user
    amount = f"${paid.amount // 100}.{paid.amount % 100:02d}"
    assert banner(table, payee) == {"kind": "won", "text": f"You won {amount}", "hand": 1,
                                    "stage": 1}  # fmt: skip
    assert banner(table, payer) == {"kind": "lost", "text": f"You pay {amount}", "hand": 1,
                                    "stage": 1}  # fmt: skip
    assert banner(table, cat) is None  # Out: nothing won, nothing owed
    html = render_to_string(
        "cardroom/partials/_status.html", table_page_context(table=table, user=payee)
    )
    assert 'data-hand="1"' in html and 'data-stage="1"' in html
    # The next stage is dealt: the banner is gone.
    declare(table, {ann: "out", ben: "out", cat: "out"})
    assert table.state["phase"] == "stage_over" and table.state["stage"] == 2
    assert banner(table, payee) is None and banner(table, payer) is None
