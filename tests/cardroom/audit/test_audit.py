"""The audit: the rake report (page, chart, CSV, drill-down, command), hands with their deck
and commitment, the ledger audit button, and an admin that changes nothing."""

from __future__ import annotations

import csv
import io
import json
import re
from datetime import UTC, date, datetime, timedelta
from unittest import mock

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from accounts.ledger import account_for, cashier_account, ledger_transfer, rake_account
from accounts.models import AccountKind, LedgerAudit, Transfer
from cardroom.audit.reports import rake_report
from cardroom.models import Game, Hand, HandEvent, OperatorAction, Table
from cardroom.tables.runtime import table_act, table_create, table_timeout
from tests.cardroom.personas import *  # noqa: F403  (the personas' fixtures)

pytestmark = pytest.mark.django_db

DAY1 = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
DAY2 = datetime(2025, 3, 3, 23, 59, tzinfo=UTC)


def rake(amount: int, *, table: Table, hand: int | None, kind: str, at: datetime, key: str):
    """A rake transfer on a given day (the clock is set, since ``created`` is automatic)."""
    with mock.patch("django.utils.timezone.now", return_value=at):
        return ledger_transfer(
            source=cashier_account(),
            target=rake_account(),
            amount=amount,
            kind=kind,
            idempotency_key=key,
            table_id=table.pk,
            hand_id=hand,
        )


@pytest.fixture
def rakes(db):
    """Rake and fees at two tables of two games over two days, and one transfer that is not
    rake (a bankroll grant) that the report must leave out."""
    guts = table_create(game="guts", preset="survivor", options={"ante": 100}, name="Guts $1")
    chinese = table_create(game="chinese_poker", preset="unit-1", options={}, name="CP $1")
    rake(9, table=guts, hand=None, kind="rake", at=DAY1, key="r1")
    rake(300, table=guts, hand=None, kind="rake", at=DAY1, key="r2")
    rake(20, table=chinese, hand=None, kind="fee", at=DAY1, key="r3")
    rake(40, table=chinese, hand=None, kind="fee", at=DAY2, key="r4")
    with mock.patch("django.utils.timezone.now", return_value=DAY1):
        ledger_transfer(
            source=cashier_account(),
            target=account_for(kind=AccountKind.POT, table_id=guts.pk),
            amount=5_000,
            kind="ante",
            idempotency_key="not-rake",
            table_id=guts.pk,
        )
    rake(7, table=guts, hand=None, kind="rake", at=DAY2 + timedelta(days=1), key="outside")
    return guts, chinese


def test_the_report_totals_equal_the_rake_transfers(rakes):
    guts, chinese = rakes
    report = rake_report(start=date(2025, 3, 1), end=date(2025, 3, 3))
    expected = Transfer.objects.filter(
        target__kind="rake",
        created__date__gte=date(2025, 3, 1),
        created__date__lte=date(2025, 3, 3),
    )
    assert report.total == sum(t.amount for t in expected) == 369
    assert sum(row["cents"] for row in report.by_day) == report.total
    assert sum(row["cents"] for row in report.by_table) == report.total
    assert sum(row["cents"] for row in report.by_game) == report.total
    assert sum(row["cents"] for row in report.rows) == report.total
    assert [(row["day"].day, row["cents"]) for row in report.by_day] == [(1, 329), (2, 0), (3, 40)]
    original = {"from", "to", "total", "by_day", "by_table", "by_game"}
    assert {key: value for key, value in report.to_json().items() if key in original} == {
        "from": "2025-03-01",
        "to": "2025-03-03",
        "total": 369,
        "by_day": {"2025-03-01": 329, "2025-03-02": 0, "2025-03-03": 40},
        "by_table": {str(guts.pk): 309, str(chinese.pk): 60},
        "by_game": {"chinese_poker": 60, "guts": 309},
    }


