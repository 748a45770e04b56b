"""``python manage.py verify_hand TABLE NUMBER``: a hand's openings against its commitment.

Every opening the hand page publishes after the hand (each card any event showed to anyone,
docs/fairness.md) is taken from the stored deck and checked: its card and salt must hash to the
leaf published before the deal, and the published leaves to the published root. Prints each
position checked and "OK: N openings match the commitment <root>"; on any mismatch it says what
is wrong and exits with status 1. A hand still in play publishes no openings yet.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardroom.history.verification import hand_openings
from cardroom.models import Hand


class Command(BaseCommand):
    help = "Check a finished hand's published openings against its deck commitment."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("table", type=int, help="the table's id")
        parser.add_argument("number", type=int, help="the hand's number at that table")

    def handle(self, *args: Any, **options: Any) -> None:
        table, number = options["table"], options["number"]
        hand = Hand.objects.filter(table_id=table, number=number).first()
        if hand is None:
            raise CommandError(f"table {table} has no hand {number}")
        if hand.ended is None:
            raise CommandError(
                f"hand {number} at table {table} has not ended: its openings are published "
                "when it ends, so there is nothing to verify yet"
            )
        verification = hand_openings(hand)
        self.stdout.write(f"table {table}, hand {number}: commitment root {verification.root}")
        for check in verification.checks:
            if check.ok:
                self.stdout.write(f"position {check.position}: {check.card} matches its leaf")
        for problem in verification.problems:
            self.stderr.write(problem)
        if not verification.ok:
            count = len(verification.problems)
            raise CommandError(
                f"FAILED: {count} problem{'s' if count != 1 else ''} with the openings of hand "
                f"{number} at table {table}"
            )
        count = len(verification.checks)
        self.stdout.write(
            f"OK: {count} opening{'s match' if count != 1 else ' matches'} the commitment "
            f"{verification.root}"
        )
