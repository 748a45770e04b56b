"""The operator log in words: amounts in dollars, seats with players, no Python dicts."""

from __future__ import annotations

import pytest
from django.urls import reverse

from cardroom.models import OperatorAction, OperatorActionKind
from cardroom.operators import (
    operator_table_create,
    table_bots_change,
    table_play_change,
    table_timers_change,
)
from cardroom.operators.log_words import action_words
from tests.cardroom.personas import as_user, operator  # noqa: F401

pytestmark = pytest.mark.django_db


def test_each_kind_reads_as_words_and_the_log_page_shows_them(operator, as_user):  # noqa: F811
    table = operator_table_create(
        actor=operator, game="guts", preset="monte_carlo",
        options={"ante": 250, "match_cap_family": "seed_000", "seats": 5},
        name="Words", bots=0, reason="a new table",
    )  # fmt: skip
    table_timers_change(
        actor=operator, table_id=table.pk, timers={"ante_seconds": 8}, reason="slower"
    )
    table_bots_change(actor=operator, table_id=table.pk, bots=2, reason="company")
    table_play_change(actor=operator, table_id=table.pk, what="pause", reason="a break")

    words = [action_words(action) for action in OperatorAction.objects.order_by("id")]
    assert words[0] == (
        "Guts (Monte Carlo / Survivor), Monte Carlo; ante $2.50, match cap family"
        " English Harbour ladder (cap of 20 antes), seats 5"
    )
    assert words[1].startswith("ante seconds ") and words[1].endswith(" → 8 s")
    assert words[2].startswith("Bots 0 → 2")
    assert words[3] == "The table is now paused"

    page = as_user(operator).get(reverse("operators-log")).content.decode()
    for line in words:
        assert line.replace("→", "→") in page.replace("&gt;", ">")
    assert "{&#x27;" not in page and "{'" not in page  # no dict shown


def test_an_unknown_shape_still_reads_as_pairs(operator):  # noqa: F811
    action = OperatorAction(
        actor=operator, kind=OperatorActionKind.SEAT_REMOVE, details={"why": ["a", "b"]},
        reason="r",
    )  # fmt: skip
    assert action_words(action) == "why: a, b"
    action.kind = "something_new"
    assert action_words(action) == "why: a, b"
