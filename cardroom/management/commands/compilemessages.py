"""``compilemessages`` for this project's catalogues (locale/*/LC_MESSAGES/*.po → .mo) with
polib, so that ``make play`` needs no Debian package; only extracting strings
(``makemessages``) needs gettext."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polib
from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Compile the project's .po catalogues to .mo files."

    def handle(self, *args: Any, **options: Any) -> None:
        compiled = 0
        for root in settings.LOCALE_PATHS:
            for po_path in sorted(Path(root).glob("*/LC_MESSAGES/*.po")):
                mo_path = po_path.with_suffix(".mo")
                if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
                    continue
                # Written aside and moved into place: a server reading the catalogue never sees
                # half a file.
                partial = mo_path.with_suffix(".mo.partial")
                polib.pofile(str(po_path)).save_as_mofile(str(partial))
                partial.replace(mo_path)
                compiled += 1
        if options["verbosity"] > 0:
            self.stdout.write(f"compiled {compiled} catalogue(s)")
