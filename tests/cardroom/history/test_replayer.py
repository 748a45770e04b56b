"""The replayer: a hand step by step, as each viewer may see it.

Hands of every game and several variants are played through the runtime with fixed decks (the
runtime's shuffle replaced by a seeded one), players deciding as the house bots do; for every
hand and every viewer, the last step's nets must be the hand's ledger transfers and its stacks
the ledger's balances, and the recorded result must agree. Whatever is played, no step names a
card that viewer's hand page does not (the property at the end).
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter
from typing import Any

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from accounts.models import AccountKind, Transfer
from cardroom.history.history import hand_history
from cardroom.history.replay_events import SECTIONS, event_moves
from cardroom.history.replayer import LedgerBook, hand_replay
from cardroom.models import Hand, Seat
from games.events import BaseEvent
from tests.cardroom.history.events import event_classes
from tests.cardroom.history.hands import (
    VARIANTS,
    played,
    survivor_hand,
)
from tests.cardroom.plays import CLASSIC, PROPERTY, TABLES, Play, named_cards, play_and_check

pytestmark = pytest.mark.django_db


def ledger_nets(hand: Hand) -> dict[int, int]:
    """Each player's money won or lost in the hand, by the ledger: transfers of the hand into
    and out of their table stack, leaving out sitting down and cashing out."""
    nets: Counter[int] = Counter()
    transfers = Transfer.objects.filter(hand_id=hand.pk).select_related("source", "target")
    for transfer in transfers:
        for account, other, sign in ((transfer.source, transfer.target, -1),
                                     (transfer.target, transfer.source, 1)):  # fmt: skip
            if account.kind == AccountKind.STACK and other.kind != AccountKind.BANKROLL:
                nets[account.user_id] += sign * transfer.amount
    return {user: cents for user, cents in nets.items() if cents}


def by_user(hand: Hand, per_seat: dict[int, int]) -> dict[int, int]:
    users = dict(
        Seat.objects.filter(table_id=hand.table_id).values_list("number", "user_id")
    )  # fmt: skip
    return {users[seat]: cents for seat, cents in per_seat.items() if cents}


@pytest.mark.parametrize(("game", "preset", "options"), VARIANTS, ids=[v[1] for v in VARIANTS])
def test_the_last_step_is_the_hands_ledger_and_result(
    monkeypatch, make_player, game, preset, options
):
    table, players, hands = played(monkeypatch, make_player, game, preset, options)
    users = dict(Seat.objects.filter(table=table).values_list("number", "user_id"))
    for hand in hands:
        book = LedgerBook(table.pk)
        last = Transfer.objects.filter(hand_id=hand.pk).order_by("-id").first()
        after = book.before(last.pk + 1 if last else None)
        for viewer in (None, *(player.pk for player in players)):
            replay = hand_replay(hand=hand, user_id=viewer)
            final = replay.steps[-1]
            assert final["type"] == "summary"
            assert by_user(hand, replay.net) == ledger_nets(hand), (hand.number, viewer)
            for seat in final["seats"]:
                assert seat["stack"] == after[(AccountKind.STACK, users[seat["seat"]])]
            result = hand.result or {}
            if game in ("guts", "classic_guts"):
                assert replay.rake == result["rake"]
                won = Counter()
                for step in replay.steps:
                    if step["type"] == "pot_won":
                        won[step["seat"]] += step["moves"][0]["amount"]
                assert sorted(won.items()) == sorted(tuple(pair) for pair in result["winners"])
            elif game == "chinese_poker":
                stacks = {seat["seat"]: seat["stack"] for seat in final["seats"]}
                assert {int(s): c for s, c in result["stacks"].items()} == {
                    int(s): stacks[int(s)] for s in result["stacks"]
                }
            else:
                assert {item["seat"]: item["net"] for item in result["results"]} == {
                    seat: replay.net.get(seat, 0) for seat in (i["seat"] for i in result["results"])
                }
            assert [step["index"] for step in replay.steps] == list(range(len(replay.steps)))


@pytest.fixture
def hand(monkeypatch, survivor_table, seated) -> Hand:
    return survivor_hand(monkeypatch, survivor_table, seated)


def test_the_captions_tell_the_hand_in_words_and_dollars(hand, seated):
    ann = seated[0]
    steps = hand_replay(hand=hand, user_id=ann.pk).steps
    captions = [step["caption"] for step in steps]
    assert captions[0] == "The table before hand 1"
    assert captions[1:4] == [
        "Seat 0 (ann) antes $1.00", "Seat 1 (ben) antes $1.00", "Seat 2 (cat) antes $1.00"
    ]  # fmt: skip
    assert "Hand 1 is dealt to ben, cat and ann for a pot of $3.00" in captions
    assert "Seat 0 (ann) is dealt 7d Th 5h" in captions
    assert "Seat 1 (ben) shows Qs Ah 9c (ace-high (A-Q-9))" in captions
    assert "Seat 2 (cat) mucks" in captions
    assert "The house takes $0.09 in rake" in captions
    assert "Seat 1 (ben) wins $2.91 from the pot" in captions
    assert "Seat 0 (ann) matches the pot: $3.00 into the next pot" in captions
    assert captions[-1] == "In all: ann loses $4.00; ben wins $1.91; cat loses $1.00 (rake $0.09)"
    final = {seat["player"]: seat for seat in steps[-1]["seats"]}
    assert final["ben"]["stack"] == 20_191 and final["ben"]["stack_text"] == "$201.91"
    assert final["ann"]["cards"] == ["7d", "Th", "5h"] and final["ann"]["you"]
    assert final["cat"]["cards"] == [] and final["cat"]["down"] == 0
    payments = {(pay["from"], pay["to"]): pay["amount"] for pay in steps[-1]["payments"]}
    assert payments[("the pot", "the house (rake)")] == 9
    assert payments[("the pot", "ben")] == 291
    assert payments[("ann", "the pot")] == 400  # her ante and her match


def test_each_step_is_a_whole_picture_of_the_table(hand):
    steps = hand_replay(hand=hand, user_id=None).steps
    dealt = next(step for step in steps if step["type"] == "hand_started")
    assert [seat["down"] for seat in dealt["seats"]] == [3, 3, 3]  # three backs each
    assert dealt["pots"] == [{"name": "Pot", "amount": 300, "text": "$3.00"}]
    assert {seat["player"] for seat in dealt["seats"]} == {"ann", "ben", "cat"}
    shown = next(step for step in steps if step["type"] == "hand_shown")
    assert shown["seats"][1]["cards"] == ["Qs", "Ah", "9c"] and shown["seats"][1]["acting"]
    for step in steps:
        assert {"seats", "pots", "board", "caption", "moves", "section_name"} <= set(step)
        assert step["section"] in {*SECTIONS.values(), "start", "summary"}
        assert (
            sum(seat["stack"] for seat in step["seats"])
            + sum(pot["amount"] for pot in step["pots"])
            + step["rake"]
            == 60_000
        )  # no cent appears or vanishes
    # A spectator never sees the mucked hand, nor the hands before they are shown.
    assert "7h" not in json.dumps(steps)  # cat's, mucked


def test_a_voided_hand_gives_every_chip_back(survivor_table, seated):
    from cardroom.tables.control import hand_void
    from tests.cardroom.driving import play_to_declare

    play_to_declare(survivor_table, seated)
    hand_void(table_id=survivor_table.pk, reason="a dealer's error")
    hand = Hand.objects.get(table=survivor_table, number=1)
    steps = hand_replay(hand=hand, user_id=seated[0].pk).steps
    assert steps[-2]["caption"] == (
        "The house voids the hand (a dealer's error): every chip goes back"
    )
    assert {move["to"] for move in steps[-2]["moves"]} == {"ann", "ben", "cat"}
    assert [seat["stack"] for seat in steps[-1]["seats"]] == [20_000] * 3
    assert steps[-1]["caption"] == "In all: nobody won or lost"
    assert ledger_nets(hand) == {}


def test_a_hand_in_play_is_replayed_as_far_as_it_has_gone(survivor_table, seated):
    from tests.cardroom.driving import play_to_declare

    play_to_declare(survivor_table, seated)
    hand = Hand.objects.get(table=survivor_table, number=1)
    steps = hand_replay(hand=hand, user_id=seated[0].pk).steps
    assert steps[-1]["caption"] == "So far: ann loses $1.00; ben loses $1.00; cat loses $1.00"
    mine = {seat["player"]: seat for seat in steps[-1]["seats"]}
    assert len(mine["ann"]["cards"]) == 3 and mine["ben"]["cards"] == []
    assert mine["ben"]["down"] == 3


def test_every_money_event_moves_what_its_class_says():
    """The replayer reads moves from the stored JSON; each event class's moves() is the rule."""
    # Every class that moves money (``bet_result_event`` is only the base of the bet results).
    money = [
        cls
        for cls in event_classes()
        if cls.moves is not BaseEvent.moves and cls.type != "bet_result_event"
    ]
    assert len(money) >= 25
    for cls in money:
        event = cls(**{field.name: _sample(field) for field in dataclasses.fields(cls)})
        expected = [(move.source, move.target, move.amount) for move in event.moves()]
        assert expected, cls
        assert event_moves(event.to_json()) == expected, cls


