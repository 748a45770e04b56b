"""deploy/cluster.py's supervision, as ``make cluster`` runs it: a daphne that stops once
serving is started again after ``restart_seconds`` (nginx passes its sockets to the others
meanwhile), with its log kept; a daphne that stops as it starts, or any other process that
stops, stops the cluster. Stand-ins for daphne: small HTTP servers on free ports.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import pytest

from tests.live import free_port

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("cluster_script", ROOT / "deploy" / "cluster.py")
assert _spec is not None and _spec.loader is not None
cluster_script = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cluster_script)


def server(port: int) -> list[str]:
    """A stand-in daphne: it serves on ``port`` until stopped, and says when it starts."""
    return [sys.executable, "-c", f"print('serving', flush=True); import http.server; "
            f"http.server.HTTPServer(('127.0.0.1', {port}), "
            f"http.server.BaseHTTPRequestHandler).serve_forever()"]  # fmt: skip


def until(test, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < deadline, "not in time"
        time.sleep(0.05)


@pytest.fixture
def cluster(tmp_path: Path):
    supervisor = cluster_script.Cluster(tmp_path, restart_seconds=0.3)
    yield supervisor
    supervisor.stop()


def checked_until_it_stops(cluster) -> None:
    """Run the supervisor's check until it raises Stop (the test fails after ten seconds)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        cluster.check()
        time.sleep(0.05)
    raise AssertionError("the cluster went on")


def serving(cluster, port: int) -> None:
    def seen() -> bool:
        cluster.check()
        return f"daphne-{port}" in cluster.serving

    until(seen)


def test_a_daphne_stopped_while_serving_is_started_again_and_its_log_kept(cluster, tmp_path):
    port = free_port()
    cluster.start_daphne(port, server(port), None)
    serving(cluster, port)
    first = cluster.children[f"daphne-{port}"]
    assert (tmp_path / f"daphne-{port}.pid").read_text() == f"{first.pid}\n"
    first.kill()
    first.wait()
    cluster.check()  # no Stop: it is put aside to start again
    assert f"daphne-{port}" not in cluster.children
    serving(cluster, port)  # started again after restart_seconds, and serving
    second = cluster.children[f"daphne-{port}"]
    assert second.pid != first.pid
    assert (tmp_path / f"daphne-{port}.pid").read_text() == f"{second.pid}\n"
    assert (tmp_path / f"daphne-{port}.log").read_text().count("serving") == 2


def test_a_daphne_that_stops_as_it_starts_stops_the_cluster(cluster):
    port = free_port()
    cluster.start_daphne(port, [sys.executable, "-c", "raise SystemExit(3)"], None)
    with pytest.raises(cluster_script.Stop, match=rf"daphne-{port} stopped \(exit 3\)"):
        checked_until_it_stops(cluster)


def test_any_other_process_stopping_stops_the_cluster(cluster):
    cluster.start("nginx", [sys.executable, "-c", "raise SystemExit(1)"])
    with pytest.raises(cluster_script.Stop, match=r"nginx stopped \(exit 1\)"):
        checked_until_it_stops(cluster)
