"""``python manage.py seed_demo``: the demo players, tables and sit-and-go that ``make play``
shows.

Safe to run again: it creates only what is missing.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from accounts.models import User
from accounts.services import user_create
from cardroom.models import Table, Tournament, TournamentStatus
from cardroom.tables.runtime import table_create
from cardroom.tournaments.templates import create_tournament

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
#: A sit-and-go always open: it opens again when it starts (``repeat``); an operator may seat
#: its two house bots from the console.
DEMO_TOURNAMENT: dict[str, Any] = {
    "name": "Survivor sit-and-go", "game": "guts", "preset": "survivor", "seats": 4,
    "buy_in": 1_000, "fee": 100, "chips": 1_500, "bots": 2, "repeat": True,
}  # fmt: skip


class Command(BaseCommand):
    help = "Create the demo players and tables that `make play` prints, if they are missing."

    def handle(self, *args: Any, **options: Any) -> None:
        for name in DEMO_PLAYERS:
            if not User.objects.filter(username=name).exists():
                user_create(username=name, password=DEMO_PASSWORD)
        for name, game, preset, table_options, bots in DEMO_TABLES:
            if not Table.objects.filter(name=name).exists():
                table_create(game=game, preset=preset, options=table_options, name=name, bots=bots)
        open_now = Tournament.objects.filter(
            name=DEMO_TOURNAMENT["name"], status=TournamentStatus.REGISTERING
        )
        if not open_now.exists():
            create_tournament(**DEMO_TOURNAMENT)
        self.stdout.write(
            "Demo logins: " + ", ".join(f"{name} / {DEMO_PASSWORD}" for name in DEMO_PLAYERS)
        )
