"""Sign-up, log-in, the cashier and the reload, through Django's test client."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.ledger import account_for, ledger_transfer, rake_account
from accounts.models import AccountKind, Transfer, TransferKind, User
from accounts.selectors import bankroll_balance
from accounts.services import seat_buy_in

pytestmark = pytest.mark.django_db


def test_sign_up_creates_a_player_with_the_grant_and_logs_in(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "dora",
            "password1": "a-long-passphrase-9",
            "password2": "a-long-passphrase-9",
        },
    )
    assert response.status_code == 302 and response.url == reverse("cashier")
    dora = User.objects.get(username="dora")
    assert bankroll_balance(user=dora) == 100_000
    page = client.get(reverse("cashier"))
    assert "$1,000.00" in page.content.decode()


def test_sign_up_with_mismatched_passwords_shows_the_error(client):
    response = client.post(
        reverse("signup"), {"username": "eve", "password1": "a-long-pass-1", "password2": "nope"}
    )
    assert response.status_code == 200
    assert "didn’t match" in response.content.decode()
    assert not User.objects.filter(username="eve").exists()


def test_log_in_and_out(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "pw-alice"})
    assert response.status_code == 302
    assert client.get(reverse("cashier")).status_code == 200
    client.post(reverse("logout"))
    assert client.get(reverse("cashier")).status_code == 302


def test_wrong_password_is_refused(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "wrong"})
    assert response.status_code == 200
    assert "enter a correct username and password" in response.content.decode()


def test_cashier_needs_a_login(client):
    response = client.get(reverse("cashier"))
    assert response.status_code == 302 and reverse("login") in response.url


def test_bankroll_shows_on_every_page(client, alice):
    client.force_login(alice)
    assert 'id="bankroll"' in client.get(reverse("home")).content.decode()


def test_cashier_offers_reload_when_low_and_reloads_once(client, alice):
    seat_buy_in(
        user=alice, table_id=1, amount=95_000, min_buy_in=0, max_buy_in=None,
        idempotency_key="spend",
    )  # fmt: skip
    # Lost at the table: chips on a table count towards the reload rule, lost ones do not.
    ledger_transfer(
        source=account_for(kind=AccountKind.STACK, user=alice, table_id=1),
        target=rake_account(), amount=95_000, kind=TransferKind.RAKE, idempotency_key="lost",
    )  # fmt: skip
    client.force_login(alice)
    page = client.get(reverse("cashier")).content.decode()
    assert "Reload $950.00" in page
    for _ in range(2):
        client.post(reverse("reload"), {"request_id": "abc"})
    assert bankroll_balance(user=alice) == 100_000
    assert Transfer.objects.filter(kind=TransferKind.RELOAD).count() == 1


def test_reload_refused_when_not_low_says_why(client, alice):
    client.force_login(alice)
    response = client.post(reverse("reload"), {"request_id": "abc"}, follow=True)
    assert (
        "No reload: a reload is offered below $100.00 in all (bankroll and chips on tables);"
        " you hold $1,000.00." in response.content.decode()
    )
    assert bankroll_balance(user=alice) == 100_000


def test_reload_needs_post_and_csrf(alice):
    from django.test import Client

    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(alice)
    assert csrf_client.get(reverse("reload")).status_code == 405
    assert csrf_client.post(reverse("reload"), {"request_id": "x"}).status_code == 403
