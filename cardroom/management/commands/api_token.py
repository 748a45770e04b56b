"""``python manage.py api_token USERNAME [--create] [--name NAME] [--expires-days N]``: prints
a new bearer token, nothing else."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from accounts.models import User
from accounts.services import user_create
from cardroom.realtime.auth import token_create


class Command(BaseCommand):
    help = "Print a new API token for USERNAME (with --create, make the player first)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--create", action="store_true")
        parser.add_argument("--name", default="", help="what the token is for (at most 60)")
        parser.add_argument(
            "--expires-days", type=int, default=None, help="valid this many days (default: ever)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        name: str = options["name"]
        if len(name) > 60:
            raise CommandError("--name takes at most 60 characters")
        days: int | None = options["expires_days"]
        if days is not None and days < 1:
            raise CommandError("--expires-days takes a whole number of days, 1 or more")
        user = User.objects.filter(username=options["username"]).first()
        if user is None:
            if not options["create"]:
                raise CommandError(f"no user {options['username']!r} (use --create)")
            user = user_create(username=options["username"])
        expires = timezone.now() + timedelta(days=days) if days is not None else None
        self.stdout.write(token_create(user=user, name=name, expires=expires))
