"""Browser tests: Playwright (the Python package) driving Debian's Chromium.

Playwright's own browser download cannot work here, so the tests use /usr/bin/chromium, which
.ci/run installs. With CI=true a missing browser fails the run; elsewhere the tests say plainly
that they did not run, and why.
"""

from __future__ import annotations

import os
import shutil

import pytest
from django.db import connections

from tests.conftest import CI

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture
def browser(monkeypatch):
    if not os.path.exists(CHROMIUM):
        message = (
            "browser tests did not run: Debian's chromium is not installed "
            "(apt-get install chromium)"
        )
        if CI:
            pytest.fail(message)
        pytest.skip(message)
    # Playwright's sync API keeps an event loop in this thread; the test's own ORM calls are
    # ordinary blocking calls between browser steps.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        # The test's queries ran inside sync_playwright's context, on connections that
        # pytest-django's teardown (outside it) never sees: close them here, or PostgreSQL
        # refuses to drop a test database "being accessed by other users".
        connections.close_all()
        browser.close()
