"""Services that write: players, the cashier, buy-ins and cash-outs (HackSoft style)."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.dispatch import Signal
from django.utils import timezone

from accounts.ledger import LedgerError, account_for, cashier_account, ledger_transfer
from accounts.models import Account, AccountKind, Transfer, TransferKind, User
from accounts.selectors import bankroll_balance, reload_offer
from games.words import Money, words

__all__ = [
    "bankroll_reload",
    "reload_requested",
    "seat_buy_in",
    "seat_cash_out",
    "user_create",
]

#: Sent inside a reload's transaction, before the cashier's rule is read, with ``user`` and
#: ``now``: a receiver that raises LedgerError refuses the reload, with its message. The
#: cardroom's exclusions refuse reloads this way (cardroom/responsible/), which accounts, below
#: the cardroom in the layers, cannot ask about itself.
reload_requested = Signal()


@transaction.atomic
def user_create(*, username: str, password: str | None = None, is_bot: bool = False) -> User:
    """A new player with a bankroll holding the play-money grant."""
    user = User.objects.create_user(username=username, password=password, is_bot=is_bot)
    grant = settings.CARDROOM_GRANT_CENTS
    if grant > 0:
        ledger_transfer(
            source=cashier_account(),
            target=account_for(kind=AccountKind.BANKROLL, user=user),
            amount=grant,
            kind=TransferKind.GRANT,
            idempotency_key=f"grant:u{user.pk}",
            memo="welcome grant",
            actor=user,
        )
    return user


@transaction.atomic
def bankroll_reload(*, user: User, request_id: str) -> Transfer:
    """Top the player's money back up to the grant, when the cashier's rule allows it.

    The rule (settings, ``reload_offer``): the bankroll and the chips on every table together
    are below a tenth of the grant, and the last reload was at least an hour ago; the reload
    brings that total to the grant. ``request_id`` comes from the form, so a double submit
    reloads once.
    """
    bankroll = account_for(kind=AccountKind.BANKROLL, user=user)
    cashier = cashier_account()
    # Lock every account the rule reads before reading any of them (the bankroll and each of
    # the player's table stacks) together with the cashier the transfer needs, in one query in
    # ascending id order. That is the ledger's own order (ledger_post locks all of a movement's
    # accounts in one such query), so this waits for a buy-in, a cash-out, a hand's postings or
    # another reload in another process, or they for it, and no cycle can form; the transfer
    # below then locks only rows already held. Buy-ins and cash-outs touch the bankroll, so its
    # lock alone would queue them; the stacks' locks also hold still what a hand moves between
    # stacks and pots, so the total read below is the total when the reload commits, whatever
    # moves around it. The cashier is locked here, in its place in the order, rather than after
    # the player's accounts by the transfer, which could take it out of order.
    # A stack created after this query (a first buy-in at a new table) is not locked, but its
    # money can only come from the bankroll, which is. On SQLite select_for_update does
    # nothing: the IMMEDIATE transaction (settings) holds the database's write lock from BEGIN.
    list(
        Account.objects.select_for_update()
        .filter(Q(pk__in=[cashier.pk, bankroll.pk]) | Q(kind=AccountKind.STACK, user=user))
        .order_by("id")
    )
    key = f"reload:u{user.pk}:{request_id}"
    earlier = Transfer.objects.filter(idempotency_key=key).first()
    if earlier is not None:
        return earlier
    reload_requested.send(sender=User, user=user, now=timezone.now())
    # Read after the locks: on PostgreSQL (READ COMMITTED) each query sees what was committed
    # before it, and the locked balances cannot change until this transaction ends.
    offer = reload_offer(user=user, now=timezone.now())
    if not offer.available:
        raise LedgerError(offer.reason)
    return ledger_transfer(
        source=cashier,
        target=bankroll,
        amount=offer.amount,
        kind=TransferKind.RELOAD,
        idempotency_key=key,
        memo="reload to the grant",
        actor=user,
    )


def seat_buy_in(
    *,
    user: User,
    table_id: int,
    amount: int,
    min_buy_in: int,
    max_buy_in: int | None,
    idempotency_key: str,
    kind: str = TransferKind.BUY_IN,
) -> Transfer:
    """Move ``amount`` from the bankroll to the player's stack at a table, within its limits.

    ``kind`` is ``top_up`` for chips added to a stack already on the table, where the minimum
    applies to the stack after the top-up rather than to the amount.
    """
    # Refusals in the rules' words (games.words): a table's socket says them in its language.
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise LedgerError(
            words("a buy-in is a whole number of cents, not {amount}", amount=repr(amount))
        )
    if amount < min_buy_in:
        raise LedgerError(
            words("the least you may sit down with here is {amount}", amount=Money(min_buy_in))
        )
    if max_buy_in is not None and amount > max_buy_in:
        raise LedgerError(
            words("the most you may sit down with here is {amount}", amount=Money(max_buy_in))
        )
    bankroll = account_for(kind=AccountKind.BANKROLL, user=user)
    if amount > bankroll.balance:
        raise LedgerError(
            words(
                # Translators: {balance} and {amount} are amounts of money.
                "your bankroll holds {balance}, less than {amount}",
                balance=Money(bankroll.balance),
                amount=Money(amount),
            )
        )
    return ledger_transfer(
        source=bankroll,
        target=account_for(kind=AccountKind.STACK, user=user, table_id=table_id),
        amount=amount,
        kind=kind,
        idempotency_key=idempotency_key,
        table_id=table_id,
        actor=user,
    )


def seat_cash_out(
    *, user: User, table_id: int, idempotency_key: str, amount: int | None = None
) -> Transfer | None:
    """Move a table stack (all of it, or ``amount``) back to the bankroll; None when empty."""
    stack = account_for(kind=AccountKind.STACK, user=user, table_id=table_id)
    stack.refresh_from_db()
    amount = stack.balance if amount is None else amount
    if amount == 0:
        return None
    return ledger_transfer(
        source=stack,
        target=account_for(kind=AccountKind.BANKROLL, user=user),
        amount=amount,
        kind=TransferKind.CASH_OUT,
        idempotency_key=idempotency_key,
        table_id=table_id,
        actor=user,
    )


def bot_fund(*, bot: User, amount: int, idempotency_key: str) -> Transfer | None:
    """A house bot draws from the cashier what its bankroll lacks of ``amount`` cents (a
    ``grant``); None when it has enough. Bots' money is the house's play money: it enters
    play from the cashier, as a player's first grant does."""
    short = amount - bankroll_balance(user=bot)
    if short <= 0:
        return None
    return ledger_transfer(
        source=cashier_account(),
        target=account_for(kind=AccountKind.BANKROLL, user=bot),
        amount=short,
        kind=TransferKind.GRANT,
        idempotency_key=idempotency_key,
        memo="house bot bankroll",
    )