def test_the_command_prints_the_report_as_json(rakes):
    out = io.StringIO()
    call_command("rake_report", "--from", "2025-03-01", "--to", "2025-03-03", "--json", stdout=out)
    data = json.loads(out.getvalue())
    # The keys it always printed; the house result's are checked in test_house_results.py.
    assert set(data) >= {"from", "to", "total", "by_day", "by_table", "by_game"}
    assert data["total"] == 369
    assert all(
        isinstance(v, int) for key in ("by_day", "by_table", "by_game") for v in data[key].values()
    )
    out = io.StringIO()
    call_command("rake_report", "--from", "2025-03-04", "--to", "2025-03-04", stdout=out)
    assert out.getvalue().splitlines()[-1] == "total: $0.07 (7 cents)"


def test_the_command_refuses_bad_dates_in_words(db):
    with pytest.raises(CommandError, match="'2025-13-01' is not a date: write YYYY-MM-DD"):
        call_command("rake_report", "--from", "2025-13-01", "--to", "2025-12-31")
    with pytest.raises(CommandError, match="ends"):
        call_command("rake_report", "--from", "2025-03-02", "--to", "2025-03-01")


REPORT = reverse("audit-rake") + "?from=2025-03-01&to=2025-03-03"
CSV = reverse("audit-rake-csv") + "?from=2025-03-01&to=2025-03-03"


def page_rows(page: str) -> list[list[str]]:
    rows = re.findall(r'<tr class="rake-row">(.*?)</tr>', page, re.S)
    cells = [re.findall(r"<td[^>]*>(.*?)</td>", row, re.S) for row in rows]
    return [[re.sub(r"<[^>]+>", "", cell).strip() for cell in row] for row in cells]


def test_the_page_shows_totals_a_chart_and_the_rows_the_csv_exports(as_user, auditor, rakes):
    guts, _ = rakes
    client = as_user(auditor)
    page = client.get(REPORT).content.decode()
    assert '<strong id="rake-total">$3.69</strong>' in page
    assert len(re.findall(r"<rect ", page)) == 3  # one bar a day, in a server-drawn SVG
    rows = page_rows(page)
    exported = list(csv.reader(io.StringIO(client.get(CSV).content.decode())))
    assert exported[0][:6] == ["day", "table_id", "table", "game", "transfers", "cents"]
    assert exported[-1][:6] == ["total", "", "", "", "4", "369"]
    assert len(rows) == len(exported) - 2 == 3
    for shown, line in zip(rows, exported[1:-1], strict=True):
        day, table_id, name, game, transfers, cents = line[:6]
        # The page names the game; the CSV keeps its code for programs.
        assert shown[:5] == [day, f"#{table_id} {name}", Game(game).label, transfers, cents]
    assert exported[1][:6] == ["2025-03-01", str(guts.pk), "Guts $1", "guts", "2", "309"]


def test_the_drill_down_lists_the_hands_and_their_transfers(
    as_user, auditor, survivor_table, seated
):
    table_timeout(table_id=survivor_table.pk, now=Table.objects.get().deadline + timedelta(1e-2))
    for person in seated:
        table_act(table_id=survivor_table.pk, user=person, action={"kind": "ante"})
    for person, choice in zip(seated, ["in", "in", "out"], strict=True):
        table_act(
            table_id=survivor_table.pk, user=person, action={"kind": "declare", "choice": choice}
        )
    hand = Hand.objects.get()
    taken = Transfer.objects.get(target__kind="rake")
    # The table's own rake account (no one account every table's showdown would lock).
    assert (taken.target.code, taken.target.table_id) == (
        f"rake:t{survivor_table.pk}",
        survivor_table.pk,
    )
    assert taken.target.balance == taken.amount == 9
    url = reverse("audit-rake-hands") + f"?day={taken.created.date()}&table={survivor_table.pk}"
    page = as_user(auditor).get(url).content.decode()
    assert '<strong id="drill-total">$0.09</strong>' in page
    assert reverse("admin:cardroom_hand_change", args=[hand.pk]) in page
    for transfer in Transfer.objects.filter(hand_id=hand.pk):
        assert f"<td>{transfer.pk}</td>" in page


AUDIT_PAGES = [REPORT, CSV, reverse("audit-rake-hands") + "?day=2025-03-01&table=none"]


