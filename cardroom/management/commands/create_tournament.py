"""``python manage.py create_tournament --game guts --preset survivor --seats 6 --buy-in 1000
--fee 100 --chips 1500 [--bots N] [--name NAME] [--levels 10:5,15:5,...] [--payouts 6500,3500]
[--repeat]``.

Money in cents, chips as the table's stake units; ``--levels`` lists each level's ante (chips)
and minutes (the default ladder when none is given), ``--payouts`` the prize pool's shares by
place in basis points. ``--bots N``: house bots may fill N seats, and N of them register at
once. Prints the new tournament's id on its last line.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardroom.tournaments.registration import RegistrationRefused, fill_with_bots
from cardroom.tournaments.templates import create_tournament
from games.engine import ConfigError


def parse_levels(text: str) -> list[dict[str, int]]:
    """``"10:5,15:5"`` as levels: ante 10 for 5 minutes, then ante 15 for 5 minutes.

    >>> parse_levels("10:5,15:5")
    [{'ante': 10, 'minutes': 5}, {'ante': 15, 'minutes': 5}]
    """
    levels = []
    for part in text.split(","):
        ante, colon, minutes = part.strip().partition(":")
        if not colon or not ante.strip().isdigit() or not minutes.strip().isdigit():
            raise CommandError(
                f"--levels is ante:minutes pairs separated by commas (10:5,15:5), not {text!r}"
            )
        levels.append({"ante": int(ante), "minutes": int(minutes)})
    return levels


def parse_payouts(text: str) -> list[int]:
    """``"6500,3500"`` as shares in basis points.

    >>> parse_payouts("6500,3500")
    [6500, 3500]
    """
    parts = [part.strip() for part in text.split(",")]
    if not all(part.isdigit() for part in parts):
        raise CommandError(
            f"--payouts is basis points by place separated by commas (6500,3500), not {text!r}"
        )
    return [int(part) for part in parts]


class Command(BaseCommand):
    help = "Create a sit-and-go tournament; prints its id on the last line."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True, help="guts or chinese_poker")
        parser.add_argument("--preset", required=True, help="monte_carlo, survivor, unit-1, ...")
        parser.add_argument("--seats", type=int, required=True)
        parser.add_argument("--buy-in", type=int, required=True, help="cents, to the prize pool")
        parser.add_argument("--fee", type=int, required=True, help="cents, to the house")
        parser.add_argument("--chips", type=int, required=True, help="every player's chips")
        parser.add_argument("--bots", type=int, default=0, help="seats house bots may fill")
        parser.add_argument("--name", default="", help="the tournament's name")
        parser.add_argument("--levels", default=None, help="ante:minutes,... (chips)")
        parser.add_argument("--payouts", default=None, help="basis points by place, 6500,3500")
        parser.add_argument("--repeat", action="store_true", help="open a copy when it starts")

    def handle(self, *args: Any, **options: Any) -> None:
        levels = None if options["levels"] is None else parse_levels(options["levels"])
        payouts = None if options["payouts"] is None else parse_payouts(options["payouts"])
        name = options["name"] or (
            f"{options['game']} {options['preset']} sit-and-go, {options['seats']} seats"
        )
        try:
            tournament = create_tournament(
                name=name,
                game=options["game"],
                preset=options["preset"],
                seats=options["seats"],
                buy_in=options["buy_in"],
                fee=options["fee"],
                chips=options["chips"],
                levels=levels,
                payouts=payouts,
                bots=options["bots"],
                repeat=options["repeat"],
            )
            if options["bots"]:
                fill_with_bots(tournament_id=tournament.pk, count=options["bots"])
        except (ConfigError, RegistrationRefused) as error:
            raise CommandError(str(error)) from error
        tournament.refresh_from_db()
        self.stdout.write(
            f"{tournament.name}: {tournament.get_status_display()}, "
            f"{tournament.entries.exclude(status='unregistered').count()} of "
            f"{tournament.seats} registered"
        )
        self.stdout.write(str(tournament.pk))
