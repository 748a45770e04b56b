"""``python manage.py seed_demo``: the demo players (and, as games arrive, demo tables).

Safe to run again: it creates only what is missing.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from accounts.models import User
from accounts.services import user_create

DEMO_PLAYERS = ("alice", "bob", "carol")
DEMO_PASSWORD = "cardroom-demo"


class Command(BaseCommand):
    help = "Create the demo players that `make play` prints, if they are missing."

    def handle(self, *args: Any, **options: Any) -> None:
        for name in DEMO_PLAYERS:
            if not User.objects.filter(username=name).exists():
                user_create(username=name, password=DEMO_PASSWORD)
        self.stdout.write(
            "Demo logins: " + ", ".join(f"{name} / {DEMO_PASSWORD}" for name in DEMO_PLAYERS)
        )
