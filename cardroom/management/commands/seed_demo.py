"""``python manage.py seed_demo``: the demo players and tables that ``make play`` shows.

Safe to run again: it creates only what is missing.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from accounts.models import User
from accounts.services import user_create
from cardroom.models import Table
from cardroom.tables.runtime import table_create

DEMO_PLAYERS = ("alice", "bob", "carol")
DEMO_PASSWORD = "cardroom-demo"
#: (name, game, preset, options, bots)
DEMO_TABLES: tuple[tuple[str, str, str, dict[str, Any], int], ...] = (
    ("Monte Carlo 25¢", "guts", "monte_carlo", {"ante": 25, "seats": 6}, 3),
    ("Survivor $1", "guts", "survivor", {"ante": 100, "seats": 6}, 3),
    ("Kitty (ghost hand) $1", "classic_guts", "kitty", {"ante": 100, "seats": 5}, 2),
    ("Three-Five-Seven $1", "classic_guts", "three_five_seven", {"ante": 100, "seats": 5}, 2),
    ("Chinese Poker $1 a unit", "chinese_poker", "unit-1", {}, 2),
    ("Three Card Poker $1–$100", "three_card_poker", "standard", {}, 1),
)


class Command(BaseCommand):
    help = "Create the demo players and tables that `make play` prints, if they are missing."

    def handle(self, *args: Any, **options: Any) -> None:
        for name in DEMO_PLAYERS:
            if not User.objects.filter(username=name).exists():
                user_create(username=name, password=DEMO_PASSWORD)
        for name, game, preset, table_options, bots in DEMO_TABLES:
            if not Table.objects.filter(name=name).exists():
                table_create(game=game, preset=preset, options=table_options, name=name, bots=bots)
        self.stdout.write(
            "Demo logins: " + ", ".join(f"{name} / {DEMO_PASSWORD}" for name in DEMO_PLAYERS)
        )
