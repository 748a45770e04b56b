"""The one service that moves money (docs/architecture.md, "The ledger").

Every movement is a :class:`~accounts.models.Transfer`: it locks both accounts in a fixed order
(ascending id, so two transfers between the same accounts can never deadlock), refuses to take
any account but the cashier and the house bank below zero, writes the transfer and updates the
cached balances in one transaction. The same idempotency key again returns the first transfer
and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import translation

from accounts.models import OVERDRAFT_KINDS, Account, AccountKind, Transfer, TransferKind, User
from accounts.sql import bound
from accounts.sql.writes import Writes, insert_returning
from games.words import Money, Sentence, words

__all__ = [
    "LedgerError",
    "Posting",
    "account_code",
    "account_for",
    "account_open",
    "cashier_account",
    "house_account",
    "ledger_post",
    "ledger_transfer",
    "opened_with",
    "rake_account",
    "validate_amount",
]


#: The kinds as sets: Django's ``Choices.values`` builds its list (and each label) again on
#: every read, which was 1 % of a busy server's time on PostgreSQL (py-spy).
TRANSFER_KINDS = frozenset(TransferKind.values)
ACCOUNT_KINDS = frozenset(AccountKind.values)


class LedgerError(ValueError):
    """A transfer the ledger refuses; the message says what is wrong. Nothing was written."""


@dataclass(frozen=True, slots=True)
class Posting:
    """One transfer to post: the accounts by code, the amount in cents, and what it is for."""

    source: str
    target: str
    amount: int
    kind: str
    idempotency_key: str
    memo: str = ""


def validate_amount(amount: object) -> int:
    """An amount is a whole number of cents, above zero and below the ledger's ceiling."""
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise LedgerError(
            words("an amount is a whole number of cents, not {value}", value=repr(amount))
        )
    if amount <= 0:
        raise LedgerError(words("an amount must be above zero, not {amount}", amount=amount))
    ceiling = settings.CARDROOM_MAX_TRANSFER_CENTS
    if amount > ceiling:
        raise LedgerError(
            words(
                "an amount may be at most {ceiling} cents, not {amount}",
                ceiling=ceiling,
                amount=amount,
            )
        )
    return amount


def _system_account(code: str, kind: str) -> Account:
    account, _ = Account.objects.get_or_create(code=code, defaults={"kind": kind})
    return account


def cashier_account() -> Account:
    """Where play money comes from (it may go below zero)."""
    return _system_account("cashier", AccountKind.CASHIER)


def rake_account() -> Account:
    """The house's own rake account; a table's rake and hand fees land in the rake account of
    that table (``rake:t<id>``, the same kind: see ``account_code``)."""
    return _system_account("rake", AccountKind.RAKE)


def house_account() -> Account:
    """The house bank's own account; at a table the other side of every Three Card Poker bet
    is that table's house account (``house:t<id>``; any of them may go below zero)."""
    return _system_account("house", AccountKind.HOUSE)


