"""``makemessages`` that also finds the rules' sentences (games.words.words) and skips what
is not the project's: ``python manage.py makemessages -l es -l nb`` (``make messages``)."""

from __future__ import annotations

from typing import Any

from django.core.management.commands import makemessages

#: Never the project's own text: packages, built files, tests and the docs.
IGNORED = [".venv", "node_modules", "staticfiles", "tests", "docs", "deploy", ".local", "locale"]


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=words"]

    def handle(self, *args: Any, **options: Any) -> None:
        options["ignore_patterns"] = [*options.get("ignore_patterns", []), *IGNORED]
        options.setdefault("no_obsolete", True)
        super().handle(*args, **options)
