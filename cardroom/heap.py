"""The garbage collector's settings for a server process (daphne, or ``runclock``).

Measured in each daphne under the PostgreSQL benchmark at 100 tables (README, "Performance"),
CPython's cycle collector at its defaults took about 3 s of CPU in a server's 36 s: a thousand
young collections of about a millisecond each, and ten full ones of 100-170 ms each, during
which the process answered no socket. A full collection walked every object the server had
built as it started (Django, Channels, daphne, the games' evaluators), none of which ever
becomes garbage. So, once the server is built:

- those objects are moved out of the collector's sight (``gc.freeze``), so a full collection
  walks only what came after;
- a young collection runs after ten thousand allocations instead of 700: an action allocates
  thousands of short-lived containers that reference counting frees anyway, and each young
  collection also walks the survivors of the moment.

Reference counting still frees everything that is not in a cycle at once; cycles are freed
later, by the same collector.
"""

from __future__ import annotations

import gc

#: Allocations (less deallocations) of containers between two young collections (CPython: 700).
YOUNG_THRESHOLD = 10_000


def settle_heap() -> None:
    """Collect once, keep what the server holds so far out of every later collection, and
    collect the young generation less often. Call when the process is built, not before: what
    is frozen is never freed."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG_THRESHOLD, middle, old)
