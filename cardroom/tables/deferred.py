"""What an owner's batch of actions carries through the runtime's steps (cardroom/tables/held.py).

The runtime settles each action in named steps (``settle_played`` in cardroom/tables/runtime.py).
At a table held in memory by its owner, the steps write nothing as they go: every row goes into
one :class:`Deferred`, written by the owner in one transaction once the whole batch is settled,
with the table row's version as the fence. A step that must read or write at once (a new hand's
commitment, a table's account opened on first use, a seat left) first calls ``sync``: the fence
takes the table row's lock, once, and the rows deferred so far are written, in the batch's
transaction. A step the owner's batch does not take at all (the table stopping, a bankroll's
balance) raises :class:`NeedsLock`; the owner then applies the same batch through the locked
path.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from django.db import connection

from accounts.models import Account, Transfer
from accounts.sql.writes import Writes
from cardroom.models import Table
from cardroom.tables.snapshots import Snapshot

__all__ = ["Deferred", "NeedsLock", "rest_transfer_statement"]


class NeedsLock(Exception):
    """The owner's batch met what only the locked path does: nothing was written."""


@dataclass(eq=False)
class Deferred:
    """The rows of an owner's batch, and what it announces once they are committed.

    ``accounts``: the table's ledger accounts by code, with their balances as of the table's
    version when the batch began; the ledger checks and updates them in memory
    (accounts/ledger.py, ``held``). ``fence``: takes the table row's lock if the table is still
    as held, else raises; ``locked``: it has. ``versions``: each applied action's snapshot and
    whether a hand ended with it (its log of hands is read after the commit). ``table_fields``:
    the table row's fields the batch changed, written once at its end. ``settling``: an action
    has begun to change the table in memory, so a failure from here on spoils the whole batch.
    """

    writes: Writes
    accounts: dict[str, Account]
    fence: Callable[[], None]
    versions: list[tuple[Snapshot, bool]] = field(default_factory=list)
    table_fields: set[str] = field(default_factory=set)
    settling: bool = False
    locked: bool = False

    def sync(self) -> None:
        """Before a step that reads or writes at once: the fence (once), then the rows
        deferred so far, in order."""
        if not self.locked:
            self.fence()
            self.locked = True
        self.writes.flush()


@cache
def _rest_transfer_sql(vendor: str) -> str:
    quote = connection.ops.quote_name
    return (
        f"UPDATE {quote(Table._meta.db_table)} SET {quote('rest_transfer')} = COALESCE(("
        f"SELECT MAX({quote('id')}) FROM {quote(Transfer._meta.db_table)} "
        f"WHERE {quote('table_id')} = %s), 0) WHERE {quote('id')} = %s"
    )


def rest_transfer_statement(table_id: int) -> tuple[str, list[Any]]:
    """The statement that gives the table row, at a point between hands, the id of its last
    ledger transfer so far (0 before any): where a void stops. Its transfers are written
    before it, in the same run of statements or earlier in the transaction."""
    return _rest_transfer_sql(connection.vendor), [table_id, table_id]
