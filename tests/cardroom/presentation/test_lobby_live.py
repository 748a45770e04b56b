"""The lobby keeps itself current: its rows are fetched again while it is open."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from cardroom.tables.runtime import table_act

pytestmark = pytest.mark.django_db


def test_the_lobby_polls_its_rows_and_the_rows_show_who_sat_down(
    client, survivor_table, make_player
):
    viewer = make_player("vic")
    client.force_login(viewer)
    page = client.get(reverse("lobby")).content.decode()
    assert 'hx-trigger="every 5s"' in page
    assert 'hx-include="form.filters"' in page

    rows = client.get(reverse("lobby"), headers={"HX-Request": "true"}).content.decode()
    assert "0 / 6" in rows and "<html" not in rows
    table_act(
        table_id=survivor_table.pk,
        user=make_player("dan"),
        action={"kind": "sit", "buy_in": 20_000},
    )
    rows = client.get(reverse("lobby"), headers={"HX-Request": "true"}).content.decode()
    assert "1 / 6" in rows


def test_a_table_can_be_previewed_before_joining_without_any_card(
    client, survivor_table, make_player
):
    from tests.cardroom.driving import play_to_declare

    players = [make_player(name) for name in ("ann", "ben")]
    for player in players:
        table_act(table_id=survivor_table.pk, user=player, action={"kind": "sit", "buy_in": 20_000})
    play_to_declare(survivor_table, players)
    client.force_login(make_player("vic"))
    rows = client.get(reverse("lobby"), headers={"HX-Request": "true"}).content.decode()
    preview = rows[rows.index('class="preview"') :]
    preview = preview[: preview.index("</details>")]
    assert "ann" in preview and "ben" in preview and "$199.00" in preview
    survivor_table.refresh_from_db()
    dealt = " ".join(survivor_table.state["cards"]).split()
    assert dealt and not any(re.search(rf"\b{card}\b", rows) for card in dealt)
