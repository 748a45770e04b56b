"""``python manage.py rake_report --from DATE --to DATE [--json]``: the house's rake.

Dates are YYYY-MM-DD, both included. ``--json`` prints ``from``, ``to``, ``total`` and
``by_day``, ``by_table``, ``by_game`` (each a mapping to integer cents); otherwise a table.
"""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.money import format_cents
from cardroom.audit.reports import rake_report


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError as error:
        raise CommandError(
            f"{text!r} is not a date: write YYYY-MM-DD, such as 2025-01-31"
        ) from error


class Command(BaseCommand):
    help = "The rake (every transfer into the house rake) by day, table and game, in cents."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--from", dest="start", required=True, help="first day, YYYY-MM-DD")
        parser.add_argument("--to", dest="end", required=True, help="last day, YYYY-MM-DD")
        parser.add_argument("--json", action="store_true", help="print JSON (cents)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = rake_report(start=_day(options["start"]), end=_day(options["end"]))
        except ValueError as error:
            raise CommandError(str(error)) from error
        if options["json"]:
            self.stdout.write(json.dumps(report.to_json(), indent=2))
            return
        self.stdout.write(f"rake from {report.start} to {report.end}")
        for row in report.by_game:
            self.stdout.write(
                f"  {row['game'] or '(no table)':<20} {format_cents(row['cents']):>14}"
            )
        for row in report.by_table:
            label = f"#{row['table_id']} {row['table']}"
            self.stdout.write(f"  {label:<20} {format_cents(row['cents']):>14}")
        self.stdout.write(f"total: {format_cents(report.total)} ({report.total} cents)")
