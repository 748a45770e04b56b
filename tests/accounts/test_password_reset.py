"""A forgotten password reset by e-mail, end to end with Django's locmem e-mail backend; and
where e-mail goes outside the tests (the console, or SMTP from the environment)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent.parent


def test_a_player_resets_a_forgotten_password_by_e_mail(alice):
    alice.email = "alice@example.com"
    alice.save()
    elsewhere = Client()
    elsewhere.force_login(alice)
    # Locked out by wrong guesses before asking for the link.
    for _ in range(5):
        Client().post(reverse("login"), {"username": "alice", "password": "guess"})
    assert AccessAttempt.objects.filter(username="alice").exists()

    client = Client()
    login_page = client.get(reverse("login")).content.decode()
    assert reverse("password_reset") in login_page
    response = client.post(reverse("password_reset"), {"email": "ALICE@example.com"})
    assert response["Location"] == reverse("password_reset_done")
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["alice@example.com"]
    assert message.subject == "Choose a new Cardroom password"
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/)", message.body).group(1)

    form = client.get(link, follow=True)
    assert "Choose a new password" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "a-new-long-secret-42", "new_password2": "a-new-long-secret-42"},
    )
    assert done["Location"] == reverse("password_reset_complete")
    assert "Your password is changed" in client.get(done["Location"]).content.decode()

    # The new password works at once: the reset lifted the lockout. The old one does not, and
    # the session logged in before the reset is logged out.
    assert not AccessAttempt.objects.filter(username="alice").exists()
    assert not Client().login(username="alice", password="pw-alice")
    fresh = Client()
    assert (
        fresh.post(
            reverse("login"), {"username": "alice", "password": "a-new-long-secret-42"}
        ).status_code
        == 302
    )
    assert elsewhere.get(reverse("cashier")).status_code == 302
    # The link is good once.
    assert "This link no longer works" in client.get(link, follow=True).content.decode()


def test_an_unknown_address_gets_the_same_answer_and_no_mail(alice):
    response = Client().post(reverse("password_reset"), {"email": "nobody@example.com"})
    assert response["Location"] == reverse("password_reset_done")
    assert mail.outbox == []


def test_sign_up_keeps_an_optional_e_mail(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "dora",
            "email": "dora@example.com",
            "password1": "a-long-passphrase-9",
            "password2": "a-long-passphrase-9",
        },
    )
    assert response.status_code == 302
    assert User.objects.get(username="dora").email == "dora@example.com"


def _email_settings(**env: str) -> str:
    clean = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("PYTEST_", "EMAIL_")) and name != "DEFAULT_FROM_EMAIL"
    }
    code = (
        "from django.conf import settings as s; "
        "print(s.EMAIL_BACKEND, getattr(s, 'EMAIL_HOST', ''), getattr(s, 'EMAIL_PORT', ''), "
        "getattr(s, 'EMAIL_USE_TLS', ''), getattr(s, 'EMAIL_HOST_USER', ''), "
        "s.DEFAULT_FROM_EMAIL, sep='|')"
    )
    result = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c", code],
        cwd=ROOT,
        env={**clean, "DEBUG": "1", "DJANGO_SETTINGS_MODULE": "cardroom.settings", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_e_mail_goes_to_the_console_unless_an_smtp_host_is_set():
    console = _email_settings()
    assert console.startswith("django.core.mail.backends.console.EmailBackend|")
    smtp = _email_settings(
        EMAIL_HOST="smtp.example.com",
        EMAIL_PORT="2525",
        EMAIL_HOST_USER="cardroom",
        EMAIL_HOST_PASSWORD="secret",
        DEFAULT_FROM_EMAIL="Cardroom <no-reply@example.com>",
    )
    assert smtp == (
        "django.core.mail.backends.smtp.EmailBackend|smtp.example.com|2525|True|cardroom|"
        "Cardroom <no-reply@example.com>"
    )