def _sample(field: dataclasses.Field[Any]) -> Any:
    kind = str(field.type)
    if field.name in ("seat", "payer", "payee", "winner", "giver"):
        return {"payer": 1, "payee": 2, "winner": 3}.get(field.name, 2)
    if kind == "bool":
        return True
    if kind == "int":
        return 150
    if "tuple[tuple[int, int]" in kind:
        return ((0, 100), (2, 50))
    if "tuple[int" in kind:
        return (1, 2)
    if "tuple" in kind:
        return ()
    return "x"


def test_the_replay_page_draws_a_step_and_embeds_the_steps(client, hand, seated):
    survivor_table = hand.table
    client.force_login(seated[0])
    url = reverse("hand-replay", args=[survivor_table.pk, 1])
    page = client.get(url).content.decode()
    assert 'id="replay-steps"' in page and "js/replayer.js" in page
    assert "The table before hand 1" in page
    assert 'aria-live="polite"' in page
    later = client.get(url + "?step=2").content.decode()
    assert "Seat 1 (ben) antes $1.00" in later.split("data-caption")[1].split("</p>")[0]
    assert 'href="?step=1"' in later and 'href="?step=3"' in later
    last = client.get(url + "?step=999").content.decode()  # past the end: the last step
    assert "In all: ann loses $4.00" in last.split("data-caption")[1].split("</p>")[0]
    assert client.get(reverse("hand-replay", args=[survivor_table.pk, 9])).status_code == 404


