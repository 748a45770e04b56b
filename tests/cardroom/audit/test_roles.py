"""Joining a staff role opens the admin; leaving the last one closes it
(cardroom/audit/roles.py)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse

from accounts.models import User
from accounts.services import user_create
from tests.conftest import login_with_two_factor

pytestmark = pytest.mark.django_db


def staff(user: User) -> bool:
    return User.objects.get(pk=user.pk).is_staff


def test_an_auditor_added_to_the_group_opens_the_audit_pages(client):
    audrey = user_create(username="audrey", password="pw-long-enough-1")
    login_with_two_factor(client, audrey)
    assert client.get(reverse("admin:index")).status_code == 302  # to the admin's login

    audrey.groups.add(Group.objects.get(name="Auditors"))

    assert staff(audrey)
    assert client.get(reverse("admin:accounts_transfer_changelist")).status_code == 200


def test_adding_from_the_groups_side_and_leaving_the_role(client):
    olga = user_create(username="olga")
    operators, auditors = (Group.objects.get(name=name) for name in ("Operators", "Auditors"))
    operators.user_set.add(olga)
    assert not staff(olga)  # the operators' console is outside the admin
    auditors.user_set.add(olga)
    assert staff(olga)

    operators.user_set.remove(olga)
    assert staff(olga)  # still an auditor
    olga.groups.remove(auditors)
    assert not staff(olga)


def test_staff_set_by_hand_and_superusers_are_left_alone():
    hand = user_create(username="hand")
    User.objects.filter(pk=hand.pk).update(is_staff=True)
    hand.refresh_from_db()
    other = Group.objects.create(name="Regulars")
    hand.groups.add(other)
    hand.groups.remove(other)
    assert staff(hand)

    root = user_create(username="root")
    root.is_superuser = root.is_staff = True
    root.save()
    auditors = Group.objects.get(name="Auditors")
    root.groups.add(auditors)
    root.groups.remove(auditors)
    assert staff(root)