def account_code(
    *,
    kind: str,
    user_id: int | None = None,
    table_id: int | None = None,
    tournament_id: int | None = None,
) -> str:
    """The code of the account of ``kind`` for a user and/or a table, with no query.

    The rake and the house bank have an account per table besides the house's own: every
    showdown credits the rake, and one account for all tables was one row that every table's
    showdown locked until it committed, so the tables' showdowns queued on it one by one
    (the rake report and the audit read accounts by kind, so they see all of them).

    >>> account_code(kind="stack", user_id=7, table_id=3), account_code(kind="rake")
    ('stack:t3:u7', 'rake')
    >>> account_code(kind="rake", table_id=3), account_code(kind="house", table_id=3)
    ('rake:t3', 'house:t3')

    A sit-and-go's buy-ins wait in its own prize account until its prizes are paid; its fees
    go to the house's one fee account:

    >>> account_code(kind="prize", tournament_id=5), account_code(kind="fees")
    ('prize:n5', 'fees')
    """
    if kind == AccountKind.PRIZE and tournament_id is not None and user_id is None:
        return f"prize:n{tournament_id}"
    if kind == AccountKind.FEES and tournament_id is None and user_id is None:
        return "fees"
    if kind == AccountKind.BANKROLL and user_id is not None:
        return f"bankroll:u{user_id}"
    if kind == AccountKind.STACK and user_id is not None and table_id is not None:
        return f"stack:t{table_id}:u{user_id}"
    per_table = (AccountKind.POT, AccountKind.RESERVE, AccountKind.RAKE, AccountKind.HOUSE)
    if kind in per_table and table_id is not None and user_id is None:
        return f"{kind}:t{table_id}"
    if kind in (AccountKind.CASHIER, AccountKind.RAKE, AccountKind.HOUSE):
        return str(kind)
    raise LedgerError(
        words(
            "no {kind} account for user {user} and table {table}",
            kind=repr(kind),
            user=user_id,
            table=table_id,
        )
    )


def opened_with(code: str) -> dict[str, object]:
    """What an account opened for ``code`` would hold (its kind, user and table ids);
    LedgerError for a code the ledger does not know."""
    return _account_fields(code)


def account_open(code: str) -> Account:
    """Open the account of ``code`` (it must not exist yet), in the caller's transaction."""
    account = Account(**_account_fields(code))
    insert_returning(account)
    return account


def _account_fields(code: str) -> dict[str, object]:
    """What an account opened for ``code`` holds: the inverse of :func:`account_code`."""
    kind, *parts = code.split(":")
    ids = {part[:1]: part[1:] for part in parts}
    user_id = int(ids["u"]) if ids.get("u", "").isdigit() else None
    table_id = int(ids["t"]) if ids.get("t", "").isdigit() else None
    tournament_id = int(ids["n"]) if ids.get("n", "").isdigit() else None
    if (
        kind not in ACCOUNT_KINDS
        or account_code(kind=kind, user_id=user_id, table_id=table_id, tournament_id=tournament_id)
        != code
    ):
        raise LedgerError(words("unknown account {code}", code=repr(code)))
    return {"code": code, "kind": kind, "user_id": user_id, "table_id": table_id}


def account_for(*, kind: str, user: User | None = None, table_id: int | None = None) -> Account:
    """The account of ``kind`` for a user and/or a table, created on first use."""
    if kind == AccountKind.CASHIER or (
        kind in (AccountKind.RAKE, AccountKind.HOUSE) and table_id is None
    ):
        return _system_account(kind, kind)
    code = account_code(kind=kind, user_id=user.pk if user else None, table_id=table_id)
    account, _ = Account.objects.get_or_create(
        code=code, defaults={"kind": kind, "user": user, "table_id": table_id}
    )
    return account


def ledger_transfer(
    *,
    source: Account,
    target: Account,
    amount: int,
    kind: str,
    idempotency_key: str,
    table_id: int | None = None,
    hand_id: int | None = None,
    memo: str = "",
    actor: User | None = None,
) -> Transfer:
    """Move ``amount`` cents from ``source`` to ``target``; see the module docstring."""
    return ledger_post(
        [Posting(source.code, target.code, amount, kind, idempotency_key, memo)],
        table_id=table_id,
        hand_id=hand_id,
        actor=actor,
    )[0]


