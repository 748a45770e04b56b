"""``python manage.py fair_play_report [--day YYYY-MM-DD] [--days N] [--json]``: fair play signals.

Finds and keeps the day's signals (docs/fair-play.md): players seated together that day whose
logins shared an address or a browser, and one-way money between players over the ``--days``
days (7 by default) ending on that day. ``--day`` defaults to yesterday, the last whole day, in
the cardroom's time zone. Running it again for a day updates that day's signals instead of
adding more. ``--json`` prints ``day``, ``days``, ``rules``, ``signals``, ``created``,
``updated`` and ``dropped`` (cardroom/fairplay/report.py; money in cents); otherwise a line a
signal.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from accounts.money import format_cents
from cardroom.fairplay.report import fair_play_report
from cardroom.management.days import command_day


class Command(BaseCommand):
    help = (
        "Find a day's fair play signals (shared logins at one table, one-way money between "
        "two players) and keep them for the operators' review."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--day", help="the report's day, YYYY-MM-DD (default: yesterday)")
        parser.add_argument(
            "--days", type=int, default=7, help="days of hands for the money flows (default 7)"
        )
        parser.add_argument("--json", action="store_true", help="print JSON (cents)")

    def handle(self, *args: Any, **options: Any) -> None:
        day = (
            command_day(options["day"])
            if options["day"]
            else timezone.localdate() - timedelta(days=1)
        )
        if options["days"] < 1:
            raise CommandError("--days must be at least 1")
        report = fair_play_report(day, options["days"])
        if options["json"]:
            self.stdout.write(json.dumps(report, indent=2))
            return
        self.stdout.write(
            f"fair play signals for {report['day']} (money over {report['days']} days): "
            f"{len(report['signals'])} found, {report['created']} new, "
            f"{report['updated']} updated, {report['dropped']} dropped"
        )
        for signal in report["signals"]:
            a, b = signal["players"]
            if signal["kind"] == "one_way_flow":
                self.stdout.write(
                    f"  one-way flow: player {a} to player {b}, net {format_cents(signal['net'])}"
                    f" of {format_cents(signal['gross'])} over {signal['hands']} hands"
                )
            else:
                self.stdout.write(
                    f"  shared {signal['details']['strength']}: players {a} and {b} "
                    f"at tables {signal['tables']}"
                )
