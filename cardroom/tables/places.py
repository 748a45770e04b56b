"""From the games package's money places to ledger accounts and transfer kinds.

A game names places (``stack:3``, ``bankroll:3``, ``pot``, ``reserve``, ``rake``, ``house``;
games/engine.py); the ledger knows accounts. A seat's places belong to the user sitting there.
"""

from __future__ import annotations

from collections.abc import Mapping

from accounts.ledger import account_code as ledger_code
from accounts.models import AccountKind, TransferKind, User

__all__ = ["account_code", "transfer_kind"]


def account_code(place: str, *, table_id: int, users: Mapping[int, User]) -> str:
    """The ledger account code of a game's place at a table (no query: the ledger opens an
    account the first time a posting names it)."""
    name, _, seat = place.partition(":")
    if name in ("stack", "bankroll"):
        user = users.get(int(seat))
        if user is None:
            raise ValueError(f"nobody sits in seat {seat} for {place!r}")
        kind = AccountKind.STACK if name == "stack" else AccountKind.BANKROLL
        return ledger_code(kind=kind, user_id=user.pk, table_id=table_id)
    if name in ("pot", "reserve", "rake", "house"):
        return ledger_code(kind=name, table_id=table_id)
    raise ValueError(f"unknown money place {place!r}")


def transfer_kind(event_type: str, source: str, target: str) -> str:
    """What a move is, for the ledger and the rake report: from its places and its event."""
    source_name = source.partition(":")[0]
    target_name = target.partition(":")[0]
    if event_type == "pot_returned" and source_name == "pot":
        return TransferKind.POT_RETURN
    if source_name == "bankroll":
        return TransferKind.TOP_UP if "top" in event_type else TransferKind.BUY_IN
    if target_name == "bankroll":
        return TransferKind.CASH_OUT
    if target_name == "rake":
        return TransferKind.FEE if "fee" in event_type else TransferKind.RAKE
    if "void" in event_type:
        return TransferKind.VOID
    if "return" in event_type or "refund" in event_type:
        return TransferKind.REFUND
    if target_name == "house":
        return TransferKind.BET
    if source_name == "house":
        return TransferKind.PAYOUT
    if "reserve" in (source_name, target_name):
        return TransferKind.RESERVE
    if target_name == "pot":
        return TransferKind.ANTE if "ante" in event_type else TransferKind.MATCH
    if source_name == "pot":
        return TransferKind.POT_WIN
    return TransferKind.PAYMENT
