"""The garbage collector's settings for a server process (daphne, or ``runclock``).

At its defaults CPython's cycle collector runs often under load, and each full collection
stops the process from answering any socket while it lasts (docs/performance.md, "Why the
live path is built as it is"). A full collection walked every object the server had
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
