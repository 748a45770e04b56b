"""The auditors' admin pages, clicked in a browser: what a posted URL in a unit test cannot see
(a form nested in another form is dropped by the browser, so its button posts the outer one)."""

from __future__ import annotations

import pytest
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import LedgerAudit
from accounts.services import user_create
from tests.conftest import totp_code
from tests.e2e.players import PASSWORD, WAIT_MS
from tests.live import live_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_run_the_ledger_audit_button_runs_an_audit(browser):
    auditor = user_create(username="audrey", password=PASSWORD)
    auditor.is_staff = auditor.is_superuser = True
    auditor.save()
    app = TOTPDevice.objects.create(user=auditor, name="app", confirmed=True)
    with live_server("e2e-admin") as url:
        page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
        page.goto(f"{url}/admin/login/")
        page.fill("input[name=username]", "audrey")
        page.fill("input[name=password]", PASSWORD)
        page.click("input[type=submit], button[type=submit]")
        # Staff give their second factor before the admin opens.
        page.wait_for_url(lambda address: "/two-factor/verify/" in address, timeout=WAIT_MS)
        page.fill("input[name=code]", totp_code(app))
        page.click("form.two-factor-code button[type=submit]")
        page.wait_for_url(lambda address: "/admin/" in address, timeout=WAIT_MS)
        page.goto(f"{url}/admin/accounts/ledgeraudit/")
        assert "The ledger has never been audited." in page.inner_text(".ledger-audit-status")

        page.click("text=Run the ledger audit now")
        page.wait_for_selector("text=Ledger OK", timeout=WAIT_MS)

        audit = LedgerAudit.objects.get()
        assert audit.ok
        assert audit.actor == "audrey"
        status = page.inner_text(".ledger-audit-status")
        assert "OK" in status
        assert "sum of balances $0.00" in status
