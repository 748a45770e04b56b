"""A server process keeps what it built at start out of the cycle collector's walks, and runs
young collections less often (cardroom/heap.py says why)."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path

from cardroom.heap import YOUNG_THRESHOLD, settle_heap

ROOT = Path(__file__).resolve().parents[2]


def test_settling_freezes_what_exists_and_spaces_young_collections():
    before = gc.get_threshold()
    kept = [[]]  # a container alive before: the collector must no longer walk it
    try:
        settle_heap()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (YOUNG_THRESHOLD, before[1], before[2])
        assert not any(item is kept for item in gc.get_objects())
        later = [[]]  # built afterwards: still the collector's
        assert any(item is later for item in gc.get_objects())
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def test_the_server_entry_point_settles_its_heap_once_built():
    """What daphne loads (cardroom/asgi.py) ends with the heap settled: a new interpreter
    that imports it has frozen objects and the spaced threshold."""
    probe = (
        "import gc; import cardroom.asgi; "
        "print(gc.get_freeze_count() > 10_000, gc.get_threshold()[0])"
    )
    env = {
        **os.environ,
        "CARDROOM_CLOCK_IN_PROCESS": "0",
        "DJANGO_SETTINGS_MODULE": "cardroom.settings",
        "DJANGO_SECRET_KEY": "heap-probe-" + "k" * 50,  # a clone without .local/ starts too
    }
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=60, check=True,
    )  # fmt: skip
    assert done.stdout.split() == ["True", str(YOUNG_THRESHOLD)]


def test_the_separate_clock_settles_its_heap_too():
    text = (ROOT / "cardroom" / "management" / "commands" / "runclock.py").read_text()
    assert text.index("settle_heap()") < text.index("clock.start()")