def ledger_post(
    postings: Sequence[Posting],
    *,
    table_id: int | None = None,
    hand_id: int | None = None,
    actor: User | None = None,
    fresh_keys: bool = False,
    held: dict[str, Account] | None = None,
    writes: Writes | None = None,
) -> list[Transfer]:
    """Post several transfers atomically, in order: all are written or none is.

    Every account involved is locked once, in ascending id order, before anything is checked.
    A posting whose key was already used returns the earlier transfer and moves nothing; a key
    reused for a different movement is refused.

    ``fresh_keys``: the caller's keys cannot have been used (the table runtime's name a table
    version it holds locked), so the check is left to the keys' unique index, and the postings
    join the caller's transaction (an account a posting names is opened on first use). A used
    key then fails the caller's whole transaction, as it should. The transfers it returns
    carry no primary key (none is read back). Inside the caller's transaction, their
    ``source`` and ``target`` are the accounts as locked, with the balances the postings left
    them: locked until that transaction ends, they change only by what it posts after.

    ``held`` and ``writes`` (with ``fresh_keys``): the accounts are the caller's, by code, with
    their balances as it holds them, and the caller writes the transfers and the balances'
    changes with its other rows in one transaction, which fails unless those balances were
    still the accounts' (an owner holding its table in memory: cardroom/tables/held.py). The
    postings are checked against ``held`` as against locked rows, ``held`` is brought up to
    date, and the statements go into ``writes``; the accounts' CHECK that no balance goes below
    zero where it may not stands behind it.
    """
    if not postings:
        return []
    for posting in postings:
        validate_amount(posting.amount)
        if posting.kind not in TRANSFER_KINDS:
            raise LedgerError(words("unknown transfer kind {kind}", kind=repr(posting.kind)))
        if posting.source == posting.target:
            raise LedgerError(
                words(
                    "a transfer needs two different accounts, not {account}",
                    account=posting.source,
                )
            )
        if not posting.idempotency_key:
            raise LedgerError(words("every transfer needs an idempotency key"))
    codes = sorted({code for posting in postings for code in (posting.source, posting.target)})
    if held is not None and writes is not None and fresh_keys:
        return _post_held(postings, held, writes, table_id, hand_id, actor)
    if fresh_keys and transaction.get_connection().in_atomic_block:
        with transaction.atomic(savepoint=False):
            return _post_fresh(postings, codes, table_id, hand_id, actor)
    try:
        with transaction.atomic():
            return _post_locked(postings, codes, table_id, hand_id, actor)
    except IntegrityError as error:
        # Two requests raced past the key check on a database without row locks: the loser
        # finds the winner's transfers and returns them, having written nothing.
        existing = _existing(postings)
        if existing is not None:
            return existing
        raise LedgerError(
            words("the ledger refused the transfer: {error}", error=str(error))
        ) from error


def _post_fresh(
    postings: Sequence[Posting],
    codes: list[str],
    table_id: int | None,
    hand_id: int | None,
    actor: User | None,
) -> list[Transfer]:
    """The runtime's path: a lock query, the accounts a table opens, one insert, one update."""
    accounts = _locked(codes)
    missing = [code for code in codes if code not in accounts]
    # A new stack, pot or reserve (or the first rake): rows this transaction inserts are its
    # own until it commits, so they need no lock of their own.
    for code in missing:
        accounts[code] = account_open(code)
    deltas = _deltas(postings, accounts)
    transfers = [_transfer(posting, accounts, table_id, hand_id, actor) for posting in postings]
    # Hand-written statements (the ORM's bulk_create built them again on every action); the
    # runtime reads no transfer back, so their ids are not either. The transfers and the
    # balances go together: one round trip on PostgreSQL (accounts/sql/writes.py).
    writes = Writes()
    writes.insert(Transfer, transfers)
    if (update := _deltas_statement(deltas, accounts)) is not None:
        writes.add(*update)
    writes.flush()
    for code, delta in deltas.items():
        accounts[code].balance += delta
    return transfers


