"""Reads in the pool (``in_read_thread``, cardroom/realtime/threads.py): off the event loop's
thread, with the caller's context variables, the thread's connection kept between calls."""

from __future__ import annotations

import contextvars
import threading
import time
from collections.abc import Callable

import pytest
from django.db import connection

from cardroom.realtime.threads import in_read_thread

WHO = contextvars.ContextVar("who", default="nobody")


async def test_a_read_runs_off_the_loop_with_the_callers_context():
    WHO.set("ann")
    here = threading.get_ident()
    seen = await in_read_thread(lambda suffix: (WHO.get() + suffix, threading.get_ident()), "!")
    assert seen[0] == "ann!" and seen[1] != here


@pytest.mark.django_db(transaction=True)
async def test_a_failed_statement_leaves_the_thread_a_usable_connection():
    def broken() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT * FROM no_such_table")

    with pytest.raises(Exception, match="no_such_table"):
        await in_read_thread(broken)

    def read() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return int(cursor.fetchone()[0])

    assert [await in_read_thread(read) for _ in range(4)] == [1, 1, 1, 1]


@pytest.mark.django_db(transaction=True)
async def test_writes_and_the_clock_keep_their_connection_unchecked():
    """``in_writes_thread`` and ``tidy_connections`` (the clock's, after each sweep) leave a
    good connection as it is: Django's ``close_old_connections`` marks it for a ``SELECT 1``
    before its next statement, one more round trip for every sweep and every write."""
    from django.db import close_old_connections

    from cardroom.realtime.threads import in_writes_thread, tidy_connections

    def after(tidy: Callable[[], None]) -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        connection.close_at = time.monotonic() + 60  # kept a minute, as a server keeps it
        tidy()
        return bool(connection.health_check_done)

    assert await in_read_thread(after, tidy_connections) is True
    assert await in_read_thread(after, close_old_connections) is False
    assert await in_writes_thread(after, tidy_connections) is True
