"""Real server processes for end-to-end tests: daphne on a free port, on the test database.

The server runs as its own process with the in-process clock, exactly as ``make play`` starts
it, against the database the test has just written (so tests using it need committed data:
``transaction=True``). ``live_cluster`` starts several behind nginx, as ``make cluster`` does.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.finders import get_finders
from django.core.management import call_command
from django.db import connection

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
#: The name libpq gives the PostgreSQL sessions of every server this test process starts
#: (PGAPPNAME), so that waiting for them to end ignores the sessions of the test process itself,
#: which a thread pool may keep open from an earlier test.
SERVERS_APPLICATION_NAME = f"cardroom-test-server-{os.getpid()}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def database_url() -> str:
    """The URL of the database this test process uses (the test database)."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user = settings.get("USER") or "postgres"
    host = settings.get("HOST") or "127.0.0.1"
    port = settings.get("PORT") or 5432
    return f"postgres://{user}@{host}:{port}/{settings['NAME']}"


@cache
def collect_static() -> None:
    """The server serves static files from STATIC_ROOT (WhiteNoise), not from static/: when a
    source is newer than its copy there, collect them all, so no page is drawn with stale CSS
    or JS. Up to date (as after ``make test``'s collectstatic) nothing is written, since another
    worker's server may be serving those files."""
    root = Path(settings.STATIC_ROOT)
    for finder in get_finders():
        for path, storage in finder.list(["CVS", ".*", "*~"]):
            copy = root / (getattr(storage, "prefix", None) or "") / path
            if not copy.exists() or copy.stat().st_mtime < Path(storage.path(path)).stat().st_mtime:
                call_command("collectstatic", interactive=False, verbosity=0)
                return


@dataclass(frozen=True)
class Daphne:
    """One server process started by the tests, with its URL and log."""

    url: str
    port: int
    process: subprocess.Popen[bytes]
    log_path: Path

    def wait_until_serving(self) -> None:
        _wait_for(self.port, self.process, self.log_path)

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=5)


def start_daphne(name: str, env: dict[str, str] | None = None, port: int = 0) -> Daphne:
    """A daphne process serving the cardroom on the test database, with the in-process clock
    as ``make play`` runs it (``env`` added to its environment); not yet waited for."""
    port = port or free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    log_path = ARTIFACTS / f"{name}-{port}.log"
    server_env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "CARDROOM_CLOCK_IN_PROCESS": "true",
        "PYTHONUNBUFFERED": "1",
        "PGAPPNAME": SERVERS_APPLICATION_NAME,
        **(env or {}),
    }
    with open(log_path, "wb") as log:  # the child keeps its own copy of the file
        process = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "--websocket_connect_timeout", "20", "cardroom.asgi:application"],
            cwd=ROOT, env=server_env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    return Daphne(f"http://127.0.0.1:{port}", port, process, log_path)


@contextmanager
def live_server(name: str = "server") -> Iterator[str]:
    """A daphne process serving the cardroom; yields its base URL and stops it after."""
    collect_static()
    server = start_daphne(name)
    try:
        server.wait_until_serving()
        yield server.url
    finally:
        server.stop()
        _wait_for_its_connections_to_close()


@contextmanager
def live_servers(
    name: str = "servers", processes: int = 1, env: dict[str, str] | None = None
) -> Iterator[list[str]]:
    """``processes`` daphne processes as ``live_server`` starts one, each on a free port with
    ``env`` added to its environment; yields their base URLs and stops them all after. More
    than one need a database and a channel layer they share (PostgreSQL and REDIS_URL). For the
    load script, which fetches no page: static files are not collected."""
    with live_daphnes(name, processes, env) as started:
        yield [server.url for server in started]


@contextmanager
def live_daphnes(
    name: str = "servers", processes: int = 1, env: dict[str, str] | None = None
) -> Iterator[list[Daphne]]:
    """``live_servers``, yielding the processes themselves (a test may kill one)."""
    ports: list[int] = []
    while len(ports) < processes:
        if (port := free_port()) not in ports:
            ports.append(port)
    started: list[Daphne] = []
    try:
        started.extend(start_daphne(name, env, port) for port in ports)
        for server in started:
            server.wait_until_serving()
        yield started
    finally:
        for server in started:
            server.process.terminate()
        for server in started:
            server.stop()
        _wait_for_its_connections_to_close()


def _wait_for_its_connections_to_close() -> None:
    """PostgreSQL ends a dead process's sessions a moment later; the test database can only
    be dropped at teardown once they are gone. Only the sessions of the servers this process
    started are waited for (by their application name)."""
    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + 10
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity"
                " WHERE datname = current_database() AND application_name = %s",
                [SERVERS_APPLICATION_NAME],
            )
            if cursor.fetchone()[0] == 0:
                return
            time.sleep(0.05)


def _wait_for(port: int, process: subprocess.Popen[bytes], log_path: Path) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server stopped at start: {log_path.read_text()[-2000:]}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"the server did not start in 30 s: {log_path.read_text()[-2000:]}")


def nginx_binary() -> str | None:
    """Debian's nginx (as deploy/cluster.py finds it), also when /usr/sbin is not on PATH."""
    path = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/usr/local/sbin"])
    return shutil.which("nginx", path=path)


def accepting(port: int) -> bool:
    """Whether something listens on the loopback ``port``."""
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class LiveCluster:
    url: str  #: nginx, in front of every process
    logs: dict[int, Path]  #: each daphne process's log (its access log too), by port
    ports: list[int]  #: nginx's port, then each daphne's
    directory: Path  #: where deploy/cluster.py keeps its files

    def pid(self, port: int) -> int:
        """The daphne process serving on ``port``, from the file deploy/cluster.py writes."""
        return int((self.directory / f"daphne-{port}.pid").read_text())


@contextmanager
def live_cluster(
    name: str = "cluster", processes: int = 2, clock: str = "in-process", restart_seconds: float = 2
) -> Iterator[LiveCluster]:
    """``deploy/cluster.py`` (``make cluster``) on the test database and REDIS_URL: daphne
    processes behind nginx on free ports, a stopped one started again after
    ``restart_seconds``; yields where they are and stops them all after."""
    collect_static()  # instead of the cluster's own collectstatic, which rewrites every file
    ports: list[int] = []
    while len(ports) < processes + 1:
        if (port := free_port()) not in ports:
            ports.append(port)
    directory = ARTIFACTS / f"{name}-{ports[0]}"
    directory.mkdir(parents=True, exist_ok=True)
    log_path = directory / "cluster.log"
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "PGAPPNAME": SERVERS_APPLICATION_NAME,
        # One key for every process, as in a deployment (a test run would give each its own).
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
    }
    argv = [sys.executable, "deploy/cluster.py", "run", "--port", str(ports[0]),
            "--ports", ",".join(map(str, ports[1:])), "--clock", clock, "--dir", str(directory),
            "--restart-seconds", str(restart_seconds), "--no-collectstatic"]  # fmt: skip
    with open(log_path, "wb") as log:
        process = subprocess.Popen(argv, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        try:
            deadline = time.monotonic() + 25
            while "cluster ready" not in log_path.read_text():
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the cluster did not start: {log_path.read_text()[-3000:]}")
                time.sleep(0.1)
            logs = {port: directory / f"daphne-{port}.log" for port in ports[1:]}
            yield LiveCluster(f"http://127.0.0.1:{ports[0]}", logs, ports, directory)
        finally:
            # SIGTERM: the cluster stops its processes and exits. Killed instead, it still
            # takes them along (each dies with its parent, see deploy/cluster.py).
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)
            _wait_for_its_connections_to_close()
