"""Every translatable string has its Spanish and Norwegian translation, with its placeholders.

The check extracts the strings afresh (``makemessages`` on a copy of the sources, so the
repository is not touched) and reads the merged catalogues: a string marked but not translated
comes out empty and fails here, as does a translation that drops or adds a placeholder.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from tests.conftest import CI

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = ("es", "nb")
SOURCES = ("games", "accounts", "cardroom", "templates", "static", "locale", "manage.py")
#: ``%(name)s``, ``%s``, ``{name}``: what a translation must keep, whatever its word order.
PLACEHOLDER = re.compile(r"%\(\w+\)[sdfr]|%[sdfr]|\{\w*\}")


def _placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text.replace("%%", "").replace("{{", "").replace("}}", "")))


@pytest.fixture(scope="module")
def catalogues(tmp_path_factory):
    if shutil.which("xgettext") is None:
        message = "Debian's gettext is not installed (apt-get install gettext; make install does)"
        if CI:
            pytest.fail(message)
        pytest.skip(message)
    copy = tmp_path_factory.mktemp("sources")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif source.exists():
            shutil.copy2(source, copy / name)
    (copy / "locale").mkdir(exist_ok=True)
    # A key of its own: settings that failed to load would make Django run its own
    # makemessages, silently, without the project's (which extracts ``words``).
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "cardroom.settings",
        "DJANGO_SECRET_KEY": "translations-test",
    }
    for domain in ("django", "djangojs"):
        arguments = ["makemessages", "-d", domain, *(f"-l{code}" for code in LANGUAGES)]
        subprocess.run(
            [sys.executable, "manage.py", *arguments],
            cwd=copy,
            env=environment,
            check=True,
            capture_output=True,
        )
    found = {}
    for code in LANGUAGES:
        for domain in ("django", "djangojs"):
            path = copy / "locale" / code / "LC_MESSAGES" / f"{domain}.po"
            if path.exists():
                found[(code, domain)] = polib.pofile(str(path))
    return found


def test_the_catalogues_hold_the_sites_strings(catalogues):
    assert ("es", "django") in catalogues and ("nb", "django") in catalogues
    for code in LANGUAGES:
        # A floor, so that a broken extraction (nothing marked, nothing found) cannot pass.
        assert len(catalogues[code, "django"]) > 300


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_string_is_translated(catalogues, code):
    missing = [
        entry.msgid
        for (language, _), catalogue in catalogues.items()
        if language == code
        for entry in catalogue
        if not entry.obsolete
        and ("fuzzy" in entry.flags or not (entry.msgstr or all(entry.msgstr_plural.values())))
    ]
    assert not missing, f"{len(missing)} strings without a {code} translation: {missing[:20]}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_translations_keep_every_placeholder(catalogues, code):
    wrong = []
    for (language, _), catalogue in catalogues.items():
        if language != code:
            continue
        for entry in catalogue.translated_entries():
            wanted = _placeholders(entry.msgid)
            texts = [entry.msgstr] if not entry.msgid_plural else entry.msgstr_plural.values()
            for text in texts:
                if entry.msgid_plural:
                    # A plural's singular may say "one" instead of %(count)s.
                    wanted = _placeholders(entry.msgid_plural)
                    if set(_placeholders(text)) - set(wanted):
                        wrong.append((entry.msgid, text))
                elif _placeholders(text) != wanted:
                    wrong.append((entry.msgid, text))
    assert not wrong, f"{len(wrong)} {code} translations change the placeholders: {wrong[:10]}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_plural_has_each_form_its_language_counts(catalogues, code):
    # A missing form falls back to English for the counts it covers (Spanish's third form is
    # every count but one and the round millions: "2 days" would show in English).
    wrong = []
    for (language, _), catalogue in catalogues.items():
        if language != code:
            continue
        forms = int(catalogue.metadata["Plural-Forms"].split("nplurals=")[1].split(";")[0])
        for entry in catalogue.translated_entries():
            if entry.msgid_plural and sorted(entry.msgstr_plural) != list(range(forms)):
                wrong.append(entry.msgid)
    assert not wrong, f"{len(wrong)} {code} plurals lack a form: {wrong[:10]}"
