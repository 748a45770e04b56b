"""A hand's payments as the ledger recorded them and as each summary lists them, in one shape
to compare: (payer, payee, cents, kind)."""

from __future__ import annotations

from accounts.models import AccountKind, Transfer
from cardroom.models import Hand
from cardroom.tables.runtime import table_act
from tests.cardroom.driving import to_declare


def declare(table, choices: dict) -> None:
    """One stage's declare: each player's choice, at once."""
    to_declare(table)
    for player, choice in choices.items():
        table_act(table_id=table.pk, user=player, action={"kind": "declare", "choice": choice})
    table.refresh_from_db()


def ledger_payments(hand: Hand) -> list[tuple[str, str, int, str]]:
    """The hand's transfers as (payer, payee, cents, kind): a player by name, a place by its
    account's kind; a player's own money between their bankroll and their stack left out."""
    found = []
    transfers = Transfer.objects.filter(hand_id=hand.pk).select_related(
        "source__user", "target__user"
    )
    for transfer in transfers.order_by("id"):
        source, target = transfer.source, transfer.target
        own = {source.kind, target.kind} == {AccountKind.STACK, AccountKind.BANKROLL}
        if own and source.user_id == target.user_id:
            continue
        found.append((_party(source), _party(target), transfer.amount, transfer.kind))
    return found


def _party(account) -> str:
    return account.user.public_name if account.user_id else account.kind


PLACES = {"the pot": "pot", "the reserve": "reserve", "the house (rake)": "rake",
          "the house": "house", "the cashier": "cashier"}  # fmt: skip


def payer_and_payee(pay: dict) -> tuple[str, str]:
    """Who paid whom in a summary's payment, in the terms of ``ledger_payments``."""
    return PLACES.get(pay["from"], pay["from"]), PLACES.get(pay["to"], pay["to"])


def summary_payments(payments: list[dict]) -> list[tuple[str, str, int, str]]:
    """A summary's payments in the terms of ``ledger_payments``."""
    return [(*payer_and_payee(pay), pay["amount"], pay["kind"]) for pay in payments]