@pytest.mark.parametrize("persona", [None, "player", "operator"])
def test_the_audit_pages_send_non_staff_to_the_admin_login(request, persona, as_user, db):
    user = request.getfixturevalue(persona) if persona else None
    client = as_user(user)
    for url in AUDIT_PAGES:
        response = client.get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))


def test_the_audit_pages_refuse_staff_without_the_auditors_permission(as_user, staff_only):
    for url in AUDIT_PAGES:
        assert as_user(staff_only).get(url).status_code == 403


def test_auditors_and_superusers_read_the_audit_pages(as_user, auditor, superuser):
    for user in (auditor, superuser):
        for url in AUDIT_PAGES:
            assert as_user(user).get(url).status_code == 200, url
    assert "Rake report" in as_user(auditor).get(reverse("admin:index")).content.decode()


def test_a_bad_range_is_refused_in_words(as_user, auditor):
    response = as_user(auditor).get(reverse("audit-rake") + "?from=2025-03-05&to=2025-03-01")
    assert response.status_code == 400
    assert "The range ends (2025-03-01) before it starts (2025-03-05)." in response.content.decode()


# Hands


@pytest.fixture
def dealt(survivor_table, seated):
    """A hand in play: dealt, nobody declared yet."""
    table_timeout(table_id=survivor_table.pk, now=Table.objects.get().deadline + timedelta(1e-2))
    for person in seated:
        table_act(table_id=survivor_table.pk, user=person, action={"kind": "ante"})
    return Hand.objects.get()


def finish(hand: Hand, players) -> None:
    for person, choice in zip(players, ["in", "in", "out"], strict=True):
        table_act(table_id=hand.table_id, user=person, action={"kind": "declare", "choice": choice})
    hand.refresh_from_db()
    assert hand.ended is not None


def main_part(response) -> str:
    """An admin page's own content, without the admin's icons (whose paths read "2h")."""
    page = response.content.decode()
    return page[page.index('id="content-main"') : page.index("<!-- END Content -->")]


def hole_cards(hand: Hand) -> list[str]:
    events = HandEvent.objects.filter(hand=hand, type="cards_dealt")
    return [card for event in events for card in event.data["cards"]]


def test_a_hand_in_play_hides_its_private_events_and_deck(as_user, auditor, dealt):
    client = as_user(auditor)
    page = main_part(client.get(reverse("admin:cardroom_hand_change", args=[dealt.pk])))
    assert "Verified" in page
    assert 'id="deck"' not in page
    assert page.count("private: shown once the hand has ended") == 3
    for card in hole_cards(dealt):
        assert not re.search(rf"\b{card}\b", page)
    event = HandEvent.objects.filter(hand=dealt, type="cards_dealt").first()
    page = main_part(client.get(reverse("admin:cardroom_handevent_change", args=[event.pk])))
    assert "private: shown once the hand has ended" in page
    for card in event.data["cards"]:
        assert not re.search(rf"\b{card}\b", page)
    page = main_part(client.get(reverse("admin:cardroom_table_change", args=[dealt.table_id])))
    assert "Survivor $1" in page
    for card in hole_cards(dealt):
        assert not re.search(rf"\b{card}\b", page)


def test_a_finished_hand_shows_its_events_in_order_its_deck_and_that_it_verifies(
    as_user, auditor, dealt, seated
):
    finish(dealt, seated)
    page = (
        as_user(auditor)
        .get(reverse("admin:cardroom_hand_change", args=[dealt.pk]))
        .content.decode()
    )
    assert '<strong class="audit-ok">Verified</strong>' in page
    assert len(re.findall(r"<tr><td>\d+</td><td>[2-9TJQKA][cdhs]</td>", page)) == 52
    seqs = [int(s) for s in re.findall(r"<tr><td>(\d+)</td><td>\d+</td><td>[a-z_]+</td>", page)]
    assert seqs == sorted(seqs) and len(seqs) == HandEvent.objects.filter(hand=dealt).count()
    for card in hole_cards(dealt):
        assert card in page


