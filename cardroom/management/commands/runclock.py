"""``python manage.py runclock``: the clock as its own process (with PostgreSQL and Redis)."""

from __future__ import annotations

import signal
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from prometheus_client import start_http_server

from cardroom.clock.clock import ClockThread
from cardroom.heap import settle_heap
from games.guts.showdown import warm


class Command(BaseCommand):
    help = "Apply table timeouts as their deadlines pass, until stopped (Ctrl-C or SIGTERM)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--metrics-port",
            type=int,
            default=None,
            help="Serve this process's Prometheus metrics (the clock's) on this port, at "
            "/metrics (docs/monitoring.md); none by default.",
        )
        parser.add_argument(
            "--metrics-address",
            default="127.0.0.1",
            help="The address the metrics are served on (loopback by default: this server "
            "has no access control of its own).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["metrics_port"] is not None:
            start_http_server(options["metrics_port"], addr=options["metrics_address"])
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
