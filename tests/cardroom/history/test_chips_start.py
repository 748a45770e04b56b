"""A tournament's table posts nothing to the ledger: the replayer and the exports read its
stacks as each hand began from the table's events instead (``ChipsBook``), which must agree
with the ledger wherever both exist."""

from __future__ import annotations

import pytest

from cardroom.history.export import hand_records
from cardroom.history.replayer import ChipsBook, LedgerBook, hand_start
from cardroom.models import Hand, Table
from tests.cardroom.history.hands import played

pytestmark = pytest.mark.django_db


def _as_chips_table(table: Table) -> None:
    Table.objects.filter(pk=table.pk).update(plays_for_chips=True)


@pytest.mark.parametrize(
    ("game", "preset", "options"),
    [("guts", "survivor", {"ante": 100}), ("chinese_poker", "unit-1", {})],
)
def test_the_events_give_the_ledgers_start_of_every_hand(
    monkeypatch, make_player, game, preset, options
):
    table, players, hands = played(monkeypatch, make_player, game, preset, options, hands=3)
    hands = list(Hand.objects.filter(table=table).order_by("number"))
    assert len(hands) >= 3
    by_ledger = [hand_start(hand, book=LedgerBook(table.pk))[0] for hand in hands]
    assert len({tuple(start.stacks.values()) for start in by_ledger}) > 1  # play moved chips
    exported = list(hand_records(Hand.objects.filter(table=table), viewer=players[0].pk))

    _as_chips_table(table)
    walked = ChipsBook(table.pk)  # one book for the hands in order, as an export has
    for hand, expected in zip(hands, by_ledger, strict=True):
        hand = Hand.objects.select_related("table").get(pk=hand.pk)
        alone, _ = hand_start(hand)
        shared, _ = hand_start(hand, chips=walked)
        assert alone == shared == expected, hand.number
    # The export's seats (start, end, net) are the same read either way.
    again = list(hand_records(Hand.objects.filter(table=table), viewer=players[0].pk))
    assert [record["seats"] for record in again] == [record["seats"] for record in exported]
