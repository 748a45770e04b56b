"""The admin shows money read-only: nothing can be added, changed or deleted there."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.models import Transfer
from tests.conftest import login_with_two_factor

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client, make_player):
    admin = make_player("root")
    admin.is_staff = True
    admin.is_superuser = True
    admin.save()
    login_with_two_factor(client, admin)  # staff give a second factor before the admin opens
    return client


def test_transfer_list_shows_totals(staff_client, alice, bob):
    page = staff_client.get(reverse("admin:accounts_transfer_changelist")).content.decode()
    assert "<strong>3</strong> transfers shown, totalling <strong>$3,000.00</strong>" in page


def test_transfer_list_filters_by_kind(staff_client, alice):
    url = reverse("admin:accounts_transfer_changelist") + "?kind__exact=reload"
    assert "<strong>0</strong> transfers shown" in staff_client.get(url).content.decode()


def test_transfers_cannot_be_added_changed_or_deleted_in_the_admin(staff_client, alice):
    transfer = Transfer.objects.get(idempotency_key=f"grant:u{alice.pk}")
    assert staff_client.get(reverse("admin:accounts_transfer_add")).status_code == 403
    change = reverse("admin:accounts_transfer_change", args=[transfer.pk])
    response = staff_client.post(change, {"amount": 1})
    assert response.status_code == 403
    delete = reverse("admin:accounts_transfer_delete", args=[transfer.pk])
    assert staff_client.post(delete, {"post": "yes"}).status_code == 403
    transfer.refresh_from_db()
    assert transfer.amount == 100_000


def test_accounts_and_audits_are_read_only(staff_client):
    assert staff_client.get(reverse("admin:accounts_account_add")).status_code == 403
    assert staff_client.get(reverse("admin:accounts_ledgeraudit_add")).status_code == 403
