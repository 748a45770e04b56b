"""Personas of the operator and audit tests: a player, an operator, an auditor, staff, and a
visitor who is not logged in (a bare client)."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group
from django.test import Client

from tests.conftest import login_with_two_factor

__all__ = ["as_user", "auditor", "operator", "player", "staff_only", "superuser"]


def _member(user, group: str, *, staff: bool = False):
    user.groups.add(Group.objects.get(name=group))
    if staff:
        user.is_staff = True
        user.save(update_fields=["is_staff"])
    return user


@pytest.fixture
def operator(make_player):
    """In the Operators group; not staff: the console is outside the admin."""
    return _member(make_player("olga"), "Operators")


@pytest.fixture
def auditor(make_player):
    """In the Auditors group, and staff so the admin lets them in."""
    return _member(make_player("audra"), "Auditors", staff=True)


@pytest.fixture
def staff_only(make_player):
    """Staff with no role: the admin lets them in, the audit pages do not."""
    user = make_player("stan")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    return user


@pytest.fixture
def superuser(make_player):
    user = make_player("root")
    user.is_staff = user.is_superuser = True
    user.save(update_fields=["is_staff", "is_superuser"])
    return user


@pytest.fixture
def player(make_player):
    return make_player("pat")


@pytest.fixture
def as_user():
    """A logged-in client for a user, with the second factor given (staff need it for the
    console and the admin), or a visitor's client for None."""

    def client_for(user) -> Client:
        client = Client()
        if user is not None:
            login_with_two_factor(client, user)
        return client

    return client_for
