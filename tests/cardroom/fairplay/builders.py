"""Seats, logins and hands with their payments, built straight in the database for the fair
play tests (the report only reads them; no game needs to be played)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from itertools import count

from accounts.ledger import Posting, account_code, account_for, ledger_post
from accounts.models import AccountKind, LoginSession, TransferKind
from cardroom.models import Hand, Seat, Table

DAY = date(2026, 3, 10)
_keys = count(1)


def at(hour: int, minute: int = 0, day: date = DAY) -> datetime:
    """A moment of ``day`` (UTC, the test settings' zone)."""
    return datetime(day.year, day.month, day.day, hour, minute, tzinfo=UTC)


def seat(table: Table, user, number: int, joined: datetime, left: datetime | None) -> Seat:
    made = Seat.objects.create(table=table, number=number, user=user, left=left)
    Seat.objects.filter(pk=made.pk).update(joined=joined)
    return made


def login(user, address: str | None, agent: str, when: datetime) -> LoginSession:
    made = LoginSession.objects.create(
        user=user, session_key=f"k{next(_keys)}", last_seen=when, ip_address=address,
        user_agent=agent,
    )  # fmt: skip
    LoginSession.objects.filter(pk=made.pk).update(created=when - timedelta(minutes=5))
    return made


def fund(table: Table, *users, cents: int = 1_000_000) -> None:
    """Give each user a stack at ``table`` (from the cashier, outside any hand)."""
    for user in users:
        stack = account_for(kind=AccountKind.STACK, user=user, table_id=table.pk)
        ledger_post(
            [Posting("cashier", stack.code, cents, TransferKind.GRANT, f"fund{next(_keys)}")],
            table_id=table.pk,
        )


def hand(table: Table, ended: datetime, paid: dict, won: dict, rake: int = 0) -> Hand:
    """A hand at ``table`` ended at ``ended``: each of ``paid`` (user → cents) bets into the
    pot, each of ``won`` is paid from it, the rest (``rake``) goes to the house."""
    number = Hand.objects.filter(table=table).count() + 1
    made = Hand.objects.create(
        table=table, number=number, commitment_root="0" * 64, commitment=[], deck={},
        ended=ended, result={},
    )  # fmt: skip
    pot = account_for(kind=AccountKind.POT, table_id=table.pk).code
    stack = lambda user: account_code(  # noqa: E731
        kind=AccountKind.STACK, user_id=user.pk, table_id=table.pk
    )
    postings = [
        Posting(stack(user), pot, cents, TransferKind.BET, f"b{next(_keys)}")
        for user, cents in paid.items()
    ]
    postings += [
        Posting(pot, stack(user), cents, TransferKind.POT_WIN, f"w{next(_keys)}")
        for user, cents in won.items()
    ]
    if rake:
        rake_code = account_for(kind=AccountKind.RAKE).code
        postings.append(Posting(pot, rake_code, rake, TransferKind.RAKE, f"r{next(_keys)}"))
    ledger_post(postings, table_id=table.pk, hand_id=made.pk)
    return made
