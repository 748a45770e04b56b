"""The cardroom in Spanish and Norwegian: the browser's language, the switcher, amounts for
the locale, the rules pages, and the rules' refusals said in the reader's language."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from accounts.language import said
from accounts.money import format_cents
from accounts.selectors import bankroll_balance
from cardroom.presentation.howto import RULES_DIR
from cardroom.tables.runtime import table_act
from games.engine import IllegalAction
from games.words import sentence_of

pytestmark = pytest.mark.django_db

LANGUAGES = ("es", "nb")


def _in(code: str, text: str) -> str:
    with translation.override(code):
        return gettext(text)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_browsers_language_is_the_pages_language(client, code):
    html = client.get(reverse("home"), headers={"accept-language": f"{code},en;q=0.5"})
    page = html.content.decode()
    assert f'<html lang="{code}">' in page
    lobby = _in(code, "How to play")
    assert lobby != "How to play" and lobby in page


def test_english_stays_the_default(client):
    page = client.get(reverse("home")).content.decode()
    assert '<html lang="en">' in page and "How to play" in page


def test_the_switcher_remembers_the_choice(client, alice):
    client.force_login(alice)
    answer = client.post("/i18n/setlang/", {"language": "nb", "next": reverse("lobby")})
    assert answer.status_code == 302 and answer.url == reverse("lobby")
    page = client.get(reverse("lobby")).content.decode()
    assert '<html lang="nb">' in page
    assert 'id="language-form"' in page and 'value="nb" selected' in page
    # The cookie wins over the browser's own preference.
    page = client.get(reverse("lobby"), headers={"accept-language": "es"}).content.decode()
    assert '<html lang="nb">' in page


@pytest.mark.parametrize(
    ("code", "text"),
    [("en", "$1,234,567.89"), ("es", "1\xa0234\xa0567,89\xa0$"), ("nb", "1\xa0234\xa0567,89\xa0$")],
)
def test_amounts_follow_the_locale_and_stay_dollars(code, text):
    with translation.override(code):
        assert format_cents(123_456_789) == text
        assert format_cents(-5).startswith("\u2212") and "0" in format_cents(-5)


def test_the_cashier_shows_the_bankroll_in_the_locale(client, alice):
    client.force_login(alice)
    page = client.get(reverse("cashier"), headers={"accept-language": "es"}).content.decode()
    with translation.override("es"):
        balance = format_cents(bankroll_balance(user=alice))
    assert "," in balance and balance.endswith("\xa0$")
    assert balance in page


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_rules_page_is_translated_and_served(client, code):
    from cardroom.presentation.howto import PAGES

    for page in PAGES:
        source = RULES_DIR / code / f"{page.slug}.md"
        assert source.exists(), source
        english = (RULES_DIR / f"{page.slug}.md").read_text(encoding="utf-8")
        translated = source.read_text(encoding="utf-8")
        # The same shape: as many headings and table rows as the English.
        for pattern in (r"(?m)^#+ ", r"(?m)^\|"):
            assert len(re.findall(pattern, translated)) == len(re.findall(pattern, english))
        html = client.get(
            reverse("howto-page", args=[page.slug]), headers={"accept-language": code}
        ).content.decode()
        heading = translated.splitlines()[0].lstrip("# ").split(" {#")[0]
        assert heading in html
        assert "not translated" not in html


def test_a_translated_heading_keeps_its_english_anchor(client):
    html = client.get(
        reverse("howto-page", args=["guts-classic"]), headers={"accept-language": "es"}
    ).content.decode()
    assert 'id="hand-rankings"' in html


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_refusal_of_the_rules_is_said_in_the_readers_language(survivor_table, alice, code):
    with pytest.raises(IllegalAction) as refused:
        table_act(table_id=survivor_table.pk, user=alice, action={"kind": "sit", "buy_in": 5})
    sentence = sentence_of(refused.value)
    english = str(refused.value)
    with translation.override(code):
        spoken = said(sentence)
    assert spoken != english
    # Amounts in the sentence follow the locale: a decimal comma, the dollar after.
    if "$" in english:
        assert re.search(r"\d,\d\d\xa0\$", spoken), spoken


@pytest.mark.parametrize(("code", "word"), [("en", " or "), ("es", " o "), ("nb", " eller ")])
def test_alternatives_are_listed_with_the_readers_or(code, word):
    from games.words import one_of, words

    refusal = words("choose {choices}, not {choice}", choices=one_of(["'in'", "'out'", "'high'"]),
                    choice="'x'")  # fmt: skip
    with translation.override(code):
        spoken = said(refusal)
    assert spoken.count(word) == 2 and "'in'" in spoken and "'high'" in spoken


def test_the_home_pages_game_tiles_are_links_to_their_rules(client):
    page = client.get(reverse("home")).content.decode()
    for slug in ("guts-online", "guts-classic", "chinese-poker", "three-card-poker"):
        assert f'class="game-card game-link" href="{reverse("howto-page", args=[slug])}"' in page
    assert '<article class="game-card"' not in page
    assert "css/pages" in page  # the tiles' focus style


@pytest.mark.parametrize(
    ("seconds", "words"), [(1, "within 1 second."), (30, "within 30 seconds.")]
)
def test_a_count_agrees_with_its_noun(seconds, words):
    table = SimpleNamespace(pk=1, name="Alpha")
    offers = [{"row": {"table": table}, "seconds": seconds}]
    html = render_to_string("cardroom/partials/_lobby_offers.html", {"offers": offers})
    assert words in html
