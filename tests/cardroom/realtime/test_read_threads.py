"""Reads in the pool (``in_read_thread``, cardroom/realtime/threads.py): off the event loop's
thread, with the caller's context variables, the thread's connection kept between calls."""

from __future__ import annotations

import contextvars
import threading

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
