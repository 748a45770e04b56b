"""The fair play command and the console's page: the command's JSON, who may see the page,
its filters, the review (logged), and a bad review changing nothing."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts.money import format_cents
from cardroom.models import FairPlayKind, FairPlaySignal, OperatorAction, OperatorActionKind
from cardroom.operators.log_words import action_words
from tests.cardroom.fairplay.builders import DAY, at, fund, hand, login, seat
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)
from tests.cardroom.queries import queries

pytestmark = pytest.mark.django_db

PAGE = reverse("operators-fair-play")


@pytest.fixture
def signals(tables, people):
    """A one-way flow (Ann to Ben, $150 in five hands) and a shared login (Cat and Dan)."""
    ann, ben, cat, dan = (people[name] for name in ("ann", "ben", "cat", "dan"))
    fund(tables[0], ann, ben)
    for number in range(5):
        hand(tables[0], at(10, number), paid={ann: 3_000}, won={ben: 3_000})
    seat(tables[1], cat, 1, at(10), None)
    seat(tables[1], dan, 2, at(10), None)
    login(cat, "203.0.113.7", "Firefox", at(10))
    login(dan, "203.0.113.7", "Firefox", at(10))
    call_command("fair_play_report", "--day", DAY.isoformat(), stdout=StringIO())
    return {signal.kind: signal for signal in FairPlaySignal.objects.all()}


def test_the_command_prints_the_report_as_json_and_keeps_it_once(tables, people, signals):
    out = StringIO()
    call_command("fair_play_report", "--day", DAY.isoformat(), "--days", "7", "--json", stdout=out)
    report = json.loads(out.getvalue())

    assert set(report) == {"day", "days", "rules", "signals", "created", "updated", "dropped"}
    assert (report["day"], report["days"], report["created"], report["updated"]) == (
        DAY.isoformat(), 7, 0, 2,
    )  # fmt: skip
    assert report["rules"] == {"net_cents": 10_000, "one_way_percent": 80, "min_hands": 5}
    flow = next(s for s in report["signals"] if s["kind"] == "one_way_flow")
    assert set(flow) == {"kind", "day", "players", "tables", "net", "gross", "hands", "details"}
    assert flow["players"] == [people["ann"].pk, people["ben"].pk]
    assert (flow["net"], flow["gross"], flow["hands"]) == (15_000, 15_000, 5)
    assert isinstance(flow["net"], int)
    assert FairPlaySignal.objects.count() == 2


def test_the_command_refuses_a_bad_day_and_days(db):
    with pytest.raises(CommandError, match="not a date"):
        call_command("fair_play_report", "--day", "10/03/2026", stdout=StringIO())
    with pytest.raises(CommandError, match="at least 1"):
        call_command("fair_play_report", "--days", "0", stdout=StringIO())
    assert not FairPlaySignal.objects.exists()


def test_only_operators_see_the_page(as_user, player, auditor, operator, signals):
    assert as_user(None).get(PAGE).status_code == 302
    assert as_user(player).get(PAGE).status_code == 403
    assert as_user(auditor).get(PAGE).status_code == 403
    response = as_user(operator).get(PAGE)
    assert response.status_code == 200
    assert (
        reverse("operators-fair-play").encode()
        in as_user(operator).get(reverse("operators-players")).content
    )


def test_the_page_lists_each_signal_with_its_players_figures_and_sentence(
    as_user, operator, people, signals
):
    body = as_user(operator).get(PAGE).content.decode()

    assert reverse("operators-player", args=[people["ann"].pk]) in body
    assert reverse("operators-player", args=[people["dan"].pk]) in body
    assert format_cents(15_000) in body
    assert "lost $150.00 more to ben" in body
    assert "logged in from the same address with the same browser" in body
    assert "address_and_agent" not in body  # the page says it in words, not codes


def test_the_filters_narrow_the_list(as_user, operator, people, signals):
    client = as_user(operator)
    flows = client.get(PAGE, {"kind": FairPlayKind.ONE_WAY_FLOW}).content.decode()
    shared = client.get(PAGE, {"kind": FairPlayKind.SHARED_ADDRESS}).content.decode()
    other_day = client.get(PAGE, {"day": "2026-03-11"}).content.decode()
    that_day = client.get(PAGE, {"day": DAY.isoformat()}).content.decode()

    assert f'id="signal-{signals["one_way_flow"].pk}"' in flows
    assert f'id="signal-{signals["shared_address"].pk}"' not in flows
    assert f'id="signal-{signals["shared_address"].pk}"' in shared
    assert f'id="signal-{signals["one_way_flow"].pk}"' not in shared
    assert "No signal found." in other_day
    assert that_day.count('class="fair-play-signal"') == 2


def test_a_review_is_kept_and_logged(as_user, operator, signals):
    signal = signals["one_way_flow"]
    url = reverse("operators-fair-play-review", args=[signal.pk])

    response = as_user(operator).post(url, {"note": "  Brothers; told them the rules. "})

    assert response.status_code == 302
    signal.refresh_from_db()
    assert (signal.reviewed_by, signal.note) == (operator, "Brothers; told them the rules.")
    assert signal.reviewed_at is not None
    action = OperatorAction.objects.get(kind=OperatorActionKind.FAIR_PLAY_REVIEW)
    assert (action.actor, action.reason) == (operator, "Brothers; told them the rules.")
    assert action.details["signal"] == signal.pk
    assert action.details["players"] == ["ann", "ben"]
    assert action_words(action) == f"Fair play signal of {DAY.isoformat()} about ann & ben reviewed"
    assert "Reviewed by olga" in as_user(operator).get(PAGE).content.decode()


def test_an_empty_review_or_a_non_operator_changes_nothing(as_user, operator, auditor, signals):
    signal = signals["shared_address"]
    url = reverse("operators-fair-play-review", args=[signal.pk])

    response = as_user(operator).post(url, {"note": "   "}, follow=True)
    refused = as_user(auditor).post(url, {"note": "fine"})

    assert "A review needs a note saying what you found." in response.content.decode()
    assert refused.status_code == 403
    signal.refresh_from_db()
    assert (signal.reviewed_at, signal.note) == (None, "")
    assert not OperatorAction.objects.filter(kind=OperatorActionKind.FAIR_PLAY_REVIEW).exists()


def test_the_page_costs_the_same_queries_for_more_signals(
    as_user, operator, make_player, tables, signals
):
    client = as_user(operator)
    few = queries(lambda: client.get(PAGE))
    for n in range(10):
        FairPlaySignal.objects.create(
            kind=FairPlayKind.ONE_WAY_FLOW, day=DAY, player_a=make_player(f"a{n}"),
            player_b=make_player(f"b{n}"), tables=[tables[n % 2].pk], net=20_000,
            gross=20_000, hands=6, details={"days": 7, "one_way_percent": 100},
        )  # fmt: skip

    many = queries(lambda: client.get(PAGE))

    assert client.get(PAGE).content.decode().count('class="fair-play-signal"') == 12
    assert many == few
