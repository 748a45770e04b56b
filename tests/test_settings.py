"""The settings outside the tests: the secret key rule and CARDROOM_PRODUCTION.

Each test starts ``manage.py`` in a subprocess with an environment of its own, without the
PYTEST_* variables (so settings.TESTING is false there, as on a server), on a SQLite file in a
temporary directory, and with the key file pointed at a path that does not exist (so a
developer's ``.local/secret_key`` cannot hide a missing key).
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: What the tests set themselves: nothing of the caller's may leak into the subprocess.
OWN = (
    "DJANGO_SECRET_KEY",
    "CARDROOM_SECRET_KEY_FILE",
    "CARDROOM_PRODUCTION",
    "DEBUG",
    "ALLOWED_HOSTS",
    "DATABASE_URL",
    "REDIS_URL",
)


@pytest.fixture
def manage(tmp_path):
    """Run ``manage.py`` with ``env`` on top of a clean environment; returns the process."""

    def run(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
        clean = {
            name: value
            for name, value in os.environ.items()
            if not name.startswith("PYTEST_") and name not in OWN
        }
        clean["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
        clean["CARDROOM_SECRET_KEY_FILE"] = str(tmp_path / "no-such-key")
        clean["DJANGO_SETTINGS_MODULE"] = "cardroom.settings"
        return subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), *args],
            cwd=ROOT, env={**clean, **env}, capture_output=True, text=True, timeout=120,
        )  # fmt: skip

    return run


def printed(setting: str) -> tuple[str, ...]:
    """``manage.py`` arguments that print a setting and nothing else."""
    return (
        "shell",
        "--verbosity",
        "0",
        "-c",
        f"from django.conf import settings; print(settings.{setting})",
    )


def a_key() -> str:
    return secrets.token_urlsafe(50)


def test_check_deploy_passes_in_production(manage):
    done = manage(
        "check", "--deploy", "--fail-level", "WARNING",
        CARDROOM_PRODUCTION="1", DEBUG="0", DJANGO_SECRET_KEY=a_key(),
        ALLOWED_HOSTS="cardroom.example",
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_without_a_key_only_debug_starts(manage):
    """Each process would pick its own key: logins lost between servers and at restarts."""
    debug = manage("check", DEBUG="1")
    assert debug.returncode == 0, debug.stderr
    refused = manage("check")
    assert refused.returncode != 0
    assert "ImproperlyConfigured: No secret key. Set DJANGO_SECRET_KEY" in refused.stderr
    assert "secrets.token_urlsafe(50)" in refused.stderr


def test_the_key_file_is_read(manage, tmp_path):
    key = a_key()
    path = tmp_path / "secret_key"
    path.write_text(key + "\n")
    done = manage(*printed("SECRET_KEY"), CARDROOM_SECRET_KEY_FILE=str(path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == key


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "1", "ALLOWED_HOSTS": "cardroom.example"}, "refuses DEBUG=1"),
        ({}, "needs ALLOWED_HOSTS"),
        ({"ALLOWED_HOSTS": ","}, "needs ALLOWED_HOSTS"),
    ],
)
def test_production_refuses_debug_and_missing_hosts(manage, env, message):
    done = manage("check", CARDROOM_PRODUCTION="1", DJANGO_SECRET_KEY=a_key(), **env)
    assert done.returncode != 0
    assert f"ImproperlyConfigured: CARDROOM_PRODUCTION=1 {message}" in done.stderr


def test_production_needs_a_key_even_under_the_tests(manage):
    done = manage(
        "check", CARDROOM_PRODUCTION="1", ALLOWED_HOSTS="cardroom.example", PYTEST_VERSION="9"
    )
    assert done.returncode != 0
    assert "No secret key" in done.stderr


def test_the_default_hosts_are_the_local_ones(manage):
    """Not "testserver": Django's test environment adds it for the tests themselves."""
    done = manage(*printed("ALLOWED_HOSTS"), DEBUG="1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "['127.0.0.1', 'localhost']"
