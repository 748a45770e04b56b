"""``python manage.py export_hands --from DATE --to DATE --format jsonl|text [--table ID]``.

Every hand that began in the period and has ended, as an auditor reads it (every event, the
deck and its salts, the checked openings, the ledger transfers), to standard output, hand by
hand as it is read: JSON lines in the schema of docs/hand-history.md, or text in the style of
the big rooms' hand histories. Dates are YYYY-MM-DD or ISO date and times, in UTC; a ``--to``
given as a date includes that whole day.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardroom.history.export import Period, hand_records, hands_between, jsonl_lines, text_hands


class Command(BaseCommand):
    help = "Export the hands of a period (auditor's view) as JSON lines or text, to stdout."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--from", dest="start", required=True, help="YYYY-MM-DD or ISO, UTC")
        parser.add_argument("--to", dest="end", required=True, help="YYYY-MM-DD (included) or ISO")
        parser.add_argument("--format", choices=("jsonl", "text"), default="jsonl")
        parser.add_argument("--table", type=int, help="only this table's hands")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            period = Period.parse(options["start"], options["end"])
        except ValueError as error:
            raise CommandError(str(error)) from error
        records = hand_records(hands_between(period, table_id=options["table"]), audit=True)
        lines = jsonl_lines(records) if options["format"] == "jsonl" else text_hands(records)
        for piece in lines:
            self.stdout.write(piece, ending="")
