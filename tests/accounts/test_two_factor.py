"""Two-factor authentication (accounts/two_factor.py): staff cannot open the operator console
or the admin without it; enrolment, the verify step, recovery codes, turning it off; and the
table sockets refuse a session that owes its code."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import Group
from django.test import Client
from django.urls import reverse
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from cardroom.realtime.auth import token_create
from tests.accounts.sockets import a_table, open_socket, session_cookie
from tests.conftest import login_with_two_factor, totp_code

pytestmark = pytest.mark.django_db

STAFF_PAGES = ["/operators/", "/operators/log/", "/admin/", "/admin/accounts/transfer/"]


@pytest.fixture
def staff(make_player):
    """A superuser, an operator, an auditor, and staff with no role."""
    root = make_player("root")
    root.is_staff = root.is_superuser = True
    root.save()
    olga = make_player("olga")
    olga.groups.add(Group.objects.get(name="Operators"))
    audra = make_player("audra")
    audra.groups.add(Group.objects.get(name="Auditors"))
    stan = make_player("stan")
    stan.is_staff = True
    stan.save()
    return [root, olga, audra, stan]


def log_in(client: Client, user, **extra):
    response = client.post(
        reverse("login"), {"username": user.username, "password": f"pw-{user.username}"}, **extra
    )
    assert response.status_code == 302, response.content.decode()[:500]
    return response


def test_staff_logged_in_without_a_second_factor_reach_no_staff_page(staff):
    for user in staff:
        client = Client()
        log_in(client, user)
        for path in STAFF_PAGES:
            response = client.get(path)
            assert response.status_code == 302, (user.username, path)
            assert response["Location"].startswith(reverse("two-factor-setup")), path
        # The rest of the site opens as for anyone.
        assert client.get(reverse("lobby")).status_code == 200


def test_staff_with_an_app_but_no_code_this_session_are_asked_for_it(staff):
    root = staff[0]
    TOTPDevice.objects.create(user=root, name="app", confirmed=True)
    client = Client()
    log_in(client, root)
    for path in [*STAFF_PAGES, reverse("lobby"), reverse("account")]:
        response = client.get(path)
        assert response.status_code == 302
        assert (
            response["Location"]
            == f"{reverse('two-factor-verify')}?next={path.replace('/', '%2F')}"
        )


def test_a_player_without_two_factor_is_not_asked(alice):
    client = Client()
    log_in(client, alice)
    assert client.get(reverse("lobby")).status_code == 200
    assert client.get("/operators/").status_code == 403  # not staff: refused, not enrolled


def test_a_staff_member_enrols_and_then_opens_the_console(staff):
    olga = staff[1]
    client = Client()
    log_in(client, olga)
    response = client.get("/operators/", follow=True)
    setup = response.content.decode()
    assert "As staff, you need two-factor authentication" in setup
    assert '<svg role="img" aria-label="QR code of the set-up key"' in setup
    device = TOTPDevice.objects.get(user=olga, confirmed=False)
    assert "otpauth://totp/Cardroom%3Aolga?secret=" in setup
    # The same key on every visit until it is confirmed: a scanned code stays good.
    assert client.get(reverse("two-factor-setup")).status_code == 200
    assert TOTPDevice.objects.filter(user=olga).count() == 1

    url = f"{reverse('two-factor-setup')}?next=/operators/"
    wrong = client.post(url, {"code": "000000" if totp_code(device) != "000000" else "111111"})
    assert wrong.status_code == 400 and "That code did not work" in wrong.content.decode()
    device.refresh_from_db()
    device.throttling_failure_count = 0  # no waiting out the throttle in a test
    device.save()

    done = client.post(url, {"code": totp_code(device), "next": "/operators/"})
    assert done.status_code == 200
    page = done.content.decode()
    codes = re.findall(r"<code>([a-z2-7]{4}-[a-z2-7]{4})</code>", page)
    assert len(codes) == 10 and len(set(codes)) == 10
    assert "they are shown only this once" in page
    assert 'href="/operators/"' in page
    assert TOTPDevice.objects.get(user=olga).confirmed
    assert client.get("/operators/").status_code == 200


def test_after_the_password_a_user_with_an_app_gives_a_code(alice):
    device = TOTPDevice.objects.create(user=alice, name="app", confirmed=True)
    client = Client()
    log_in(client, alice)
    cashier = reverse("cashier")
    assert client.get(cashier)["Location"].startswith(reverse("two-factor-verify"))
    verify = f"{reverse('two-factor-verify')}?next={cashier}"
    assert client.get(verify).status_code == 200
    refused = client.post(verify, {"code": "12345x"})
    assert refused.status_code == 400 and "That code did not work" in refused.content.decode()
    response = client.post(verify, {"code": totp_code(device), "next": cashier})
    assert response.status_code == 302 and response["Location"] == cashier
    assert client.get(cashier).status_code == 200
    # A code is good once: it cannot verify another session.
    other = Client()
    log_in(other, alice)
    assert other.post(verify, {"code": totp_code(device)}).status_code == 400


def test_a_verify_step_never_sends_anyone_off_the_site(alice):
    device = TOTPDevice.objects.create(user=alice, name="app", confirmed=True)
    client = Client()
    log_in(client, alice)
    response = client.post(
        reverse("two-factor-verify"), {"code": totp_code(device), "next": "https://evil.example/"}
    )
    assert response.status_code == 302 and response["Location"] == reverse("home")


def test_a_recovery_code_logs_in_once(alice):
    login_with_two_factor(Client(), alice)
    client = Client()
    login_with_two_factor(client, alice)
    codes = re.findall(
        r"<code>([a-z2-7]{4}-[a-z2-7]{4})</code>",
        client.post(reverse("two-factor-codes")).content.decode(),
    )
    assert len(codes) == 10
    first, second = Client(), Client()
    log_in(first, alice)
    verify = reverse("two-factor-verify")
    response = first.post(verify, {"code": codes[0].upper()}, follow=True)
    assert "You used a recovery code; 9 left." in response.content.decode()
    assert first.get(reverse("cashier")).status_code == 200
    log_in(second, alice)
    assert second.post(verify, {"code": codes[0]}).status_code == 400
    # django-otp then makes the next try wait (1 s, doubling with each wrong code).
    waiting = second.post(verify, {"code": codes[1]})
    assert "Too many wrong codes in a row: wait" in waiting.content.decode()
    StaticDevice.objects.filter(user=alice).update(throttling_failure_count=0)
    assert second.post(verify, {"code": codes[1].replace("-", "")}).status_code == 302


def test_new_recovery_codes_and_turning_off_need_a_verified_session(alice):
    TOTPDevice.objects.create(user=alice, name="app", confirmed=True)
    client = Client()
    log_in(client, alice)  # password only
    for name in ("two-factor-codes", "two-factor-disable"):
        response = client.post(reverse(name), {"code": "123456"})
        assert response["Location"].startswith(reverse("two-factor-verify")), name
    assert not StaticToken.objects.exists()
    assert TOTPDevice.objects.filter(user=alice).exists()


def test_a_player_turns_two_factor_on_and_off(alice):
    client = Client()
    log_in(client, alice)
    assert "Off." in client.get(reverse("account")).content.decode()
    client.get(reverse("two-factor-setup"))
    device = TOTPDevice.objects.get(user=alice)
    assert client.post(reverse("two-factor-setup"), {"code": totp_code(device)}).status_code == 200
    page = client.get(reverse("account")).content.decode()
    assert "On." in page and '<strong id="recovery-left">10</strong>' in page

    # Every page of a new session waits for the code.
    other = Client()
    log_in(other, alice)
    assert other.get(reverse("lobby"))["Location"].startswith(reverse("two-factor-verify"))

    refused = client.post(reverse("two-factor-disable"), {"code": "000000"}, follow=True)
    assert "Two-factor is still on." in refused.content.decode()
    device.refresh_from_db()
    device.throttling_failure_count = 0
    device.last_t = -1  # the code used to confirm may be the current one
    device.save()
    done = client.post(reverse("two-factor-disable"), {"code": totp_code(device)}, follow=True)
    assert "Two-factor authentication is off." in done.content.decode()
    assert not TOTPDevice.objects.filter(user=alice).exists()
    assert not StaticToken.objects.filter(device__user=alice).exists()
    assert other.get(reverse("lobby")).status_code == 200


@pytest.mark.django_db(transaction=True)
async def test_the_table_sockets_refuse_a_session_that_owes_its_code(alice):
    table = await a_table()
    device = await TOTPDevice.objects.acreate(user=alice, name="app", confirmed=True)
    unverified = Client()
    await sync_to_async(unverified.force_login)(alice)
    cookie = await session_cookie(unverified)
    for page in (False, True):
        socket, output = await open_socket(table, cookie=cookie, page=page)
        assert output == {
            "type": "websocket.close",
            "code": 4401,
            "reason": "two-factor code needed: enter it on the site first",
        }
        await socket.disconnect()

    verified = Client()
    await sync_to_async(login_with_two_factor)(verified, alice)
    assert (await TOTPDevice.objects.aget(user=alice)).pk == device.pk
    socket, output = await open_socket(table, cookie=await session_cookie(verified), page=True)
    assert output["type"] == "websocket.send"
    await socket.disconnect()
    # A bearer token is the user's own doing: it needs no code.
    token = await sync_to_async(token_create)(user=alice)
    socket, output = await open_socket(table, token=token)
    assert output["type"] == "websocket.send"
    await socket.disconnect()
