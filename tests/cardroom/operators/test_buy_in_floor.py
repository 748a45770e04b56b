"""The seeds' minimum buy-in of 100 antes (issue 32, item 5): an operator is refused a lower
one on a seed preset, with the reason next to the field; a custom table may ask less, and its
house rules say so."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.language import said
from cardroom.models import OperatorAction, Table
from cardroom.presentation.house_rules import house_rules
from cardroom.tables.runtime import table_create
from games.engine import ConfigError
from games.guts import make_config
from games.words import sentence_of
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)

pytestmark = pytest.mark.django_db

NEW = reverse("operators-table-new")
LOW = {"name": "Low", "ante": "1", "min_buy_in": "50", "bots": "0", "reason": "a small game"}
LOWER = "Buy in with at least $50.00: less than the usual 100 antes ($100.00), a house rule here."


def field_errors(page: str, name: str) -> list[str]:
    block = re.search(rf'id="field-id_{name}".*?</div>', page, re.S)
    assert block, name
    return re.findall(r'class="errors field-error">([^<]*)<', block.group(0))


@pytest.mark.parametrize(
    ("preset", "name"), [("monte_carlo", "Monte Carlo"), ("survivor", "Survivor")]
)
def test_a_seed_preset_refuses_a_buy_in_below_100_antes_and_creates_nothing(
    as_user, operator, preset, name
):
    response = as_user(operator).post(NEW + f"?game=guts&preset={preset}", LOW)
    assert response.status_code == 400
    assert field_errors(response.content.decode(), "min_buy_in") == [
        f"“Min buy in” must be at least 100 antes ($100.00) at {name} tables, as the rooms"
        " that deal them ask; only a custom table may ask less"
    ]
    assert not Table.objects.exists()
    assert not OperatorAction.objects.exists()


def test_a_custom_table_takes_a_lower_buy_in_and_shows_it_as_a_house_rule(as_user, operator):
    client = as_user(operator)
    page = client.get(NEW).content.decode()
    assert "?game=guts&amp;preset=custom" in page
    response = client.post(NEW + "?game=guts&preset=custom", {**LOW, "payer": "lowest_loser"})
    assert response.status_code == 302, response.content.decode()[:3000]
    table = Table.objects.get()
    assert table.config == {"ante": 100, "min_buy_in": 5_000, "payer": "lowest_loser"}
    rules = house_rules(table)
    assert LOWER in rules
    assert "Buy in with at least $50.00." not in rules
    assert "Only the lowest losing hand In matches the pot (Survivor)." in rules


def test_a_buy_in_of_100_antes_or_more_is_no_house_rule(db):
    table = table_create(game="guts", preset="survivor", options={"ante": 100}, name="Seed")
    rules = house_rules(table)
    assert "Buy in with at least $100.00." in rules
    assert not any("usual 100 antes" in rule for rule in rules)


def test_a_classic_table_below_100_antes_shows_it_as_a_house_rule(db):
    table = table_create(
        game="classic_guts", preset="two_card", options={"ante": 100, "min_buy_in": 5_000}, name="H"
    )
    assert LOWER in house_rules(table)


def test_the_refusal_and_the_house_rule_read_in_every_language(db):
    table = table_create(
        game="guts", preset="custom", options={"ante": 100, "min_buy_in": 5_000}, name="C"
    )
    with pytest.raises(ConfigError) as refused:
        make_config("survivor", {"ante": 100, "min_buy_in": 5_000})
    refusal = sentence_of(refused.value)
    expected = {
        "es": ("solo una mesa a medida puede pedir menos", "una regla de la casa de esta mesa"),
        "nb": ("bare et egendefinert bord kan kreve mindre", "en husregel ved dette bordet"),
    }
    for code, (refused, rule) in expected.items():
        with translation.override(code):
            assert said(refusal).endswith(refused)
            assert any(line.endswith(rule + ".") for line in house_rules(table))