def _post_held(
    postings: Sequence[Posting],
    accounts: dict[str, Account],
    writes: Writes,
    table_id: int | None,
    hand_id: int | None,
    actor: User | None,
) -> list[Transfer]:
    """``_post_fresh`` against the caller's accounts: no lock, no read, nothing written here."""
    missing = [code for posting in postings for code in (posting.source, posting.target)]
    if unknown := [code for code in missing if code not in accounts]:
        raise LedgerError(words("unknown account {code}", code=repr(unknown[0])))
    deltas = _deltas(postings, accounts)
    transfers = [_transfer(posting, accounts, table_id, hand_id, actor) for posting in postings]
    writes.insert(Transfer, transfers)
    if (update := _deltas_statement(deltas, accounts)) is not None:
        writes.add(*update)
    for code, delta in deltas.items():
        accounts[code].balance += delta
    return transfers


#: What the ledger reads of an account, in the model's field order (``created`` stays
#: deferred: it is never read here).
_LOCKED_FIELDS = ("id", "code", "kind", "user_id", "table_id", "balance")


@cache
def _locked_sql(count: int, vendor: str) -> str:
    """The lock of ``count`` accounts by code, built once per count."""
    quote = connection.ops.quote_name
    sql = (
        f"SELECT {', '.join(quote(name) for name in _LOCKED_FIELDS)} "
        f"FROM {quote(Account._meta.db_table)} "
        f"WHERE {quote('code')} IN ({', '.join(['%s'] * count)}) ORDER BY {quote('id')}"
    )
    return sql + " FOR UPDATE" if connection.features.has_select_for_update else sql


def _locked(codes: list[str]) -> dict[str, Account]:
    """The accounts, locked in ascending id order. Hand-written: on the table runtime's path
    on every action, where the ORM's building of this query cost more than the database."""
    sql = _locked_sql(len(codes), connection.vendor)
    with bound.cursor() as cursor:
        cursor.execute(sql, codes)
        rows = cursor.fetchall()
    accounts = (Account.from_db(connection.alias, _LOCKED_FIELDS, row) for row in rows)
    return {account.code: account for account in accounts}


def _short(account: Account, balance: int, amount: int) -> Sentence:
    """The refusal of an overdraft, naming the account as the player whose money it is reads
    it (the message reaches them)."""
    if account.kind == AccountKind.BANKROLL:
        return words(
            "your bankroll holds {balance}, less than the {amount} asked for",
            balance=Money(balance),
            amount=Money(amount),
        )
    if account.kind == AccountKind.STACK:
        return words(
            "your stack at this table holds {balance}, less than the {amount} asked for",
            balance=Money(balance),
            amount=Money(amount),
        )
    if account.kind == AccountKind.POT:
        return words(
            "the table pot holds {balance}, less than the {amount} asked for",
            balance=Money(balance),
            amount=Money(amount),
        )
    if account.kind == AccountKind.RESERVE:
        return words(
            "the table reserve holds {balance}, less than the {amount} asked for",
            balance=Money(balance),
            amount=Money(amount),
        )
    if account.kind == AccountKind.RAKE:
        return words(
            "the house rake holds {balance}, less than the {amount} asked for",
            balance=Money(balance),
            amount=Money(amount),
        )
    with translation.override(None):  # the kind's English label, whatever the language
        label = str(account.get_kind_display()).lower()
    return words(
        # Translators: {account} is the kind of account, such as "house bank"
        "the {account} holds {balance}, less than the {amount} asked for",
        account=label,
        balance=Money(balance),
        amount=Money(amount),
    )


def _deltas(postings: Sequence[Posting], accounts: dict[str, Account]) -> dict[str, int]:
    """Each account's change, refusing any that would overdraw an account that may not."""
    balances = {code: account.balance for code, account in accounts.items()}
    deltas: dict[str, int] = {}
    for posting in postings:
        source = accounts[posting.source]
        if source.kind not in OVERDRAFT_KINDS and balances[posting.source] < posting.amount:
            raise LedgerError(_short(source, balances[posting.source], posting.amount))
        balances[posting.source] -= posting.amount
        balances[posting.target] += posting.amount
        deltas[posting.source] = deltas.get(posting.source, 0) - posting.amount
        deltas[posting.target] = deltas.get(posting.target, 0) + posting.amount
    return deltas


