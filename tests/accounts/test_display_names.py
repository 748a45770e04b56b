"""Display names (accounts/display_names.py): what others see; never a card, a seat or a staff
role, never someone else's name; set on the account page and shown in the header."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts.display_names import check_display_name, reads_as
from accounts.models import User

pytestmark = pytest.mark.django_db

CARDS = ["10h", "As", "Ah.", "K of hearts", "Ace of spades", "the ace of spades", "KdQd",
         "queen-hearts", "AceOfSpades99", "2 of clubs"]  # fmt: skip
SEATS = ["Seat 3", "S3", "seat_10", "SEAT-THREE", "Empty", "empty seat", "s 12"]
ROLES = ["Operator", "operator7", "ADMIN", "__admin__", "Dealer", "dealer dan", "The House",
         "TheHouse", "house-9", "Auditor", "support", "Support Team", "staff", "Moderator",
         "cardroom", "adm1n", "0perator", "h0use", "Admins", "Cardroom Staff"]  # fmt: skip
FINE = ["Lucky Lou", "Housecat", "Theo", "Ashley", "Kings Row", "Seattle", "Jack", "Ace",
        "Staffordshire", "Supportive", "Sam_99", "Dora.K", "Bernadette"]  # fmt: skip


@pytest.mark.parametrize("name", CARDS)
def test_a_name_that_reads_as_a_card_is_refused(name):
    assert reads_as(name) == "card"
    with pytest.raises(ValidationError, match="could be taken for a card"):
        check_display_name(name)


@pytest.mark.parametrize("name", SEATS)
def test_a_name_that_reads_as_a_seat_is_refused(name):
    assert reads_as(name) == "seat"
    with pytest.raises(ValidationError, match="could be taken for a seat at the table"):
        check_display_name(name)


@pytest.mark.parametrize("name", ROLES)
def test_a_name_that_reads_as_the_staff_or_the_house_is_refused(name):
    assert reads_as(name) == "role"
    with pytest.raises(ValidationError, match="could be taken for the staff or the house"):
        check_display_name(name)


@pytest.mark.parametrize("name", FINE)
def test_ordinary_names_pass(name):
    assert check_display_name(name) == name


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Al", "3 to 24 characters"),
        ("x" * 25, "3 to 24 characters"),
        ("Zoë", "letters A to Z"),
        ("K♠ fan", "letters A to Z"),
        ("bob<script>", "letters A to Z"),
        ("12345", "at least one letter"),
        ("--- ", "at least one letter"),
    ],
)
def test_length_and_characters(name, message):
    with pytest.raises(ValidationError, match=message):
        check_display_name(name)


def test_spaces_are_tidied():
    assert check_display_name("  Lucky    Lou  ") == "Lucky Lou"


def set_name(client: Client, name: str, email: str = ""):
    return client.post(reverse("account-profile"), {"display_name": name, "email": email})


def test_the_account_page_sets_the_name_and_the_header_shows_it(alice):
    client = Client()
    client.force_login(alice)
    page = client.get(reverse("account")).content.decode()
    assert '<span class="who">alice</span>' in page
    assert f'href="{reverse("account")}">Account</a>' in page
    response = set_name(client, "  Lucky   Lou ", "alice@example.com")
    assert response.status_code == 302
    alice.refresh_from_db()
    assert (alice.display_name, alice.public_name, alice.email) == (
        "Lucky Lou",
        "Lucky Lou",
        "alice@example.com",
    )
    assert '<span class="who">Lucky Lou</span>' in client.get(reverse("lobby")).content.decode()
    assert set_name(client, "").status_code == 302
    alice.refresh_from_db()
    assert alice.public_name == "alice"


def test_a_refused_name_is_explained_and_changes_nothing(alice):
    client = Client()
    client.force_login(alice)
    response = set_name(client, "The Dealer")
    assert response.status_code == 400
    page = response.content.decode()
    assert "That name could be taken for the staff or the house" in page
    assert '<span class="who">alice</span>' in page
    alice.refresh_from_db()
    assert alice.display_name == ""


def test_a_name_is_nobody_elses_in_any_case(alice, bob):
    alice.display_name = "Lucky Lou"
    alice.save()
    client = Client()
    client.force_login(bob)
    for taken in ("lucky lou", "ALICE", "Bob"):
        response = set_name(client, taken)
        if taken == "Bob":
            assert response.status_code == 302  # bob's own username
            continue
        assert response.status_code == 400
        assert "Someone already uses that name" in response.content.decode()
    # The database holds the rule too, whatever the case.
    bob.display_name = "LUCKY LOU"
    with pytest.raises(IntegrityError), transaction.atomic():
        bob.save()


def test_sign_up_refuses_a_username_that_imitates_or_takes_a_name(client, alice):
    alice.display_name = "Lucky Lou"
    alice.save()
    for username, message in [
        ("dealer", "could be taken for the staff or the house"),
        ("seat3", "could be taken for a seat"),
        ("10h", "could be taken for a card"),
        ("lucky lou", "already uses that name"),
    ]:
        response = client.post(
            reverse("signup"),
            {"username": username, "password1": "a-long-pass-99", "password2": "a-long-pass-99"},
        )
        assert message in response.content.decode(), username
    assert not User.objects.filter(username__in=["dealer", "seat3", "10h"]).exists()
