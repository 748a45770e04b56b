"""Running work on several threads at once, each with its own database connection: the
concurrency tests of the ledger, the runtime, the limits and the wait list."""

from __future__ import annotations

import threading

from django.db import close_old_connections, connection


def run_in_threads(count: int, work) -> list:
    """Start ``count`` threads at once (a barrier), each with its own connection."""
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def runner(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work(index)
        except Exception as error:  # collected and checked by the test
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=runner, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    close_old_connections()
    return results
