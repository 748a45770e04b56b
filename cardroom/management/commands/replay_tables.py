"""``python manage.py replay_tables [ID ...]``: replay journals; exit 1 on any difference."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardroom.history.journal_audit import table_replay
from cardroom.models import Table


class Command(BaseCommand):
    help = "Replay every table's journal (or the ones named) and compare with the records."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("tables", nargs="*", type=int)

    def handle(self, *args: Any, **options: Any) -> None:
        tables = Table.objects.order_by("pk")
        if options["tables"]:
            tables = tables.filter(pk__in=options["tables"])
        failed = 0
        for table in tables:
            result = table_replay(table=table)
            word = "OK" if result.ok else f"MISMATCH: {result.problem}"
            self.stdout.write(
                f"table {table.pk}: {result.actions} actions, {result.hands} hands: {word}"
            )
            failed += not result.ok
        if failed:
            raise CommandError(f"{failed} table(s) do not replay to their records")
