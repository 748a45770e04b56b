"""What the cardroom tells its operators about itself: Prometheus metrics at ``/metrics``,
``/healthz`` and ``/readyz`` (docs/monitoring.md).

A context at the bottom of the cardroom's layers, above the models only, so every context may
import :mod:`cardroom.observability.metrics` and count at its own choke point. The hooks there
only touch counters, gauges and histograms in memory: the live path pays no query and no lock
wait for them; what needs the database is read when Prometheus scrapes (``collectors``).
"""