def _transfer(
    posting: Posting,
    accounts: dict[str, Account],
    table_id: int | None,
    hand_id: int | None,
    actor: User | None,
) -> Transfer:
    return Transfer(
        source=accounts[posting.source],
        target=accounts[posting.target],
        amount=posting.amount,
        kind=posting.kind,
        table_id=table_id,
        hand_id=hand_id,
        memo=posting.memo[:200],
        actor=actor,
        idempotency_key=posting.idempotency_key,
    )


def _apply_deltas(deltas: dict[str, int], accounts: dict[str, Account]) -> None:
    """Every changed balance in one statement (relative, so the cached balance can't drift)."""
    if (update := _deltas_statement(deltas, accounts)) is not None:
        with connection.cursor() as cursor:
            cursor.execute(*update)


def _deltas_statement(
    deltas: dict[str, int], accounts: dict[str, Account]
) -> tuple[str, list[int]] | None:
    """The update of ``_apply_deltas`` and its values (None when no balance changes)."""
    changed = {accounts[code].pk: delta for code, delta in deltas.items() if delta}
    if not changed:
        return None
    # Hand-written for the same reason as ``_locked``; CAST keeps PostgreSQL's CASE bigint.
    quote = connection.ops.quote_name
    ids = list(changed)
    cases = " ".join("WHEN %s THEN CAST(%s AS BIGINT)" for _ in ids)
    sql = (
        f"UPDATE {quote(Account._meta.db_table)} "
        f"SET {quote('balance')} = {quote('balance')} + CASE {quote('id')} {cases} END "
        f"WHERE {quote('id')} IN ({', '.join(['%s'] * len(ids))})"
    )
    params = [value for pk in ids for value in (pk, changed[pk])] + ids
    return sql, params


def _existing(postings: Sequence[Posting]) -> list[Transfer] | None:
    keys = [posting.idempotency_key for posting in postings]
    found = {t.idempotency_key: t for t in Transfer.objects.filter(idempotency_key__in=keys)}
    if len(found) != len(keys):
        return None
    for posting in postings:
        _check_same(found[posting.idempotency_key], posting)
    return [found[key] for key in keys]


def _check_same(transfer: Transfer, posting: Posting) -> None:
    same = (
        transfer.source.code == posting.source
        and transfer.target.code == posting.target
        and transfer.amount == posting.amount
        and transfer.kind == posting.kind
    )
    if not same:
        raise LedgerError(
            words(
                "idempotency key {key} was already used for another transfer",
                key=repr(posting.idempotency_key),
            )
        )


def _post_locked(
    postings: Sequence[Posting],
    codes: list[str],
    table_id: int | None,
    hand_id: int | None,
    actor: User | None,
) -> list[Transfer]:
    accounts = _locked(codes)
    missing = [code for code in codes if code not in accounts]
    if missing:
        raise LedgerError(words("unknown account {code}", code=repr(missing[0])))
    keys = [posting.idempotency_key for posting in postings]
    # Checked after the locks: a concurrent request with the same key has committed by now.
    earlier = {
        t.idempotency_key: t
        for t in Transfer.objects.select_related("source", "target").filter(
            idempotency_key__in=keys
        )
    }
    fresh = [posting for posting in postings if posting.idempotency_key not in earlier]
    for posting in postings:
        if posting.idempotency_key in earlier:
            _check_same(earlier[posting.idempotency_key], posting)
    deltas = _deltas(fresh, accounts)
    written = iter(
        Transfer.objects.bulk_create(
            _transfer(posting, accounts, table_id, hand_id, actor) for posting in fresh
        )
    )
    results = [
        earlier[posting.idempotency_key] if posting.idempotency_key in earlier else next(written)
        for posting in postings
    ]
    _apply_deltas(deltas, accounts)
    return results
