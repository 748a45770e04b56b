"""Whatever is played, in every game and variant, each summary of a finished hand says the money
the ledger moved in it (issue 32): the log of recent hands (its payments, in JSON and in words),
the hand page (its JSON and its words) and the replayer's list, payment by payment and player by
player. And the result banner belongs to one deal or stage: in a stage's result it says what
that stage moved for the viewer, in a pause only what the deal just ended did, else nothing.

Tables of every game, and every Classic Guts preset, are played through the runtime by random
legal actions, seat changes and the clock, each hand from a deck the example draws
(tests/cardroom/history/test_history_privacy.py).
"""

from __future__ import annotations

import html
from collections import Counter
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts.models import AccountKind, Transfer
from cardroom.history.replayer import hand_replay
from cardroom.models import Hand, Table, TableStatus
from cardroom.presentation.pages import page_context
from cardroom.presentation.payment_words import merged, payment_words
from cardroom.tables.control import table_close
from cardroom.tables.engines import engine_for
from cardroom.tables.hand_log import recent_hands
from cardroom.tables.snapshots import snapshot_from_db, state_frame
from tests.cardroom.plays import CLASSIC, PROPERTY, TABLES, Play, examples, play_and_check
from tests.cardroom.presentation.payments import (
    PLACES,
    ledger_payments,
    payer_and_payee,
    summary_payments,
)

# It plays many hands of every game and variant: marked slow (slow tests still run in CI).
pytestmark = [pytest.mark.django_db, pytest.mark.slow]

Payment = tuple[str, str, int, str]


def nets(payments: list[Payment]) -> dict[str, int]:
    """Each player's money won (positive) or paid in the hand, by name: the places (the pot,
    the house...) are named by their account's kind, players by their names."""
    found: Counter[str] = Counter()
    for payer, payee, cents, _kind in payments:
        found[payer] -= cents
        found[payee] += cents
    return {name: cents for name, cents in found.items() if cents and name not in PLACES.values()}


def ledger_nets_by_name(hand: Hand) -> dict[str, int]:
    """Each player's net in the hand straight from the ledger's stack accounts (sitting down
    and cashing out left out), by name."""
    found: Counter[str] = Counter()
    transfers = Transfer.objects.filter(hand_id=hand.pk).select_related(
        "source__user", "target__user"
    )
    for transfer in transfers:
        for account, other, sign in ((transfer.source, transfer.target, -1),
                                     (transfer.target, transfer.source, 1)):  # fmt: skip
            if account.kind == AccountKind.STACK and other.kind != AccountKind.BANKROLL:
                found[account.user.public_name] += sign * transfer.amount
    return {name: cents for name, cents in found.items() if cents}


def check_summaries(play: Play) -> None:
    """Every finished hand's summaries against its ledger transfers."""
    table = play.table
    rows = {row["number"]: row for row in recent_hands(table=table, limit=1_000)}
    snapshot = {**snapshot_from_db(table), "recent": list(rows.values())}
    context = page_context(
        snapshot=snapshot, state=state_frame(snapshot, None), bankroll_cents=0, oob=False
    )
    log = render_to_string("cardroom/partials/_log.html", context)
    lines = {
        int(item.split('class="hand-number"')[1].split("#")[1].split("<")[0]): item
        for item in log.split("<li>")[1:]
    }
    client = Client()
    client.force_login(play.watcher)
    for hand in Hand.objects.filter(table=table, ended__isnull=False).order_by("number"):
        ledger = ledger_payments(hand)
        assert nets(ledger) == ledger_nets_by_name(hand), hand.number
        row = rows[hand.number]
        # The log of recent hands: its payments as JSON, each one, and in words.
        assert summary_payments(row["payments"]) == ledger, hand.number
        line = html.unescape(" ".join(lines[hand.number].split()))
        # Each payment, those of one kind between the same two summed (as the line says them).
        for payment in merged(row["payments"]):
            if payment["source"].startswith("stack"):
                assert payment["from"] in line, (hand.number, line)
            if payment["target"].startswith("stack"):
                assert payment["to"] in line, (hand.number, line)
            assert format_amount(payment["amount"]) in line, (hand.number, line)
        # The hand page: its JSON, and each payment's sentence on the page.
        url = reverse("hand", args=[table.pk, hand.number])
        page_json = client.get(url + "?format=json").json()
        assert summary_payments(page_json["payments"]) == ledger, hand.number
        page = html.unescape(client.get(url).content.decode())
        listed = page.split('id="payments"')[1].split("</ol>")[0]
        said = [item.split("</li>")[0] for item in listed.split("<li")[1:]]
        if ledger:
            assert said == [">" + payment_words(pay) for pay in page_json["payments"]], said
        else:
            assert said == [' class="muted">No money changed hands.'], said
        # The replayer's list: who paid whom, summed by payer and payee; each seat's net.
        replay = hand_replay(hand=hand, user_id=None)
        listed_pairs: Counter[tuple[str, str]] = Counter()
        for pay in replay.steps[-1]["payments"]:
            listed_pairs[payer_and_payee(pay)] += pay["amount"]
        ledger_pairs: Counter[tuple[str, str]] = Counter()
        for payer, payee, cents, _kind in ledger:
            ledger_pairs[(payer, payee)] += cents
        assert listed_pairs == ledger_pairs, hand.number
        # By amount, not by player: seats change hands mid-hand here (test_replayer.py says why).
        replayed = sorted(cents for cents in replay.net.values() if cents)
        assert replayed == sorted(ledger_nets_by_name(hand).values()), hand.number