def test_the_replay_follows_the_hand_pages_rules(client, hand, seated, make_player):
    survivor_table = hand.table
    url = reverse("hand-replay", args=[survivor_table.pk, 1])
    assert client.get(url).status_code == 302  # log in first
    client.force_login(make_player("wat"))
    page = client.get(url).content.decode()
    for card in ("7h", "Ad", "4c"):  # cat's mucked hand
        assert f'"{card}"' not in page and f'data-card="{card}"' not in page
    client.force_login(seated[2])
    assert 'data-card="7h"' in client.get(url + "?step=8").content.decode()  # cat's own cards


def test_the_hand_page_and_the_recent_hands_link_to_the_replay(client, hand, seated):
    survivor_table = hand.table
    client.force_login(seated[0])
    replay = reverse("hand-replay", args=[survivor_table.pk, 1])
    assert replay in client.get(reverse("hand", args=[survivor_table.pk, 1])).content.decode()
    assert replay in client.get(reverse("table", args=[survivor_table.pk])).content.decode()


# Whatever is played, with players coming and going mid-hand: no step of a replay names a card
# that viewer's hand page does not, nor one the live game never showed them.


def check_replays(play: Play) -> None:
    viewers = [*(user.pk for user in (*play.players, play.watcher)), None]
    for hand in Hand.objects.filter(table=play.table):
        for viewer in viewers:
            history = hand_history(hand=hand, user_id=viewer)
            page = named_cards([e["data"] for e in history["events"]])
            page |= {opening["card"] for opening in history["openings"]}
            replay = hand_replay(hand=hand, user_id=viewer)
            # By amount, not by player: seats change hands mid-hand here, and this harness's
            # clock (the seats' ``left``) runs ahead of the real one (their ``joined``).
            nets = sorted(cents for cents in replay.net.values() if cents)
            assert nets == sorted(ledger_nets(hand).values()), (hand.number, viewer)
            steps = replay.steps
            named = named_cards(steps)
            assert named <= page, f"hand {hand.number}: user {viewer} sees {named - page}"
            assert named <= play.shown[viewer]


def play_replays(name: str, data: Any) -> None:
    play_and_check(name, data, check_replays)


@pytest.mark.parametrize("name", sorted(TABLES))
@PROPERTY
@given(data=st.data())
def test_no_replay_shows_a_card_the_hand_page_hides(name, data):
    play_replays(name, data)


@PROPERTY
@given(data=st.data(), preset=st.sampled_from(CLASSIC))
def test_no_classic_guts_replay_shows_a_card_the_hand_page_hides(data, preset):
    play_replays(preset, data)
