"""The pages that help players speak words and dollars: no setting's code name
(``all_losers``, ``rake_basis_points``) and no amount in cents, in any language, on the
"How to play" pages or on the house rules of any table, whatever its game and preset."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client

from cardroom.presentation.howto import PAGES
from cardroom.tables.engines import PACKAGES, engine_for
from cardroom.tables.runtime import table_create

LANGUAGES = ("en", "es", "nb")
#: A code name: lower-case words joined by underscores (``seed_000``, ``reconnect_grace_seconds``).
CODE_NAME = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
#: An amount said in cents, in any of the languages (the rules count in whole cents, but say
#: every amount in dollars).
CENTS = re.compile(r"\d[\d,.]*\s*(?:¢|cents?\b|céntimos?\b|centavos?\b|øre\b)", re.IGNORECASE)
#: Options a table needs besides its preset (the Guts tables have no default ante).
OPTIONS = {"guts": {"ante": 100}, "classic_guts": {"ante": 100}}


class _Text(HTMLParser):
    """The words a reader sees: text outside scripts and styles (no tags, no attributes)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self._hidden += tag in ("script", "style", "template")

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in ("script", "style", "template")

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self.parts.append(data)


def _seen(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    return " ".join(parser.parts)


def _problems(text: str) -> list[str]:
    return CODE_NAME.findall(text) + CENTS.findall(text)


def test_the_checks_find_what_they_look_for() -> None:
    seen = _seen('<p class="no_such">Payer <code>all_losers</code>, rake 300 cents.</p>')
    assert _problems(seen) == ["all_losers", "300 cents"]
    assert _problems(_seen("<p>Ante $1.00; a pot of 30 antes, one-card Guts.</p>")) == []
    assert _problems(_seen("<script>let rake_cap = 300</script>")) == []


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("slug", ["", *(page.slug + "/" for page in PAGES)])
def test_how_to_play_speaks_words_and_dollars(client: Client, slug: str, language: str) -> None:
    response = client.get(f"/how-to-play/{slug}", headers={"accept-language": language})
    assert response.status_code == 200
    assert _problems(_seen(response.content.decode())) == []


def _tables() -> list[tuple[str, str]]:
    return [(game, preset) for game in PACKAGES for preset in engine_for(game).presets]


@pytest.mark.django_db
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("game", "preset"), _tables())
def test_house_rules_speak_words_and_dollars(
    client: Client, alice: Any, game: str, preset: str, language: str
) -> None:
    table = table_create(game=game, preset=preset, options=OPTIONS.get(game, {}), name="Help")
    client.force_login(alice)
    html = client.get(f"/tables/{table.pk}/", headers={"accept-language": language}).content
    page = html.decode()
    panel = page[page.index('<details class="house-rules"') :]
    panel = panel[: panel.index("</details>") + len("</details>")]
    assert "<li>" in panel  # every table states its rules, in words
    assert _problems(_seen(panel)) == []
    lobby = client.get("/lobby/", headers={"accept-language": language}).content.decode()
    assert _problems(_seen(lobby)) == []
