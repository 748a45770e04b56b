"""``python manage.py create_table --game guts --preset survivor --ante 100 --name NAME``.

Prints the new table's id. Any other ``--option value`` pair is passed to the game's config,
which validates it and names the valid values when one is wrong.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardroom.runtime import table_create
from games.engine import ConfigError


def _value(text: str) -> Any:
    """Numbers, true/false and JSON as themselves; anything else as text."""
    try:
        return json.loads(text)
    except ValueError:
        return text


class Command(BaseCommand):
    help = "Create a table from a game's preset and options; prints its id."

    def create_parser(self, prog_name: str, subcommand: str, **kwargs: Any) -> CommandParser:
        parser = super().create_parser(prog_name, subcommand, **kwargs)
        self._parser = parser
        return parser

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", required=True)
        parser.add_argument("--preset", default="")
        parser.add_argument("--name", default="")
        parser.add_argument("--bots", type=int, default=0)

    def run_from_argv(self, argv: list[str]) -> None:
        # Unknown --option value pairs are the game's options: split them off first.
        known = {"--game", "--preset", "--name", "--bots", "--settings", "--pythonpath",
                 "--verbosity", "-v", "--traceback", "--no-color", "--force-color",
                 "--skip-checks"}  # fmt: skip
        head, self.extra = argv[:2], {}
        rest = argv[2:]
        kept: list[str] = []
        index = 0
        while index < len(rest):
            word = rest[index]
            name = word.split("=", 1)[0]
            if word.startswith("--") and name not in known:
                if "=" in word:
                    value = word.split("=", 1)[1]
                    index += 1
                elif index + 1 < len(rest):
                    value = rest[index + 1]
                    index += 2
                else:
                    raise CommandError(f"{word} needs a value")
                self.extra[name[2:].replace("-", "_")] = _value(value)
                continue
            kept.append(word)
            index += 1
        super().run_from_argv(head + kept)

    def handle(self, *args: Any, **options: Any) -> None:
        extra: dict[str, Any] = dict(getattr(self, "extra", {}))
        extra.update(options.get("game_options") or {})
        game = options["game"]
        preset = options["preset"]
        try:
            table = table_create(
                game=game,
                preset=preset,
                options=extra,
                name=options["name"] or f"{preset or game} table",
                bots=options["bots"],
            )
        except (ConfigError, ValueError) as error:
            raise CommandError(str(error)) from error
        self.stdout.write(str(table.pk))
