"""The rake report counts the tournaments' fees beside the rake: on the row of the
tournament's game and table (before the start, its game with no table), less refunds."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from cardroom.audit.reports import rake_report
from cardroom.audit.views import csv_rows
from cardroom.tournaments.registration import register, unregister
from tests.cardroom.personas import as_user, auditor  # noqa: F401  (fixtures)

pytestmark = pytest.mark.django_db


def test_fees_beside_the_rake(make_tournament, make_player):
    started = make_tournament(seats=2)
    waiting = make_tournament(seats=3, game="chinese_poker", preset="unit-1", chips=400,
                              levels=[{"ante": 5, "minutes": 2}])  # fmt: skip
    ann, ben, cat, dan = (make_player(name) for name in ("ann", "ben", "cat", "dan"))
    register(tournament_id=started.pk, user=ann)
    register(tournament_id=started.pk, user=ben)
    register(tournament_id=waiting.pk, user=cat)
    register(tournament_id=waiting.pk, user=dan)
    unregister(tournament_id=waiting.pk, user=dan)
    started.refresh_from_db()
    today = timezone.now().date()
    report = rake_report(start=today, end=today)
    rows = {(row["table_id"], row["game"]): row for row in report.rows}
    assert rows[started.table_id, "guts"]["tournament_fees"] == 200
    assert rows[None, "chinese_poker"]["tournament_fees"] == 100
    assert rows[started.table_id, "guts"]["cents"] == 0  # no rake: chips are not money
    assert report.totals["tournament_fees"] == 300
    assert report.totals["income"] == 300
    assert report.totals["fees"] == 0  # the hand fees, as before
    data = report.to_json()
    assert data["tournament_fees"] == 300 and data["income"] == 300
    assert data["income_by_game"]["guts"]["tournament_fees"] == 200
    csv = csv_rows(report)
    assert csv[0][-1] == "tournament_fee_cents"
    assert csv[-1][-1] == 300


def test_the_report_page_shows_the_fees(make_tournament, make_player, as_user, auditor):  # noqa: F811
    tournament = make_tournament(seats=3)
    register(tournament_id=tournament.pk, user=make_player("ann"))
    today = timezone.now().date().isoformat()
    page = as_user(auditor).get(f"{reverse('audit-rake')}?from={today}&to={today}")
    text = page.content.decode()
    assert '<strong id="tournament-fees-total">$1.00</strong>' in text
    assert '<strong id="house-income-total">$1.00</strong>' in text
