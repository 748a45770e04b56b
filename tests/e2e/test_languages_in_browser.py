"""The cardroom in another language, clicked in Chromium: the header's switcher turns the
pages into Spanish and remembers it; the table's socket draws its fragments and says the
rules' refusals in Spanish, with amounts in the Spanish format."""

from __future__ import annotations

import pytest
from django.utils import translation
from django.utils.translation import gettext

from accounts.language import said
from accounts.services import user_create
from cardroom.tables.runtime import table_act, table_create
from games.engine import IllegalAction
from games.words import sentence_of
from tests.e2e.players import PASSWORD, PHONE, WAIT_MS, enter_table
from tests.live import live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

TABLE = "E2E Idiomas"


def _es(text: str) -> str:
    with translation.override("es"):
        return gettext(text)


def test_the_switcher_turns_the_room_spanish_and_the_table_speaks_it(browser):
    table = table_create(
        game="guts", preset="survivor", options={"ante": 100, "seats": 6}, name=TABLE
    )
    eva = user_create(username="eva", password=PASSWORD)
    # The refusal the table will give for a buy-in of $5, as the rules say it in Spanish.
    with pytest.raises(IllegalAction) as refused:
        table_act(table_id=table.pk, user=eva, action={"kind": "sit", "buy_in": 500})
    with translation.override("es"):
        spanish_refusal = said(sentence_of(refused.value))
    assert spanish_refusal != str(refused.value)

    with live_server("e2e-languages") as url:
        page = enter_table(browser, url, "eva", TABLE).page
        assert page.get_attribute("html", "lang") == "en"
        page.select_option("#language", "es")
        page.click("#language-form [type=submit]")
        page.wait_for_selector("html[lang=es]", timeout=WAIT_MS)
        # Back on the same table, whose socket now speaks Spanish.
        assert f"/tables/{table.pk}/" in page.url
        page.wait_for_selector("#connection.ok", timeout=WAIT_MS)
        sit = page.locator("form.action-sit button")
        assert sit.inner_text().strip().startswith(_es("Sit down"))

        page.fill("form.action-sit input[name=buy_in]", "5")
        sit.click()
        page.wait_for_selector(f"#notice:has-text('{spanish_refusal[:30]}')", timeout=WAIT_MS)
        assert "100,00\xa0$" in page.inner_text("#notice")  # the least: 100 antes

        page.fill("form.action-sit input[name=buy_in]", "200")
        page.locator("form.action-sit button").click()
        page.wait_for_selector("#seats li.seat.you", timeout=WAIT_MS)
        assert _es("Leave table") in page.inner_text("#actions")
        # The choice is remembered: the lobby is Spanish too, in a new page of the same browser.
        page.goto(f"{url}/lobby/")
        assert page.get_attribute("html", "lang") == "es"
        assert _es("Lobby") in page.inner_text("main h1")
        # Longer words, same phone: a row's way in stays on screen (it moves under the
        # table's name), not off to the right of the sideways-scrolling table.
        way_in = page.locator(f"#lobby-rows tr:has-text('{TABLE}') a.button:visible").first
        box = way_in.bounding_box()
        assert box is not None and box["x"] + box["width"] <= PHONE["width"]
