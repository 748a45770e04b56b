"""``/metrics``, ``/healthz`` and ``/readyz`` (docs/monitoring.md).

``/metrics`` is prometheus_client's exposition of this process's registry, for the addresses
in ``METRICS_ALLOWED_ADDRESSES`` (loopback by default) or a client presenting
``Authorization: Bearer <METRICS_TOKEN>``; anyone else gets 403. ``/healthz`` answers 200
while the process serves; ``/readyz`` 200 when the database and the channel layer both
answer, else 503 with JSON naming the one that failed.
"""

from __future__ import annotations

import asyncio
import hmac
import ipaddress
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import BaseChannelLayer, get_channel_layer
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.cache import never_cache
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from cardroom.observability.metrics import READY

__all__ = ["healthz", "metrics", "metrics_allowed", "readyz"]

log = logging.getLogger(__name__)

#: The longest /readyz waits for each check: a probe must answer before its own timeout.
READY_TIMEOUT_SECONDS = 3.0


def metrics_allowed(request: HttpRequest) -> bool:
    """Whether ``request`` may read the metrics: from an allowed address (behind nginx,
    daphne's ``--proxy-headers`` make REMOTE_ADDR the client's own), or with the token."""
    address = request.META.get("REMOTE_ADDR") or ""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        ip = None
    if ip is not None and any(
        ip in ipaddress.ip_network(allowed, strict=False)
        for allowed in settings.METRICS_ALLOWED_ADDRESSES
    ):
        return True
    token = settings.METRICS_TOKEN
    presented = request.headers.get("Authorization", "")
    # Compared in constant time: the answer's timing tells nothing about the token.
    return bool(token) and hmac.compare_digest(presented.encode(), f"Bearer {token}".encode())


@never_cache
async def metrics(request: HttpRequest) -> HttpResponse:
    if not metrics_allowed(request):
        return HttpResponse(
            "The metrics are for the monitoring only: this address is not in "
            "METRICS_ALLOWED_ADDRESSES and no valid 'Authorization: Bearer' token was given.\n",
            status=403,
            content_type="text/plain; charset=utf-8",
        )
    # The readiness checks at each scrape too, so an alert can tell when a process lost its
    # database or its channel layer (docs/monitoring.md).
    for name, error in (await readiness()).items():
        READY.labels(check=name).set(0 if error else 1)
    # Off the event loop and off the write thread: the scrape-time queries are reads
    # (cardroom/observability/collectors.py).
    body = await database_sync_to_async(generate_latest, thread_sensitive=False)()
    return HttpResponse(body, content_type=CONTENT_TYPE_LATEST)


@never_cache
async def healthz(request: HttpRequest) -> HttpResponse:
    """The process is up and serving: always 200."""
    return JsonResponse({"status": "ok"})


def _database_answers() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()


async def _layer_answers(layer: BaseChannelLayer) -> None:
    """A message sent to a private channel of this process and read back."""
    channel = await layer.new_channel("readyz.")
    await layer.send(channel, {"type": "readyz.ping"})
    await layer.receive(channel)


async def _check(name: str, work: Any) -> str | None:
    """None when ``work`` finished in time, else what went wrong, in a line."""
    try:
        await asyncio.wait_for(work, READY_TIMEOUT_SECONDS)
    except TimeoutError:
        return f"no answer within {READY_TIMEOUT_SECONDS:g} s"
    except Exception as error:
        # The detail goes to the log only: a probe's answer may be seen from outside.
        log.warning("readiness: the %s failed: %r", name, error)
        return f"failed ({type(error).__name__})"
    return None


async def readiness() -> dict[str, str | None]:
    """Each dependency (database, channel_layer) and what went wrong with it, or None."""
    return {
        "database": await _check(
            "database", database_sync_to_async(_database_answers, thread_sensitive=False)()
        ),
        "channel_layer": await _check("channel layer", _layer_answers(get_channel_layer())),
    }


@never_cache
async def readyz(request: HttpRequest) -> HttpResponse:
    """200 when the database and the channel layer answer; 503 naming what failed."""
    checks = await readiness()
    failed = {name: error for name, error in checks.items() if error is not None}
    body = {
        "status": "unavailable" if failed else "ok",
        "checks": {name: error or "ok" for name, error in checks.items()},
    }
    return JsonResponse(body, status=503 if failed else 200)
