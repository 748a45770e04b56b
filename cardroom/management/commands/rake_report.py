"""``python manage.py rake_report --from DATE --to DATE [--json]``: the house's rake.

Dates are YYYY-MM-DD, both included. ``--json`` prints ``from``, ``to``, ``total`` and
``by_day``, ``by_table``, ``by_game`` (each a mapping to integer cents: the rake and fees),
then ``rake``, ``fees``, ``house_result``, ``tournament_fees`` and ``income`` (the range's
totals) and ``income_by_day``, ``income_by_table``, ``income_by_game`` (those five for each:
the income counts the sit-and-gos' fees); otherwise
a table: rake and fees, house result and income by game and by table, then the totals.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.money import format_cents
from cardroom.audit.reports import rake_report
from cardroom.management.days import command_day


class Command(BaseCommand):
    help = (
        "The rake (every transfer into the house rake) and the house result of banked games "
        "by day, table and game, in cents."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--from", dest="start", required=True, help="first day, YYYY-MM-DD")
        parser.add_argument("--to", dest="end", required=True, help="last day, YYYY-MM-DD")
        parser.add_argument("--json", action="store_true", help="print JSON (cents)")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            report = rake_report(
                start=command_day(options["start"]), end=command_day(options["end"])
            )
        except ValueError as error:
            raise CommandError(str(error)) from error
        if options["json"]:
            self.stdout.write(json.dumps(report.to_json(), indent=2))
            return
        self.stdout.write(f"rake from {report.start} to {report.end}")
        header = f"  {'':<20} {'rake and fees':>14} {'house result':>14} {'income':>14}"
        self.stdout.write(header)
        labelled = [(row["game"] or "(no table)", row) for row in report.by_game] + [
            (f"#{row['table_id']} {row['table']}", row) for row in report.by_table
        ]
        for label, row in labelled:
            self.stdout.write(f"  {label:<20} {_figures(row)}")
        self.stdout.write(f"  {'total':<20} {_figures(report.totals)}")
        fees = report.totals["tournament_fees"]
        self.stdout.write(f"tournament fees: {format_cents(fees)} ({fees} cents)")
        self.stdout.write(
            f"house result: {format_cents(report.totals['house'])} "
            f"({report.totals['house']} cents); "
            f"income: {format_cents(report.totals['income'])} ({report.totals['income']} cents)"
        )
        self.stdout.write(f"total: {format_cents(report.total)} ({report.total} cents)")


def _figures(row: dict[str, Any]) -> str:
    """Rake and fees, house result and income, in dollars, in columns."""
    return " ".join(f"{format_cents(row[name]):>14}" for name in ("cents", "house", "income"))
