"""The lobby keeps itself current: its rows are fetched again while it is open."""

from __future__ import annotations

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