def test_a_tampered_deck_does_not_verify(as_user, auditor, dealt, seated):
    finish(dealt, seated)
    deck = dict(dealt.deck)
    deck["deck"] = [deck["deck"][1], deck["deck"][0], *deck["deck"][2:]]
    Hand.objects.filter(pk=dealt.pk).update(deck=deck)
    page = (
        as_user(auditor)
        .get(reverse("admin:cardroom_hand_change", args=[dealt.pk]))
        .content.decode()
    )
    assert "Does not verify" in page
    other = Hand.objects.get(pk=dealt.pk)
    Hand.objects.filter(pk=dealt.pk).update(deck=dict(dealt.deck), commitment_root="0" * 64)
    page = (
        as_user(auditor)
        .get(reverse("admin:cardroom_hand_change", args=[other.pk]))
        .content.decode()
    )
    assert "the stored deck&#x27;s root is not the published commitment root" in page


def test_players_and_operators_cannot_read_hands_in_the_admin(as_user, player, operator, dealt):
    url = reverse("admin:cardroom_hand_change", args=[dealt.pk])
    for user in (player, operator):
        assert as_user(user).get(url)["Location"].startswith(reverse("admin:login"))


# Nothing changes through the admin


@pytest.mark.parametrize("model", ["hand", "handevent", "table", "seat", "operatoraction"])
def test_the_admin_refuses_to_add_change_or_delete_cardroom_records(
    as_user, superuser, operator, dealt, model
):
    OperatorAction.objects.create(actor=operator, kind="bots_change", reason="r")
    objects = {
        "hand": dealt,
        "handevent": HandEvent.objects.filter(hand=dealt).first(),
        "table": dealt.table,
        "seat": dealt.table.seats.first(),
        "operatoraction": OperatorAction.objects.get(),
    }
    target = objects[model]
    client = as_user(superuser)
    assert client.get(reverse(f"admin:cardroom_{model}_add")).status_code == 403
    response = client.post(reverse(f"admin:cardroom_{model}_change", args=[target.pk]), {"x": 1})
    # The hand's page is its audit page, whatever the method: it has no form to save.
    assert response.status_code == (200 if model == "hand" else 403)
    delete = reverse(f"admin:cardroom_{model}_delete", args=[target.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert type(target).objects.filter(pk=target.pk).exists()


def test_the_admin_refuses_to_change_transfers(as_user, superuser, rakes):
    transfer = Transfer.objects.get(idempotency_key="r1")
    client = as_user(superuser)
    assert client.get(reverse("admin:accounts_transfer_add")).status_code == 403
    change = reverse("admin:accounts_transfer_change", args=[transfer.pk])
    assert client.post(change, {"amount": 1}).status_code == 403
    delete = reverse("admin:accounts_transfer_delete", args=[transfer.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert Transfer.objects.get(pk=transfer.pk).amount == 9


def test_a_hand_posted_to_changes_nothing(as_user, superuser, dealt):
    before = Hand.objects.filter(pk=dealt.pk).values().get()
    url = reverse("admin:cardroom_hand_change", args=[dealt.pk])
    as_user(superuser).post(url, {"commitment_root": "0" * 64, "void_reason": "x"})
    assert Hand.objects.filter(pk=dealt.pk).values().get() == before


# The ledger audit


def test_the_ledger_audit_shows_its_status_and_runs_from_a_button(as_user, auditor, alice):
    client = as_user(auditor)
    listing = reverse("admin:accounts_ledgeraudit_changelist")
    assert "The ledger has never been audited." in client.get(listing).content.decode()
    response = client.post(reverse("admin:accounts_ledgeraudit_run"))
    assert response["Location"] == listing
    audit = LedgerAudit.objects.get()
    assert (audit.ok, audit.actor) == (True, "audra")
    page = client.get(listing).content.decode()
    assert '<strong class="audit-ok">OK</strong>' in page
    assert "run by audra" in page
    assert client.get(reverse("admin:accounts_ledgeraudit_run")).status_code == 405


def test_only_auditors_run_the_ledger_audit(as_user, player, staff_only):
    url = reverse("admin:accounts_ledgeraudit_run")
    assert as_user(player).post(url)["Location"].startswith(reverse("admin:login"))
    assert as_user(staff_only).post(url).status_code == 403
    assert not LedgerAudit.objects.exists()
