"""``python manage.py api_token USERNAME [--create]``: prints a new bearer token, nothing else."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from accounts.services import user_create
from cardroom.tables.auth import token_create


class Command(BaseCommand):
    help = "Print a new API token for USERNAME (with --create, make the player first)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--create", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(username=options["username"]).first()
        if user is None:
            if not options["create"]:
                raise CommandError(f"no user {options['username']!r} (use --create)")
            user = user_create(username=options["username"])
        self.stdout.write(token_create(user=user))
