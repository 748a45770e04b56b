"""The numbers read from the database when Prometheus scrapes, not counted on the live path.

Two small queries a scrape: the tables by status (one ``GROUP BY``) and the latest ledger audit
(the newest ``LedgerAudit`` row, which ``manage.py audit_ledger`` writes each run). Every
process reports them alike, so the dashboard takes their ``max`` across processes.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

from django.db import DatabaseError
from django.db.models import Count
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import REGISTRY, Collector

from accounts.models import LedgerAudit
from cardroom.models import Table, TableStatus

__all__ = ["DatabaseCollector", "register"]

log = logging.getLogger(__name__)


def _families() -> tuple[GaugeMetricFamily, GaugeMetricFamily, GaugeMetricFamily]:
    return (
        GaugeMetricFamily(
            "cardroom_tables",
            "Tables by status (open, paused, closing, closed), read at scrape time.",
            labels=["status"],
        ),
        GaugeMetricFamily(
            "cardroom_ledger_audit_ok",
            "1 if the latest ledger audit (manage.py audit_ledger) found every balance right, "
            "0 if it found a mismatch; absent until the first audit.",
        ),
        GaugeMetricFamily(
            "cardroom_ledger_audit_timestamp_seconds",
            "Unix time of the latest ledger audit; absent until the first audit.",
        ),
    )


class DatabaseCollector(Collector):
    """Reads the tables' statuses and the latest ledger audit at each scrape."""

    def describe(self) -> Iterator[Metric]:
        # Named without a query: registering the collector must not touch the database.
        yield from _families()

    def collect(self) -> Iterator[Metric]:
        try:
            yield from self._read()
        except DatabaseError:
            # The process's own numbers are still served; cardroom_ready says what is wrong.
            log.warning("metrics: the database could not be read", exc_info=True)

    def _read(self) -> Iterator[Metric]:
        tables, audit_ok, audit_time = _families()
        counts = dict(Table.objects.values_list("status").annotate(n=Count("pk")).order_by())
        for status in TableStatus.values:
            tables.add_metric([status], counts.get(status, 0))
        yield tables
        latest = LedgerAudit.objects.order_by("-created").values_list("ok", "created").first()
        if latest is not None:
            ok, created = latest
            audit_ok.add_metric([], 1 if ok else 0)
            audit_time.add_metric([], created.timestamp())
            yield audit_ok
            yield audit_time


_registered = False


def register() -> None:
    """Add the collector to the default registry, once (the web processes' /metrics)."""
    global _registered
    if not _registered:
        REGISTRY.register(DatabaseCollector())
        _registered = True