def format_amount(cents: int) -> str:
    return f"${cents // 100:,}.{cents % 100:02d}"


class Watched(Play):
    """A table played as ``Play`` does, with every seated player's result banner checked after
    each action: it belongs to the stage or deal on show, and says what that moved for them."""

    def __init__(self, table: Table, data: Any) -> None:
        super().__init__(table, data)
        #: The stage on show ((hand, stage) of the game) and the version that settled it.
        self.stage: tuple[Any, Any] | None = None
        self.stage_version = 0

    def step(self) -> None:
        """Now and then an operator closes the table: a pot that carried goes back, and that
        money too must be in the summaries."""
        if self.table.status == TableStatus.OPEN and not self.data.draw(
            st.integers(0, 24), label="close"
        ):
            before = self.seated()
            table_close(table_id=self.table.pk)
            self.observe(before)
            return
        super().step()

    def observe(self, before: dict[int, int]) -> None:
        super().observe(before)
        self.check_banners()

    def check_banners(self) -> None:
        table = self.table
        phase = table.state.get("phase")
        stage = (table.state.get("hand"), table.state.get("stage"))
        if phase != "stage_over":
            self.stage = None
        elif self.stage != stage:
            self.stage, self.stage_version = stage, table.version
        snapshot = snapshot_from_db(table)
        ended = Hand.objects.filter(table=table, ended__isnull=False).order_by("-number").first()
        opened = Hand.objects.filter(table=table).order_by("-number").first()
        for user in self.players:
            if not any(entry[1] == user.pk for entry in snapshot["seats"]):
                continue
            state = state_frame(snapshot, user.pk)
            context = page_context(snapshot=snapshot, state=state, bankroll_cents=0, oob=False)
            banner = context["result_banner"]
            if phase == "stage_over":
                self.check_stage_banner(user, state, banner)
            elif banner is not None:
                assert phase in ("pause", "showdown"), (phase, banner)
                # The deal just ended, and no other has begun since.
                assert ended is not None and banner["hand"] == ended.number, banner
                assert opened is not None and opened.number == ended.number, banner
                assert banner["stage"] is None, banner

    def check_stage_banner(self, user: Any, state: dict[str, Any], banner: dict | None) -> None:
        """A stage's banner: the money the stage's settling moved in or out of the viewer's
        stack, by the ledger (none: no banner); never to a player who was Out of it."""
        prefix = f"t{self.table.pk}:v{self.stage_version}:"
        net = 0
        moved = Transfer.objects.filter(idempotency_key__startswith=prefix)
        for transfer in moved.select_related("source", "target"):
            if transfer.source.user_id == user.pk and transfer.source.kind == AccountKind.STACK:
                net -= transfer.amount
            if transfer.target.user_id == user.pk and transfer.target.kind == AccountKind.STACK:
                net += transfer.amount
        if not net:
            assert banner is None, banner
            return
        assert banner is not None, net
        assert state["you"]["choice"] not in (None, "out"), (state["you"], banner)
        assert banner["stage"] == state["table"]["stage"]["number"], banner
        amount = format_amount(abs(net))
        assert banner["text"] == (f"You won {amount}" if net > 0 else f"You pay {amount}"), net


def play_summaries(name: str, data: Any) -> None:
    play_and_check(name, data, check_summaries, play_class=Watched)


#: A few examples of each table, the same on every run (test_history_privacy.py's settings).
SUMMARIES = settings(PROPERTY, max_examples=examples(20))


@pytest.mark.parametrize("name", sorted(TABLES))
@SUMMARIES
@given(data=st.data())
def test_every_summary_says_the_ledgers_money(name, data):
    play_summaries(name, data)


@pytest.mark.parametrize("preset", CLASSIC)
@settings(PROPERTY, max_examples=examples(4))
@given(data=st.data())
def test_every_classic_guts_summary_says_the_ledgers_money(preset, data):
    play_summaries(preset, data)


def test_every_variant_is_played():
    presets = set(engine_for("classic_guts").presets)
    played = set(CLASSIC) | {TABLES[name][1] for name in TABLES}
    assert presets <= played
    assert {TABLES[name][0] for name in TABLES} == {"guts", "classic_guts", "chinese_poker",
                                                    "three_card_poker"}  # fmt: skip
