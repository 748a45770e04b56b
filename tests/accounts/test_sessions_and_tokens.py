"""The account page's sessions and API tokens (accounts/login_sessions.py,
cardroom/realtime/auth.py): each logged-in browser listed and ended; tokens named, made once,
expiring, revoked, and a revoked token's sockets refused and closed."""

from __future__ import annotations

import re
from datetime import timedelta
from io import StringIO

import pytest
from asgiref.sync import sync_to_async
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import LoginSession
from cardroom.models import ApiToken
from cardroom.realtime.auth import token_create, token_revoke, token_user
from tests.accounts.logins import log_in
from tests.accounts.sockets import a_table, open_socket

pytestmark = pytest.mark.django_db


def test_each_login_is_a_session_on_the_account_page(alice):
    phone, laptop = Client(), Client()
    log_in(phone, alice, "10.0.0.7", "Phone browser")
    log_in(laptop, alice, "10.0.0.8", "Laptop browser")
    assert LoginSession.objects.filter(user=alice, ended=None).count() == 2
    page = laptop.get(reverse("account")).content.decode()
    assert "Phone browser" in page and "10.0.0.7" in page
    rows = re.findall(r"<tr( class=\"current\")?>\s*<td>([^<]+)", page)
    assert [(bool(current), agent.strip()) for current, agent in rows if "browser" in agent] == [
        (True, "Laptop browser"),
        (False, "Phone browser"),
    ]
    assert page.count("this device") == 1


def test_ending_a_session_logs_that_browser_out_and_nothing_else(alice):
    phone, laptop = Client(), Client()
    log_in(phone, alice, agent="Phone browser")
    log_in(laptop, alice, agent="Laptop browser")
    record = LoginSession.objects.get(user_agent="Phone browser")
    response = laptop.post(reverse("account-session-end", args=[record.pk]))
    assert response.status_code == 302
    record.refresh_from_db()
    assert record.ended is not None
    assert phone.get(reverse("cashier")).status_code == 302  # to the login
    assert laptop.get(reverse("cashier")).status_code == 200
    assert "Phone browser" not in laptop.get(reverse("account")).content.decode()


def test_ending_this_session_logs_out_here(alice):
    client = Client()
    log_in(client, alice)
    record = LoginSession.objects.get()
    response = client.post(reverse("account-session-end", args=[record.pk]))
    assert response["Location"] == reverse("login")
    assert client.get(reverse("cashier")).status_code == 302


def test_nobody_ends_someone_elses_session(alice, bob):
    alices, bobs = Client(), Client()
    log_in(alices, alice)
    log_in(bobs, bob)
    record = LoginSession.objects.get(user=alice)
    assert bobs.post(reverse("account-session-end", args=[record.pk])).status_code == 404
    assert alices.get(reverse("cashier")).status_code == 200


def test_last_seen_is_written_at_most_once_a_minute(alice):
    client = Client()
    log_in(client, alice)
    record = LoginSession.objects.get()
    first = record.last_seen
    client.get(reverse("lobby"))
    record.refresh_from_db()
    assert record.last_seen == first
    session = client.session
    session["_login_session_seen"] -= 61
    session.save()
    client.get(reverse("lobby"))
    record.refresh_from_db()
    assert record.last_seen > first


def test_changing_the_password_logs_out_the_other_sessions(alice):
    phone, laptop = Client(), Client()
    log_in(phone, alice, agent="Phone browser")
    log_in(laptop, alice, agent="Laptop browser")
    response = laptop.post(
        reverse("password_change"),
        {
            "old_password": "pw-alice",
            "new_password1": "a-much-longer-pass-7",
            "new_password2": "a-much-longer-pass-7",
        },
        follow=True,
    )
    assert "Your password was changed. 1 other session was logged out." in (
        response.content.decode()
    )
    assert phone.get(reverse("cashier")).status_code == 302
    assert laptop.get(reverse("cashier")).status_code == 200
    # This session's record followed its renewed key: it is still listed, as this device.
    page = laptop.get(reverse("account")).content.decode()
    assert "this device" in page and "Phone browser" not in page


