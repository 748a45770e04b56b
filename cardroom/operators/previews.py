"""What a close or a void would move, shown to the operator before it is done.

The preview is a dry run of the very change (cardroom/tables/control.py's ``table_close`` and
``hand_void``) inside a savepoint that is then rolled back: the ledger transfers it posted are
read, and nothing of it stays (the announcements to the watchers are registered on commit,
so they go with the savepoint). The preview cannot differ from what confirming does, and its
``key`` lets the confirmation check that it still would move exactly that.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.models import Account, AccountKind, Transfer
from cardroom.models import Seat
from cardroom.tables import control

__all__ = ["Move", "Preview", "account_words", "play_preview"]


@dataclass(frozen=True, slots=True)
class Move:
    """One ledger transfer the change would post (cents), with its accounts in words."""

    source: str  # account codes, as the ledger names them
    target: str
    amount: int
    kind: str
    source_words: str
    target_words: str
    kind_words: str

    @property
    def entry(self) -> tuple[str, str, int, str]:
        """The transfer as the ledger will hold it: (source, target, amount, kind)."""
        return (self.source, self.target, self.amount, self.kind)


@dataclass(frozen=True, slots=True)
class Preview:
    """What a close or void moves now; ``later`` lists the stacks a close returns only when
    the hand in play has ended (as they stand now: the hand may still change them)."""

    what: str
    moves: tuple[Move, ...]
    later: tuple[dict[str, Any], ...] = ()
    totals: tuple[dict[str, Any], ...] = field(default=())

    @property
    def key(self) -> str:
        """A fingerprint of the movements: the confirmation goes ahead only if it still holds."""
        text = repr([self.what, [move.entry for move in self.moves], list(self.later)])
        return hashlib.sha256(text.encode()).hexdigest()[:32]


class _Rollback(Exception):
    def __init__(self, moved: list[Transfer], still: list[dict[str, Any]]) -> None:
        super().__init__("dry run")
        self.moved, self.still = moved, still


def account_words(account: Account) -> str:
    """An account as an operator reads it: "ann's bankroll", "the pot", "the house rake"."""
    player = account.user.username if account.user is not None else ""
    if account.kind == AccountKind.BANKROLL:
        return _("%(player)s's bankroll") % {"player": player}
    if account.kind == AccountKind.STACK:
        return _("%(player)s's stack at the table") % {"player": player}
    if account.kind == AccountKind.POT:
        return _("the table's pot")
    if account.kind == AccountKind.RESERVE:
        return _("the table's reserve")
    return str(account.get_kind_display())


def _seated(table_id: int) -> list[dict[str, Any]]:
    """Who is still seated, with the stack they would take with them."""
    stacks = {
        account.user_id: account.balance
        for account in Account.objects.filter(kind=AccountKind.STACK, table_id=table_id)
    }
    seats = Seat.objects.filter(table_id=table_id, left__isnull=True).select_related("user")
    return [
        {"seat": seat.number, "player": seat.user.username, "stack": stacks.get(seat.user_id, 0)}
        for seat in seats.order_by("number")
    ]


def _dry_run(table_id: int, change: Any) -> tuple[list[Transfer], list[dict[str, Any]]]:
    """The transfers ``change`` posts and who is seated after it; then all of it undone."""
    try:
        with transaction.atomic():
            last = Transfer.objects.order_by("-id").values_list("id", flat=True).first() or 0
            change()
            moved = Transfer.objects.filter(id__gt=last).select_related(
                "source__user", "target__user"
            )
            raise _Rollback(list(moved.order_by("id")), _seated(table_id))
    except _Rollback as done:
        return done.moved, done.still


def _totals(transfers: list[Transfer]) -> tuple[dict[str, Any], ...]:
    """What each player gets back in all (bankroll and stack together), for a void."""
    back: dict[str, int] = {}
    for transfer in transfers:
        for account, sign in ((transfer.target, 1), (transfer.source, -1)):
            owner = account.user
            if owner is not None and account.kind in (AccountKind.STACK, AccountKind.BANKROLL):
                name = owner.username
                back[name] = back.get(name, 0) + sign * transfer.amount
    return tuple({"player": name, "amount": amount} for name, amount in sorted(back.items()))


def play_preview(*, table_id: int, what: str, reason: str) -> Preview:
    """The movements ``what`` ("close" or "void") would post now, rolled back.

    A refusal (no hand to void, a table already closing) raises as the change itself would.
    """
    if what == "void":
        transfers, still = _dry_run(
            table_id, lambda: control.hand_void(table_id=table_id, reason=reason)
        )
    elif what == "close":
        transfers, still = _dry_run(table_id, lambda: control.table_close(table_id=table_id))
    else:
        raise ValueError(f"no preview of {what!r}; previews: close, void")
    moves = [
        Move(
            source=transfer.source.code,
            target=transfer.target.code,
            amount=transfer.amount,
            kind=transfer.kind,
            source_words=account_words(transfer.source),
            target_words=account_words(transfer.target),
            kind_words=str(transfer.get_kind_display()),
        )
        for transfer in transfers
    ]
    # A close with a hand in play lets it finish: who is still seated then goes, with the
    # stack the hand leaves them (shown as it stands now).
    later = tuple(still) if what == "close" else ()
    totals = _totals(transfers) if what == "void" else ()
    return Preview(what=what, moves=tuple(moves), later=later, totals=totals)
