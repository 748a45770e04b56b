"""deploy/prometheus and deploy/grafana: valid for their own tools, and about metrics that exist.

promtool comes with Debian's prometheus package (.ci/run installs it). Every metric the scrape
config's alerts and the dashboard's panels name must be one /metrics serves.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from django.core.management import call_command
from prometheus_client.parser import text_string_to_metric_families

ROOT = Path(__file__).resolve().parents[3]
PROMETHEUS = ROOT / "deploy" / "prometheus"
DASHBOARD = ROOT / "deploy" / "grafana" / "cardroom.json"
METRIC = re.compile(r"\bcardroom_[a-z_]+\b")
#: The suffixes each type's samples add to its family's name in queries.
SUFFIXES = {"counter": ("_total",), "histogram": ("_bucket", "_count", "_sum")}


def promtool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["promtool", *args], cwd=PROMETHEUS, capture_output=True, text=True, timeout=60
    )


def test_the_scrape_config_and_its_rules_pass_promtool():
    checked = promtool("check", "config", "prometheus.yml")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "1 rule files found" in checked.stdout


def test_the_alert_rules_pass_promtool():
    checked = promtool("check", "rules", "alerts.yml")
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "8 rules found" in checked.stdout


@pytest.fixture
def exposed(client) -> set[str]:
    """Every name a query may use for what /metrics serves (with an audit on record)."""
    call_command("audit_ledger", stdout=open("/dev/null", "w"))  # noqa: SIM115
    return {
        name
        for family in families(client)
        for name in (family.name, *(family.name + s for s in SUFFIXES.get(family.type, ())))
    }


def families(client) -> list:
    return list(text_string_to_metric_families(client.get("/metrics").content.decode()))


def dashboard_expressions() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    return [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]


@pytest.mark.django_db(transaction=True)
def test_the_dashboard_names_only_metrics_the_endpoint_serves(exposed, client):
    expressions = dashboard_expressions()
    assert len(expressions) >= 14
    named = {name for expression in expressions for name in METRIC.findall(expression)}
    assert named - exposed == set()
    # Every metric of ours is on the dashboard, under one of its names.
    missing = {
        family.name
        for family in families(client)
        if family.name.startswith("cardroom_")
        and not {family.name, *(family.name + s for s in SUFFIXES.get(family.type, ()))} & named
    }
    assert missing == set()


@pytest.mark.django_db(transaction=True)
def test_the_alerts_name_only_metrics_the_endpoint_serves(exposed):
    named = set(METRIC.findall((PROMETHEUS / "alerts.yml").read_text()))
    assert {"cardroom_clock_lag_seconds", "cardroom_ledger_audit_ok", "cardroom_ready"} <= named
    assert named - exposed == set()
