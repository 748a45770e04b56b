"""The process's metrics and the small hooks the choke points call (docs/monitoring.md).

Each server process (daphne, ``runclock``) keeps its own numbers in prometheus_client's
default registry, and Prometheus scrapes each process: counters are summed across them by the
queries, not here. Every hook is a few arithmetic operations under prometheus_client's own
lock; none reads the database or raises.
"""

from __future__ import annotations

import time
from datetime import datetime

from prometheus_client import Counter, Gauge, Histogram, disable_created_metrics

__all__ = [
    "ACTIONS_APPLIED",
    "ACTIONS_REFUSED",
    "ACTION_LATENCY",
    "CHANNEL_OVERFLOWS",
    "CLOCK_LAG",
    "CLOCK_SWEEPS",
    "LOCKOUTS",
    "LOGINS",
    "OPEN_SOCKETS",
    "READY",
    "TIMEOUT_LATENESS",
    "action_answered",
    "clock_swept",
    "timeout_applied",
]

#: Seconds, from a frame's arrival to its answer's send: most answers take milliseconds; a
#: queue behind a busy table or a slow database shows in the upper buckets.
LATENCY_BUCKETS = (0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
#: Seconds a timeout came after its deadline: the clock polls every 0.2 s, so most fall in the
#: first buckets; past a second the clock is behind.
LATENESS_BUCKETS = (0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0)

OPEN_SOCKETS = Gauge(
    "cardroom_open_sockets",
    "Table WebSockets open in this process and let in, by kind: page (the browser's table "
    "page) or api (the JSON protocol).",
    ["kind"],
)
ACTIONS_APPLIED = Counter(
    "cardroom_actions_applied",
    "Actions sent over a table socket and applied, by action kind.",
    ["kind"],
)
ACTIONS_REFUSED = Counter(
    "cardroom_actions_refused",
    "Frames sent over a table socket and answered with an error, by action kind (other when "
    "the frame named none, or a kind never applied in this process) and error code (refused, "
    "bad_json, rate_limited, unavailable, internal, ...).",
    ["kind", "code"],
)
ACTION_LATENCY = Histogram(
    "cardroom_action_latency_seconds",
    "Seconds from an action's frame received to its answer sent (applied or refused).",
    buckets=LATENCY_BUCKETS,
)
TIMEOUT_LATENESS = Histogram(
    "cardroom_timeout_lateness_seconds",
    "Seconds after its deadline that the clock applied a table's timeout.",
    buckets=LATENESS_BUCKETS,
)
CLOCK_SWEEPS = Counter(
    "cardroom_clock_sweeps",
    "Sweeps of the clock for due timeouts in this process (about five a second while it runs).",
)
CLOCK_LAG = Gauge(
    "cardroom_clock_lag_seconds",
    "At the clock's latest sweep in this process, how long the most overdue table's deadline "
    "had passed (0 when none was due): a clock keeping up stays under its 0.2 s poll.",
)
CLOCK_LAST_SWEEP = Gauge(
    "cardroom_clock_last_sweep_timestamp_seconds",
    "Unix time of the clock's latest sweep in this process (absent where no clock runs).",
)
CHANNEL_OVERFLOWS = Counter(
    "cardroom_channel_overflows",
    "Channel-layer messages dropped because a socket's queue was full (a socket behind).",
)
LOGINS = Counter(
    "cardroom_logins",
    "Logins by result: succeeded or failed (a wrong password, or a guessed API token).",
    ["result"],
)
LOCKOUTS = Counter(
    "cardroom_lockouts",
    "Logins refused because the account or the address is locked out after repeated failures.",
)

READY = Gauge(
    "cardroom_ready",
    "1 if this process reached its dependency (database, channel_layer) at the latest scrape, "
    "as /readyz checks it; 0 if not.",
    ["check"],
)

# No "_created" series beside each counter and histogram: Prometheus reads resets from the
# values themselves, and the extra series would double what every scrape stores.
disable_created_metrics()  # type: ignore[no-untyped-call]  # prometheus_client leaves it bare

# The label values every dashboard expects exist from the start, at zero.
for _kind in ("page", "api"):
    OPEN_SOCKETS.labels(kind=_kind)
for _result in ("succeeded", "failed"):
    LOGINS.labels(result=_result)


#: The action kinds applied in this process. A refused frame may name any kind a client made
#: up; its label is one of these or "other", so no client can grow the series without bound.
_applied_kinds: set[str] = set()


def action_answered(kind: str | None, code: str | None, started: float) -> None:
    """One action's answer sent: ``code`` None for applied, else the error's code (from the
    protocol's short list). ``started``: ``time.perf_counter()`` when its frame came."""
    ACTION_LATENCY.observe(time.perf_counter() - started)
    if code is None and kind is not None:
        _applied_kinds.add(kind)
        ACTIONS_APPLIED.labels(kind=kind).inc()
    else:
        known = kind if kind in _applied_kinds else "other"
        ACTIONS_REFUSED.labels(kind=known, code=code or "internal").inc()


def clock_swept(lag: float) -> None:
    """One sweep of the clock; ``lag``: seconds the most overdue deadline had passed."""
    CLOCK_SWEEPS.inc()
    CLOCK_LAG.set(max(0.0, lag))
    CLOCK_LAST_SWEEP.set_to_current_time()


def timeout_applied(deadline: datetime | None, at: datetime) -> None:
    """The clock applied a table's timeout at ``at``, its deadline having been ``deadline``."""
    if deadline is not None:
        TIMEOUT_LATENESS.observe(max(0.0, (at - deadline).total_seconds()))