def test_a_token_is_made_on_the_page_shown_once_and_listed(alice):
    client = Client()
    log_in(client, alice)
    response = client.post(reverse("account-token-new"), {"name": "my bot", "expires_days": 30})
    page = response.content.decode()
    token = re.search(r'<p class="secret" id="new-token">([\w-]+)</p>', page).group(1)
    assert token_user(token) == alice
    made = ApiToken.objects.get(user=alice)
    assert made.name == "my bot"
    assert timedelta(days=29, hours=23) < made.expires - timezone.now() <= timedelta(days=30)
    assert token not in client.get(reverse("account")).content.decode()
    listed = client.get(reverse("account")).content.decode()
    assert "my bot" in listed and "active" in listed
    refused = client.post(reverse("account-token-new"), {"name": "", "expires_days": 0})
    assert refused.status_code == 400
    assert ApiToken.objects.filter(user=alice).count() == 1


def test_a_token_is_revoked_on_the_page_and_stops_working(alice, bob):
    token = token_create(user=alice, name="old bot")
    made = ApiToken.objects.get()
    bobs = Client()
    log_in(bobs, bob)
    assert bobs.post(reverse("account-token-revoke", args=[made.pk])).status_code == 404
    client = Client()
    log_in(client, alice)
    assert client.post(reverse("account-token-revoke", args=[made.pk])).status_code == 302
    made.refresh_from_db()
    assert made.revoked is not None
    assert token_user(token) is None
    assert "revoked" in client.get(reverse("account")).content.decode()


def test_expired_and_revoked_tokens_log_nobody_in(alice):
    expired = token_create(user=alice, expires=timezone.now() - timedelta(seconds=1))
    lasting = token_create(user=alice, expires=timezone.now() + timedelta(days=1))
    assert token_user(expired) is None
    assert token_user(lasting) == alice
    assert token_revoke(user=alice, token_id=ApiToken.objects.get(expires__gt=timezone.now()).pk)
    assert token_user(lasting) is None


def test_last_used_is_stamped_at_most_once_a_minute_in_one_update(alice):
    token = token_create(user=alice)
    with CaptureQueriesContext(connection) as first:
        assert token_user(token) == alice
    updates = [q["sql"] for q in first.captured_queries if q["sql"].startswith("UPDATE")]
    assert len(updates) == 1
    stamped = ApiToken.objects.get().last_used
    assert stamped is not None
    with CaptureQueriesContext(connection) as again:
        assert token_user(token) == alice
    assert not [q for q in again.captured_queries if q["sql"].startswith("UPDATE")]
    ApiToken.objects.update(last_used=stamped - timedelta(seconds=61))
    token_user(token)
    assert ApiToken.objects.get().last_used > stamped


def test_the_command_names_a_token_and_its_expiry_and_prints_only_it(alice):
    out = StringIO()
    call_command("api_token", "alice", "--name", "cron job", "--expires-days", "7", stdout=out)
    token = out.getvalue().strip()
    assert re.fullmatch(r"[\w-]{40,}", token)
    assert token_user(token) == alice
    made = ApiToken.objects.get()
    assert made.name == "cron job"
    assert timedelta(days=6, hours=23) < made.expires - timezone.now() <= timedelta(days=7)


@pytest.mark.django_db(transaction=True)
async def test_a_revoked_tokens_socket_is_refused_and_an_open_one_closed(alice):
    table = await a_table()
    token = await sync_to_async(token_create)(user=alice, name="bot")
    made = await ApiToken.objects.aget()
    open_one, first = await open_socket(table, token=token)
    assert first["type"] == "websocket.send"
    page_one, first = await open_socket(table, token=token, page=True)
    assert first["type"] == "websocket.send"
    assert await sync_to_async(token_revoke)(user=alice, token_id=made.pk)
    for socket in (open_one, page_one):
        output = await socket.receive_output(5)
        while output["type"] == "websocket.send":
            output = await socket.receive_output(5)
        assert output == {"type": "websocket.close", "code": 4401, "reason": "token revoked"}
        assert await socket.receive_nothing(0.3)
        await socket.disconnect()
    refused, output = await open_socket(table, token=token)
    assert output == {"type": "websocket.close", "code": 4401}
    await refused.disconnect()
