"""``python manage.py runclock``: the clock as its own process (with PostgreSQL and Redis)."""

from __future__ import annotations

import signal
from typing import Any

from django.core.management.base import BaseCommand

from cardroom.clock.clock import ClockThread
from cardroom.heap import settle_heap
from games.guts.showdown import warm


class Command(BaseCommand):
    help = "Apply table timeouts as their deadlines pass, until stopped (Ctrl-C or SIGTERM)."

    def handle(self, *args: Any, **options: Any) -> None:
        warm()  # the evaluators, before the first showdown (as the server does)
        settle_heap()  # once the process is built (cardroom/heap.py)
        clock = ClockThread()
        signal.signal(signal.SIGTERM, lambda *_: clock.stop())
        clock.start()
        self.stdout.write("clock running; Ctrl-C stops it")
        try:
            while clock.is_alive():
                clock.join(timeout=0.5)
        except KeyboardInterrupt:
            clock.stop()
            clock.join(timeout=5)
