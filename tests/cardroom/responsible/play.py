"""Playing at tables under a player's limits: tables, sits and actions, the clock passing a
deadline, limits asked for, and buy-ins and losses of long ago (for the limits, exclusions,
pages and races tests)."""

from __future__ import annotations

import itertools
from datetime import timedelta
from unittest import mock

from django.utils import timezone

from accounts.ledger import account_for, ledger_transfer
from accounts.models import AccountKind, Transfer, TransferKind
from accounts.services import seat_buy_in
from cardroom.models import Table
from cardroom.models.responsible import LimitChange
from cardroom.responsible.limits import limit_request
from cardroom.tables.runtime import table_act, table_create, table_timeout
from games.cards import parse_cards
from tests.games.three_card_poker.helpers import deck_for

_keys = itertools.count()


def survivor(name: str = "Survivor", **timers: float) -> Table:
    return table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6, **timers}, name=name
    )


def three_card(name: str = "TCP") -> Table:
    return table_create(game="three_card_poker", preset="standard", options={}, name=name)


def sit(user, table: Table, buy_in: int, **kwargs):
    return table_act(
        table_id=table.pk, user=user, action={"kind": "sit", "buy_in": buy_in}, **kwargs
    )


def act(user, table: Table, **action):
    return table_act(table_id=table.pk, user=user, action=action)


def advance(table: Table) -> None:
    table.refresh_from_db()
    assert table_timeout(table_id=table.pk, now=table.deadline + timedelta(seconds=0.01))


def to_declare(table: Table, players) -> None:
    advance(table)
    for player in players:
        act(player, table, kind="ante")
    table.refresh_from_db()
    assert table.state["phase"] == "declare"


def declare_all(table: Table, players) -> None:
    for player, choice in zip(players, ("in", "in", "out"), strict=False):
        act(player, table, kind="declare", choice=choice)
    table.refresh_from_db()
    assert table.state["phase"] in ("pause", "waiting")


def limit(user, name: str, value: int | None, now=None) -> LimitChange | None:
    return limit_request(user=user, limit=name, value=value, now=now or timezone.now())


def _past(ago: timedelta):
    return mock.patch("django.utils.timezone.now", return_value=timezone.now() - ago)


def past_buy_in(user, cents: int, *, ago: timedelta) -> Transfer:
    """A buy-in ``ago`` before now at a table of long ago."""
    table = survivor(f"Long ago {next(_keys)}")
    with _past(ago):
        return seat_buy_in(
            user=user, table_id=table.pk, amount=cents, min_buy_in=1, max_buy_in=None,
            idempotency_key=f"past-buy-in-{next(_keys)}",
        )  # fmt: skip


def past_loss(user, cents: int, *, ago: timedelta) -> Transfer:
    """``cents`` lost in play ``ago`` before now (bought in, then an ante into a pot)."""
    table = survivor(f"Long ago {next(_keys)}")
    with _past(ago):
        seat_buy_in(
            user=user, table_id=table.pk, amount=cents, min_buy_in=1, max_buy_in=None,
            idempotency_key=f"past-loss-in-{next(_keys)}",
        )  # fmt: skip
        return ledger_transfer(
            source=account_for(kind=AccountKind.STACK, user=user, table_id=table.pk),
            target=account_for(kind=AccountKind.POT, table_id=table.pk),
            amount=cents,
            kind=TransferKind.ANTE,
            idempotency_key=f"past-loss-{next(_keys)}",
            table_id=table.pk,
        )


def fix_deck(monkeypatch, hands: list[str], dealer: str) -> None:
    deck = parse_cards(deck_for(hands, dealer))
    monkeypatch.setattr("cardroom.tables.runtime.shuffled_deck", lambda: deck)
