"""The "How to play" pages: docs/rules/ served to anyone, linked from the lobby and each table."""

from __future__ import annotations

import re

import pytest

from cardroom.models import Game
from cardroom.presentation.howto import GAME_PAGES, PAGES, RULES_DIR
from cardroom.tables.runtime import table_create

#: A table of each game, as an operator would open it.
TABLES = {
    "guts": ("survivor", {"ante": 100}),
    "classic_guts": ("kitty", {"ante": 100}),
    "chinese_poker": ("unit-1", {}),
    "three_card_poker": ("standard", {}),
}


def _links(html: str) -> list[str]:
    return re.findall(r'href="([^"]*)"', html)


def test_every_page_has_its_file_and_its_title_is_the_files_heading() -> None:
    for page in PAGES:
        first = (RULES_DIR / f"{page.slug}.md").read_text(encoding="utf-8").splitlines()[0]
        assert first == f"# {page.title}"


@pytest.mark.django_db
@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.slug)
def test_every_page_renders_for_a_logged_out_visitor(client, page) -> None:
    response = client.get(f"/how-to-play/{page.slug}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f"<title>{page.title} · Cardroom</title>" in html
    assert f">{page.title}</h1>" in html  # the Markdown's own heading, rendered
    assert '<table class="ledger">' in html  # every page has a table of settings


@pytest.mark.django_db
def test_the_index_lists_every_page(client) -> None:
    html = client.get("/how-to-play/").content.decode()
    for page in PAGES:
        assert f'href="/how-to-play/{page.slug}/"' in html
        assert str(page.title) in html


@pytest.mark.django_db
def test_an_unknown_page_is_not_found(client) -> None:
    assert client.get("/how-to-play/poker-dice/").status_code == 404
    assert client.get("/how-to-play/Guts-Online/").status_code == 404


@pytest.mark.django_db
def test_links_between_pages_go_to_the_served_pages(client) -> None:
    html = client.get("/how-to-play/guts-online/").content.decode()
    assert 'href="/how-to-play/guts-classic/"' in html
    assert 'href="/how-to-play/guts-classic/#hand-rankings"' in html
    assert 'id="hand-rankings"' in client.get("/how-to-play/guts-classic/").content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["", *(page.slug + "/" for page in PAGES)])
def test_no_page_links_outside_the_project(client, slug) -> None:
    for link in _links(client.get(f"/how-to-play/{slug}").content.decode()):
        assert "shared" not in link and ".." not in link, link
        assert not link.endswith(".md") and ".md#" not in link, link


@pytest.mark.django_db
def test_the_lobby_links_to_how_to_play(client, alice) -> None:
    client.force_login(alice)
    html = client.get("/lobby/").content.decode()
    assert re.search(r'New to a game\? <a href="/how-to-play/">How to play</a>', html)


def test_every_table_game_has_a_page() -> None:
    assert set(GAME_PAGES) == set(Game.values)


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(TABLES))
def test_a_table_links_to_its_games_page(client, alice, game) -> None:
    preset, options = TABLES[game]
    table = table_create(game=game, preset=preset, options=options, name=f"A {game} table")
    client.force_login(alice)
    html = client.get(f"/tables/{table.pk}/").content.decode()
    panel = html[html.index('<details class="house-rules"') :]
    panel = panel[: panel.index("</details>")]
    assert f'href="/how-to-play/{GAME_PAGES[game]}/"' in panel
