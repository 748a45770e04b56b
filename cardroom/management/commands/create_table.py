"""``python manage.py create_table --game guts --preset survivor --ante 100 --name NAME``.

Prints the new table's id. Every other ``--option value`` pair (``--match-cap 1000`` or
``--match-cap=1000``) goes to the game's config, which validates it and names the valid options
when one is wrong; ``--game-options '{"ante": 25}'`` passes several as JSON.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardroom.tables.engines import engine_for
from cardroom.tables.runtime import table_create
from games.engine import ConfigError


def _value(text: str) -> Any:
    """Numbers, true/false and JSON as themselves; anything else as text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def game_options(words: Sequence[str]) -> dict[str, Any]:
    """``--name value`` and ``--name=value`` pairs as config options (dashes become _).

    >>> game_options(["--match-cap", "1000", "--payer=lowest_loser"])
    {'match_cap': 1000, 'payer': 'lowest_loser'}
    """
    options: dict[str, Any] = {}
    index = 0
    while index < len(words):
        word = words[index]
        if not word.startswith("--") or len(word) < 3:
            raise CommandError(f"expected --option value, not {word!r}")
        name, equals, value = word[2:].partition("=")
        if not equals:
            if index + 1 >= len(words):
                raise CommandError(f"{word} needs a value")
            value = words[index + 1]
            index += 1
        options[name.replace("-", "_")] = _value(value)
        index += 1
    return options


class _GameOptionsParser(CommandParser):
    """Keeps the options it does not know, for the game's config."""

    def parse_args(self, args: Any = None, namespace: Any = None) -> Any:
        known, extra = self.parse_known_args(args, namespace)
        known.extra_options = game_options(extra)
        return known


class Command(BaseCommand):
    help = "Create a table from a game's preset and options; prints its id."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        # Django builds its own CommandParser; only parse_args differs, so swap the class.
        parser.__class__ = _GameOptionsParser
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True, help="guts, ...")
        parser.add_argument("--preset", default="", help="the game's preset (default: its default)")
        parser.add_argument("--name", default="")
        parser.add_argument("--bots", type=int, default=0, help="seats kept filled by house bots")
        parser.add_argument("--game-options", type=json.loads, default=None, help="options as JSON")

    def handle(self, *args: Any, **options: Any) -> None:
        extra = dict(options.get("game_options") or {})
        extra.update(options.get("extra_options") or {})
        game = options["game"]
        try:
            preset = options["preset"] or engine_for(game).default_preset
            table = table_create(
                game=game,
                preset=preset,
                options=extra,
                name=options["name"] or f"{preset} table",
                bots=options["bots"],
            )
        except (ConfigError, ValueError) as error:
            raise CommandError(str(error)) from error
        self.stdout.write(str(table.pk))
