"""Every ledger move of a sit-and-go, and the keys that name them.

An entry pays its buy-in into the tournament's prize account (``prize:n<id>``) and its fee into
the house's fee account (``fees``), in one posting of two transfers; a refund (unregistered,
or the tournament cancelled) gives both back from the same accounts; the prizes are paid from
the prize account, which the last of them leaves at zero. The idempotency keys name the
tournament and the entry (``tourney:n<id>:e<entry>:<what>``), so a move is never made twice
and the rake report can tell which tournament a fee belongs to (:func:`tournament_of_key`).
"""

from __future__ import annotations

from collections.abc import Mapping

from accounts.ledger import Posting, account_code, ledger_post
from accounts.models import Account, AccountKind, TransferKind
from cardroom.models import Entry, Tournament

__all__ = [
    "pay_entry",
    "pay_prizes",
    "prize_code",
    "refund_entry",
    "tournament_of_key",
]

FEES = account_code(kind=AccountKind.FEES)


def prize_code(tournament: Tournament) -> str:
    """The code of the tournament's prize account."""
    return account_code(kind=AccountKind.PRIZE, tournament_id=tournament.pk)


def _open_accounts(tournament: Tournament) -> None:
    """The prize account and the fee account, opened on first use (the ledger posts only
    between accounts that exist)."""
    for code, kind in ((prize_code(tournament), AccountKind.PRIZE), (FEES, AccountKind.FEES)):
        Account.objects.get_or_create(code=code, defaults={"kind": kind})


def _key(tournament: Tournament, entry: Entry, what: str) -> str:
    return f"tourney:n{tournament.pk}:e{entry.pk}:{what}"


def tournament_of_key(key: str) -> int | None:
    """The tournament a tournament transfer's idempotency key names, or None.

    >>> tournament_of_key("tourney:n12:e40:fee"), tournament_of_key("t3:v1:e0:m0")
    (12, None)
    """
    head, _, rest = key.partition(":")
    number = rest.partition(":")[0]
    if head != "tourney" or not number.startswith("n") or not number[1:].isdigit():
        return None
    return int(number[1:])


def _bankroll(entry: Entry) -> str:
    return account_code(kind=AccountKind.BANKROLL, user_id=entry.user_id)


def entry_fee(tournament: Tournament, entry: Entry) -> int:
    """The fee ``entry`` pays: the tournament's, but none for a house bot, whose money comes
    from the cashier (a fee from it would be the house paying itself, counted as income)."""
    return 0 if entry.user.is_bot else tournament.fee


def pay_entry(tournament: Tournament, entry: Entry) -> None:
    """The entry's buy-in into the prize pool and its fee to the house (none for a house
    bot: :func:`entry_fee`), both or neither (LedgerError, in words, when the bankroll cannot
    pay them)."""
    _open_accounts(tournament)
    bankroll = _bankroll(entry)
    memo = f"tournament {tournament.pk}"
    postings = [
        Posting(bankroll, prize_code(tournament), tournament.buy_in,
                TransferKind.TOURNAMENT_BUY_IN, _key(tournament, entry, "buy-in"), memo),
    ]  # fmt: skip
    if fee := entry_fee(tournament, entry):
        postings.append(
            Posting(bankroll, FEES, fee, TransferKind.TOURNAMENT_FEE,
                    _key(tournament, entry, "fee"), memo)
        )  # fmt: skip
    ledger_post(postings, actor=entry.user)


def refund_entry(tournament: Tournament, entry: Entry) -> list[Posting]:
    """The postings that give the entry's buy-in and fee back to the player's bankroll
    (``tourney_refund``); the caller posts them (a cancel posts every entry's together)."""
    bankroll = _bankroll(entry)
    memo = f"tournament {tournament.pk} refund"
    postings = [
        Posting(prize_code(tournament), bankroll, tournament.buy_in,
                TransferKind.TOURNAMENT_REFUND, _key(tournament, entry, "refund-buy-in"), memo),
    ]  # fmt: skip
    if fee := entry_fee(tournament, entry):
        postings.append(
            Posting(FEES, bankroll, fee, TransferKind.TOURNAMENT_REFUND,
                    _key(tournament, entry, "refund-fee"), memo)
        )  # fmt: skip
    return postings


def pay_prizes(tournament: Tournament, prizes: Mapping[Entry, int]) -> None:
    """Pay each entry its prize (cents, none for 0) from the prize account (``prize``)."""
    memo = f"tournament {tournament.pk} prize"
    postings = [
        Posting(prize_code(tournament), _bankroll(entry), amount, TransferKind.PRIZE,
                _key(tournament, entry, "prize"), memo)
        for entry, amount in prizes.items()
        if amount > 0
    ]  # fmt: skip
    ledger_post(postings)
