"""Handing each committed version of a table to whoever tells its watchers.

The runtime is below the sockets (pyproject.toml, the "contexts" contract): it never imports
them. It announces each new version here, and the sockets' layer plugs in the hook that sends it
(cardroom/realtime/broadcast.py, plugged by ``CardroomConfig.ready`` in every process that sets
Django up: the servers, ``runclock``, the management commands and the tests).

Contracts:

- ``announce_on_commit`` reads the table's group, id and version when it is called (a batch
  changes the same ``Table`` again before it commits) and hands them, with the snapshot, to the
  hook once the transaction commits: never before, and never if it is rolled back, so nobody
  sees a state that was undone. Outside a transaction Django runs the hook at once.
- ``announce_committed`` hands over a version whose transaction has committed already.
- One hook at a time: plugging another replaces it. With none plugged nothing is sent; a
  watcher that misses a version asks for it (the clients' version check).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from django.db import transaction

from cardroom.models import Table
from cardroom.tables.snapshots import Snapshot

__all__ = ["Announcement", "Hook", "announce_committed", "announce_on_commit", "plug", "plugged"]


class Announcement(NamedTuple):
    """A committed version: the Channels ``group`` of the table's watchers, the table, its
    new ``version`` and the ``snapshot`` its frames are built from (``None``: a watcher reads
    the table from the database)."""

    group: str
    table_id: int
    version: int
    snapshot: Snapshot | None


#: What the sockets' layer plugs in: it is called in the committing thread, after commit.
Hook = Callable[[Announcement], None]

_hook: Hook | None = None


def plug(hook: Hook) -> None:
    """Make ``hook`` the one that hears every committed version from now on."""
    global _hook
    _hook = hook


def plugged() -> Hook | None:
    """The hook plugged in, if any."""
    return _hook


def announce_on_commit(table: Table, snapshot: Snapshot | None = None) -> None:
    """Hand ``table``'s current version (and ``snapshot``) to the hook once the transaction
    commits; see the module's contracts."""
    announcement = Announcement(table.group_name, table.pk, table.version, snapshot)
    transaction.on_commit(lambda: _deliver(announcement))


def announce_committed(table: Table, version: int, snapshot: Snapshot | None) -> None:
    """Hand a version already committed to the hook (an owner's batch, which writes all of its
    versions at once and announces them after: cardroom/tables/held.py)."""
    _deliver(Announcement(table.group_name, table.pk, version, snapshot))


def _deliver(announcement: Announcement) -> None:
    # The hook is looked up at commit, so a version committed after a hook is plugged is sent.
    hook = _hook
    if hook is not None:
        hook(announcement)
