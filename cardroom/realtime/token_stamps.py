"""Tokens' ``last_used`` stamps, written together a moment after the handshakes that owe them.

A token's ``last_used`` is written at most once a minute (cardroom/realtime/auth.py), so a bot
that reconnects costs nothing. But when a room opens, every socket's token may owe its stamp,
and each was a write of its own: on SQLite a turn of the one thread that applies the players'
actions, 150 of them among the sits of the 30-table benchmark's opening. A process now collects
the stamps its handshakes owe and writes them ``STAMP_DELAY_SECONDS`` later in one UPDATE.

A stamp tells the account page when a token was last used; it is not a record of play. One owed
by a process that stops within that second is not written, and the next login stamps it.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from datetime import datetime

from cardroom.models import ApiToken
from cardroom.realtime.threads import in_writes_thread

__all__ = ["STAMP_DELAY_SECONDS", "stamp_soon", "tokens_stamp"]

log = logging.getLogger(__name__)

#: How long a process collects owed stamps before it writes them.
STAMP_DELAY_SECONDS = 1.0

#: Per event loop, the stamps owed: token id -> when it was used.
_owed: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, datetime]] = (
    weakref.WeakKeyDictionary()
)
#: Writes under way (held, so that none is collected before it runs).
_writing: set[asyncio.Task[None]] = set()


def stamp_soon(token_id: int, used: datetime) -> None:
    """Owe ``token_id`` a stamp of ``used``, written with the others owed on this loop."""
    loop = asyncio.get_running_loop()
    owed = _owed.get(loop)
    if owed is None:
        owed = _owed[loop] = {}
        task = loop.create_task(_write_later(loop))
        _writing.add(task)
        task.add_done_callback(_writing.discard)
    owed[token_id] = used


async def _write_later(loop: asyncio.AbstractEventLoop) -> None:
    await asyncio.sleep(STAMP_DELAY_SECONDS)
    owed = _owed.pop(loop, {})  # stamps owed from now on start the next write
    if not owed:
        return
    try:
        # A write: on SQLite in the one thread writes keep to (cardroom/realtime/threads.py).
        await in_writes_thread(tokens_stamp, owed)
    except Exception:  # a stamp is no record: logged, and owed again at the next login
        log.exception("could not stamp %d tokens' last use", len(owed))


def tokens_stamp(owed: dict[int, datetime]) -> None:
    """Stamp the tokens in one statement, with the latest of their moments: they are at most
    ``STAMP_DELAY_SECONDS`` apart, far less than the minute a stamp stands for."""
    ApiToken.objects.filter(pk__in=sorted(owed)).update(last_used=max(owed.values()))
