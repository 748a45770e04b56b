"""Reads in the pool (``in_read_thread``, cardroom/realtime/threads.py): off the event loop's
thread, with the caller's context variables, the thread's connection kept between calls."""

from __future__ import annotations

import asyncio
import contextvars
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

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
async def test_a_busy_connection_is_used_unchecked_and_an_idle_or_aged_one_is_not(monkeypatch):
    """A call in the reads' pool finds the connection the call before it left, with no
    ``SELECT 1`` owed (Channels' wrapper, through Django's ``close_old_connections``, owes one
    before every call); one idle for ``IDLE_CHECK_SECONDS`` is checked first, and one past its
    age is closed before the call."""
    from channels.db import database_sync_to_async

    from cardroom.realtime import threads

    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(1))  # one thread

    def use() -> None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        connection.close_at = time.monotonic() + 60  # kept a minute, as a server keeps it

    def on_entry() -> tuple[bool, object]:
        return bool(connection.health_check_done), connection.connection

    await in_read_thread(use)
    checked, kept = await in_read_thread(on_entry)
    assert checked is True and kept is not None
    # Channels' wrapper on the same thread: a check is owed before the next statement.
    assert (await database_sync_to_async(on_entry, thread_sensitive=False)())[0] is False
    await in_read_thread(use)
    monkeypatch.setattr(threads, "IDLE_CHECK_SECONDS", 0.0)  # idle long enough
    assert (await in_read_thread(on_entry))[0] is False
    monkeypatch.setattr(threads, "IDLE_CHECK_SECONDS", 10.0)
    await in_read_thread(use)

    def aged() -> None:
        connection.close_at = time.monotonic() - 1

    await in_read_thread(aged)  # after this call its age is up: closed after it or before the next
    assert (await in_read_thread(on_entry))[1] is None


@pytest.mark.django_db(transaction=True)
async def test_the_clocks_tidying_leaves_a_good_connection_unchecked():
    """The clock's sweeps end with ``tidy_connections``: a good connection stays as it is,
    where Django's ``close_old_connections`` owes a ``SELECT 1`` before its next statement."""
    from django.db import close_old_connections

    from cardroom.realtime.threads import tidy_connections

    def after(tidy: Callable[[], None]) -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        connection.close_at = time.monotonic() + 60
        tidy()
        return bool(connection.health_check_done)

    assert await in_read_thread(after, tidy_connections) is True
    assert await in_read_thread(after, close_old_connections) is False
