"""Reading /metrics as Prometheus would, from a test."""

from __future__ import annotations

from django.test import AsyncClient
from prometheus_client.parser import text_string_to_metric_families


def parse(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of an exposition, by its name and sorted labels."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def scrape() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """The samples /metrics serves to a loopback client (the default allowed address)."""
    response = await AsyncClient().get("/metrics", REMOTE_ADDR="127.0.0.1")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain; version=")
    return parse(response.content.decode())


def value(samples: dict, name: str, **labels: str) -> float:
    """One sample's value; 0 when the series is not there yet (a counter never counted)."""
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)
