"""``python manage.py exclude USER --days N --reason TEXT [--time-out] [--by OPERATOR]``.

Support records a time-out or a self-exclusion at a player's request (docs/responsible-gaming.md):
a self-exclusion when N is 183 days or more (up to 1826), else a time-out (1 to 42 days;
``--time-out`` insists on one). The player is stood up at the end of the hand in play at every
table (at once where there is none), cannot sit, top up, reload or play until it ends, and the
operator log keeps it, under ``--by`` (the support person; the player, if not named).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from accounts.models import User
from cardroom.responsible.services import exclusion_kind_for, exclusion_record
from cardroom.responsible.terms import date_words, moment_words


class Command(BaseCommand):
    help = "Record a time-out or a self-exclusion at a player's request."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("user", help="the player's username")
        parser.add_argument("--days", type=int, required=True, help="1-42, or 183-1826")
        parser.add_argument("--reason", required=True, help="why, in support's words")
        parser.add_argument("--time-out", action="store_true", help="a time-out (at most 42 days)")
        parser.add_argument("--by", default="", help="the support person's username")

    def handle(self, *args: Any, **options: Any) -> None:
        player = self._user(options["user"])
        by = self._user(options["by"]) if options["by"] else player
        reason = options["reason"].strip()
        if not reason:
            raise CommandError("--reason must say why")
        days = options["days"]
        try:
            kind = exclusion_kind_for(days, time_out=options["time_out"])
            done = exclusion_record(
                user=player,
                days=days,
                kind=kind,
                reason=reason,
                by=by,
                now=timezone.now(),
                support=True,
            )
        except ValueError as error:
            raise CommandError(str(error)) from error
        exclusion = done.exclusion
        words = exclusion.get_kind_display()
        until = (
            date_words(exclusion.end) if kind == "self_exclusion" else moment_words(exclusion.end)
        )
        self.stdout.write(f"Recorded a {words} of {days} days for {player.username} until {until}.")
        if kind == "self_exclusion":
            self.stdout.write("After that date it stays in force until the house lifts it.")
        self.stdout.write(
            f"Stood up at once at {done.stood_up} table(s); at {done.leaving} more at the end of"
            " the hand in play."
        )
        self.stdout.write(f"Logged as operator action {done.logged}.")

    def _user(self, username: str) -> User:
        try:
            return User.objects.get(username=username)
        except User.DoesNotExist:
            raise CommandError(f"no user named {username!r}") from None
