"""Login throttling (accounts/lockouts.py): five failures lock an account, or an address, for
fifteen minutes, said in words; the lock is kept in the database and released by time, by an
operator, or by a password reset; a guessed API token counts as a failed login."""

from __future__ import annotations

from datetime import UTC, timedelta

import pytest
from asgiref.sync import sync_to_async
from axes.models import AccessAttempt, AccessFailureLog
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from accounts.lockouts import BEARER
from cardroom.realtime.auth import token_create
from tests.accounts.sockets import a_table, open_socket
from tests.conftest import login_with_two_factor

pytestmark = pytest.mark.django_db


def log_in(client: Client, username: str, password: str, address: str = "10.0.0.1"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def lock_alice(client: Client) -> None:
    """Five wrong passwords for alice, each from an address of its own: only the account
    reaches the limit."""
    for attempt in range(settings.LOGIN_FAILURE_LIMIT):
        response = log_in(client, "alice", "wrong", address=f"10.1.0.{attempt}")
    assert response.status_code == 429


def until(**lookup) -> str:
    newest = AccessAttempt.objects.filter(**lookup).order_by("-attempt_time").first()
    assert newest is not None
    return (newest.attempt_time + timedelta(minutes=15)).astimezone(UTC).strftime("%H:%M")


def test_the_limit_and_the_cool_off_are_the_configured_ones():
    assert settings.LOGIN_FAILURE_LIMIT == settings.AXES_FAILURE_LIMIT == 5
    assert settings.LOGIN_COOL_OFF == settings.AXES_COOLOFF_TIME == timedelta(minutes=15)
    assert settings.AUTHENTICATION_BACKENDS[0] == "accounts.lockouts.LockoutBackend"


def test_the_test_clients_login_still_works_and_counts_nothing(alice):
    # authenticate() without a request is no login from anyone (accounts.lockouts).
    assert Client().login(username="alice", password="pw-alice")
    assert not Client().login(username="alice", password="wrong")
    assert not AccessAttempt.objects.exists()


def test_each_wrong_password_says_how_many_tries_are_left(client, alice):
    response = log_in(client, "alice", "wrong")
    assert response.status_code == 200
    page = response.content.decode()
    assert "enter a correct username and password" in page
    assert "4 more wrong tries and logging in stops for 15 minutes" in page
    for _ in range(3):
        response = log_in(client, "alice", "wrong")
    assert "One more wrong try and logging in stops for 15 minutes" in response.content.decode()


def test_five_failures_lock_the_account_even_for_the_right_password(client, alice, bob):
    lock_alice(client)
    response = log_in(client, "alice", "pw-alice", address="10.2.0.1")
    assert response.status_code == 429
    message = (
        f"Too many failed logins for this account. Try again after {until(username='alice')} "
        "UTC, or reset your password."
    )
    assert message in response.content.decode()
    assert "_auth_user_id" not in client.session
    # Another player logs in from anywhere as usual.
    assert log_in(client, "bob", "pw-bob", address="10.2.0.2").status_code == 302


def test_a_try_during_the_lockout_does_not_move_its_end(client, alice):
    lock_alice(client)
    newest = AccessAttempt.objects.order_by("-attempt_time").values_list("attempt_time", flat=True)
    before = newest.first()
    for _ in range(3):
        assert log_in(client, "alice", "wrong", address="10.2.0.9").status_code == 429
    assert newest.first() == before
    assert AccessAttempt.objects.filter(ip_address="10.2.0.9").count() == 0


def test_five_failures_from_one_address_lock_that_address_only(client, alice):
    for name in ("ann", "ben", "cat", "dan", "eve"):
        log_in(client, name, "guess", address="10.3.0.1")
    response = log_in(client, "alice", "pw-alice", address="10.3.0.1")
    assert response.status_code == 429
    assert (
        f"Too many failed logins from your address. Try again after "
        f"{until(ip_address='10.3.0.1')} UTC." in response.content.decode()
    )
    assert log_in(Client(), "alice", "pw-alice", address="10.3.0.2").status_code == 302


def test_the_lock_is_released_when_the_cool_off_has_passed(client, alice):
    lock_alice(client)
    assert log_in(client, "alice", "pw-alice").status_code == 429
    newest = AccessAttempt.objects.order_by("-attempt_time").first().attempt_time
    AccessAttempt.objects.update(attempt_time=newest - timedelta(minutes=15, seconds=1))
    assert log_in(client, "alice", "pw-alice").status_code == 302


def test_an_operator_releases_a_lock_with_the_axes_command(client, alice):
    lock_alice(client)
    call_command("axes_reset_username", "alice", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert log_in(client, "alice", "pw-alice").status_code == 302


def test_the_count_lives_in_the_database_so_every_process_sees_it(client, alice):
    for _ in range(4):
        log_in(client, "alice", "wrong", address="10.4.0.1")
    # A second server process shares nothing with this one but the database: a fresh client
    # (a new connection, a new session) meets the same count.
    assert AccessAttempt.objects.get(username="alice").failures_since_start == 4
    assert log_in(Client(), "alice", "wrong", address="10.4.0.2").status_code == 429


def test_lockouts_are_listed_in_the_admin_for_staff(client, alice, make_player):
    lock_alice(client)
    root = make_player("root")
    root.is_staff = root.is_superuser = True
    root.save()
    admin = Client()
    login_with_two_factor(admin, root)
    page = admin.get(reverse("admin:axes_accessattempt_changelist"))
    assert page.status_code == 200
    assert "alice" in page.content.decode() and "Locked Out" in page.content.decode()
    assert AccessFailureLog.objects.filter(username="alice").count() == 5
    # Auditors read them (and change nothing); operators may also release one.
    audra = make_player("audra")
    audra.groups.add(Group.objects.get(name="Auditors"))
    auditor = Client()
    login_with_two_factor(auditor, audra)
    assert auditor.get(reverse("admin:axes_accessattempt_changelist")).status_code == 200
    attempt = AccessAttempt.objects.first()
    delete = reverse("admin:axes_accessattempt_delete", args=[attempt.pk])
    assert auditor.post(delete, {"post": "yes"}).status_code == 403
    operators = Group.objects.get(name="Operators").permissions.values_list("codename", flat=True)
    assert {"view_accessattempt", "delete_accessattempt"} <= set(operators)


@pytest.mark.django_db(transaction=True)
async def test_guessed_tokens_lock_the_address_for_every_token(alice):
    table = await a_table()
    good = await sync_to_async(token_create)(user=alice)
    for attempt in range(settings.LOGIN_FAILURE_LIMIT):
        socket, output = await open_socket(table, token=f"guess-{attempt}", address="10.5.0.1")
        assert output == {"type": "websocket.close", "code": 4401}
        await socket.disconnect()
    attempts = AccessAttempt.objects.filter(ip_address="10.5.0.1")
    assert await attempts.filter(username=BEARER).acount() == 1
    assert (await attempts.aget()).failures_since_start == settings.LOGIN_FAILURE_LIMIT

    socket, output = await open_socket(table, token=good, address="10.5.0.1")
    assert output["type"] == "websocket.close" and output["code"] == 4429
    at = await sync_to_async(until)(ip_address="10.5.0.1")
    assert output["reason"] == f"too many failed logins from this address; try after {at} UTC"
    await socket.disconnect()
    # The same token from another address plays; the login page of that address is locked.
    socket, output = await open_socket(table, token=good, address="10.5.0.2")
    assert output["type"] == "websocket.send"
    await socket.disconnect()
    response = await sync_to_async(log_in)(Client(), "alice", "pw-alice", "10.5.0.1")
    assert response.status_code == 429


def test_a_sockets_address_check_agrees_with_axes_and_is_one_statement_when_clean(client, alice):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts.lockouts import address_lockout, bearer_failed

    with CaptureQueriesContext(connection) as clean:
        assert address_lockout(address="10.6.0.1") is None
    assert len(clean) == 1  # no failure from it: axes' own query is not needed
    for _ in range(settings.LOGIN_FAILURE_LIMIT - 1):
        bearer_failed(address="10.6.0.1")
    assert address_lockout(address="10.6.0.1") is None  # below the limit: axes says allowed
    bearer_failed(address="10.6.0.1")
    locked = address_lockout(address="10.6.0.1")
    assert locked is not None and locked.by == "address"
    assert address_lockout(address="10.6.0.2") is None
    newest = AccessAttempt.objects.order_by("-attempt_time").first().attempt_time
    AccessAttempt.objects.update(attempt_time=newest - timedelta(minutes=15, seconds=1))
    with CaptureQueriesContext(connection) as cooled:
        assert address_lockout(address="10.6.0.1") is None
    assert len(cooled) == 1  # the failures aged out of the cool-off count as none
