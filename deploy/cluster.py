"""Several daphne processes behind nginx on this machine (``make cluster``), and nginx's site.

    DATABASE_URL=postgres://... REDIS_URL=redis://... python deploy/cluster.py run

migrates and collects the static files once, starts one daphne per port (8101 up), the
clock (in each of them, or alone under ``runclock`` with ``--clock separate``) and nginx on
127.0.0.1:8080 in front of them, its site rendered from deploy/nginx/cardroom.conf into
.local/cluster/ with every log. Ctrl-C or SIGTERM stops every process it started. A daphne
that stops on its own once serving is started again after ``--restart-seconds`` (2, as the
systemd unit's RestartSec), nginx passing its connections to the others meanwhile; any other
process stopping, or a daphne stopping while it starts, stops the whole cluster.

    python deploy/cluster.py site --server-name cardroom.example --tls-dir DIR --upstream ...

prints the same site for a real machine (docs/deploy.md). Standard library only: it runs
before anything else is set up, and never imports Django itself.
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = ROOT / "deploy" / "nginx" / "cardroom.conf"
STATIC_ROOT = ROOT / "staticfiles"  # settings.STATIC_ROOT, not imported: see the docstring
START_SECONDS = 30
STOP_SECONDS = 10
ASGI_APP = "cardroom.asgi:application"

NGINX_CONF = """\
# Written by deploy/cluster.py at every start of `make cluster`; edits are lost.
daemon off;  # in the foreground, so the supervisor sees it stop and can stop it
worker_processes 1;
{user}pid nginx.pid;
error_log error.log warn;
events {{
    worker_connections 1024;
}}
http {{
    include /etc/nginx/mime.types;  # Debian's nginx package
    default_type application/octet-stream;
    # Which daphne served each request, for anyone watching the load spread.
    log_format cluster '$remote_addr [$time_local] "$request" $status $body_bytes_sent '
                       'upstream=$upstream_addr $request_time';
    access_log access.log cluster;
    client_body_temp_path temp/client_body;
    proxy_temp_path temp/proxy;
    fastcgi_temp_path temp/fastcgi;
    uwsgi_temp_path temp/uwsgi;
    scgi_temp_path temp/scgi;
    include site.conf;
}}
"""


def render_site(
    *, upstreams: list[str], listen: str, server_name: str, static_root: Path = STATIC_ROOT
) -> str:
    """deploy/nginx/cardroom.conf with its blanks filled in."""
    values = {
        "@UPSTREAMS@": "\n".join(f"    server {upstream};" for upstream in upstreams),
        "@LISTEN@": listen,
        "@SERVER_NAME@": server_name,
        "@STATIC_ROOT@": str(static_root),
    }
    text = TEMPLATE.read_text()
    for blank, value in values.items():
        text = text.replace(blank, value)
    if left := re.search(r"@[A-Z_]+@", text):
        raise SystemExit(f"{TEMPLATE} has a blank this script does not fill: {left.group()}")
    return text


def tls_listen(tls_dir: str) -> str:
    """HTTPS on 443 with the certificate in ``tls_dir`` (certbot's layout); HTTP redirects."""
    return f"""\
    listen 443 ssl;
    listen [::]:443 ssl;
    listen 80;
    listen [::]:80;
    ssl_certificate {tls_dir}/fullchain.pem;
    ssl_certificate_key {tls_dir}/privkey.pem;
    # Nothing is served in clear: plain HTTP only redirects to HTTPS.
    if ($scheme = http) {{
        return 301 https://$host$request_uri;
    }}"""


def nginx_binary() -> str | None:
    """Debian's nginx, found also when /usr/sbin is not on this user's PATH."""
    path = os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin", "/usr/local/sbin"])
    return shutil.which("nginx", path=path)


class Stop(Exception):
    """Why the cluster is stopping (a signal, or a process that stopped on its own)."""


class Cluster:
    def __init__(self, directory: Path, restart_seconds: float = 2.0) -> None:
        self.directory = directory
        self.restart_seconds = restart_seconds
        self.children: dict[str, subprocess.Popen[bytes]] = {}
        self.signal: int | None = None
        # Each daphne's port and command, those seen serving, and when each stopped one is due
        # to start again.
        self.daphnes: dict[str, tuple[int, list[str], dict[str, str] | None]] = {}
        self.serving: set[str] = set()
        self.restarts: dict[str, float] = {}

    def on_signal(self, signum: int, _frame: object) -> None:
        self.signal = signum

    def start(
        self, name: str, argv: list[str], env: dict[str, str] | None = None, again: bool = False
    ) -> None:
        """Start ``argv`` with its output in ``<name>.log`` (added to, when started ``again``),
        in a session of its own: Ctrl-C reaches this script alone, which then stops every
        child in order."""
        with open(self.directory / f"{name}.log", "ab" if again else "wb") as log:
            self.children[name] = subprocess.Popen(
                argv,
                cwd=ROOT,
                env={**os.environ, **(env or {})},
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=_die_with_parent,
            )
        if name in self.daphnes:  # for whoever wants to stop one (nginx writes its own)
            (self.directory / f"{name}.pid").write_text(f"{self.children[name].pid}\n")

    def start_daphne(self, port: int, argv: list[str], env: dict[str, str] | None) -> None:
        name = f"daphne-{port}"
        self.daphnes[name] = (port, argv, env)
        self.start(name, argv, env)

    def check(self) -> None:
        """Raise Stop when a signal came or a process ended, but for a daphne that had been
        serving: that one is started again ``restart_seconds`` later, as systemd would."""
        if self.signal is not None:
            raise Stop(f"stopping ({signal.Signals(self.signal).name})")
        now = time.monotonic()
        for name, child in list(self.children.items()):
            if child.poll() is None:
                starting = name in self.daphnes and name not in self.serving
                if starting and accepting(self.daphnes[name][0]):
                    self.serving.add(name)
                continue
            stopped = f"{name} stopped (exit {child.returncode}); its log: {self.log(name)}"
            if name not in self.serving:  # not a daphne, or one that failed as it started
                raise Stop(stopped)
            del self.children[name]
            self.serving.discard(name)
            self.restarts[name] = now + self.restart_seconds
            print(f"{stopped}; nginx passes its connections to the others; "
                  f"starting it again in {self.restart_seconds:g} s", flush=True)  # fmt: skip
        for name, due in list(self.restarts.items()):
            if now >= due:
                del self.restarts[name]
                self.start(name, *self.daphnes[name][1:], again=True)
                print(f"{name} started again", flush=True)

    def step(self, name: str, argv: list[str]) -> None:
        """Run one command to its end (migrate, collectstatic), still answering Ctrl-C."""
        self.start(name, argv)
        child = self.children.pop(name)
        while child.poll() is None:
            if self.signal is not None:
                _stop([child])
                self.check()
            time.sleep(0.1)
        if child.returncode != 0:
            tail = self.log(name).read_text(errors="replace")[-2000:]
            raise Stop(f"{name} failed (exit {child.returncode}):\n{tail}")

    def wait_until(self, what: str, ready: Callable[[], bool]) -> None:
        deadline = time.monotonic() + START_SECONDS
        while not ready():
            self.check()
            if time.monotonic() > deadline:
                raise Stop(f"{what} did not start in {START_SECONDS} s; logs in {self.directory}")
            time.sleep(0.1)

    def stop(self) -> None:
        # nginx first, so no request is passed to a daphne that is going away.
        order = sorted(self.children, key=lambda name: name != "nginx")
        _stop([self.children[name] for name in order])

    def log(self, name: str) -> Path:
        return self.directory / f"{name}.log"


def _stop(children: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM to each (daphne closes its sockets, nginx and runclock stop), then SIGKILL to
    whatever is still there after STOP_SECONDS."""
    for child in children:
        if child.poll() is None:
            child.terminate()
    deadline = time.monotonic() + STOP_SECONDS
    for child in children:
        try:
            child.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()


def _die_with_parent() -> None:
    """In each child, before it runs: Linux sends it SIGTERM if this script dies, even of a
    SIGKILL, so no daphne or nginx outlives its supervisor."""
    if sys.platform == "linux":
        ctypes.CDLL(None).prctl(1, signal.SIGTERM)  # 1 = PR_SET_PDEATHSIG


def accepting(port: int) -> bool:
    with socket.socket() as probe:
        return probe.connect_ex(("127.0.0.1", port)) == 0


def run(args: argparse.Namespace) -> int:
    for name in ("DATABASE_URL", "REDIS_URL"):
        if not os.environ.get(name):
            print(
                f"{name} is not set. Several server processes need one shared database and "
                "one shared channel layer (PostgreSQL and Redis), for example:\n"
                "  DATABASE_URL=postgres://postgres@127.0.0.1:5432/cardroom "
                "REDIS_URL=redis://127.0.0.1:6379/0 make cluster",
                file=sys.stderr,
            )
            return 2
    nginx = nginx_binary()
    if nginx is None:
        print(
            "nginx is not installed. On Debian: sudo apt-get install nginx\n"
            "(the cluster runs it as you, on loopback, with its own configuration; the\n"
            "system's nginx service need not run: sudo systemctl disable --now nginx)",
            file=sys.stderr,
        )
        return 2
    ports = [int(port) for port in args.ports.split(",")] if args.ports else []
    ports = ports or list(range(args.first_port, args.first_port + args.processes))
    if args.port in ports or len(set(ports)) != len(ports):
        print(f"every port must differ: nginx {args.port}, daphne {ports}", file=sys.stderr)
        return 2

    directory = Path(args.dir).resolve()
    (directory / "temp").mkdir(parents=True, exist_ok=True)
    cluster = Cluster(directory, args.restart_seconds)
    signal.signal(signal.SIGINT, cluster.on_signal)
    signal.signal(signal.SIGTERM, cluster.on_signal)
    python = sys.executable
    separate = args.clock == "separate"
    origin = f"http://127.0.0.1:{args.port}"
    env = {
        "PYTHONUNBUFFERED": "1",  # each log line as it happens, for people and the tests
        # Set either way: under pytest the settings' default is no clock in the process.
        "CARDROOM_CLOCK_IN_PROCESS": "0" if separate else "1",
        # nginx passes Host without the port (deploy/nginx/cardroom.conf says why), so a
        # browser's form posted from 127.0.0.1:PORT needs its origin trusted.
        "CSRF_TRUSTED_ORIGINS": ",".join(
            filter(None, [os.environ.get("CSRF_TRUSTED_ORIGINS"), origin])
        ),
    }
    try:
        # Once for the whole cluster: the processes share the database and STATIC_ROOT.
        cluster.step("migrate", [python, "manage.py", "migrate", "--noinput"])
        if not args.no_collectstatic:
            collect = [python, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"]
            cluster.step("collectstatic", collect)
        if separate:
            cluster.start("clock", [python, "manage.py", "runclock"], env)
        for port in ports:
            # A handshake may take 20 s before daphne refuses it (docs/deploy.md).
            daphne = [python, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                      "--websocket_connect_timeout", "20"]  # fmt: skip
            cluster.start_daphne(port, [*daphne, "--proxy-headers", ASGI_APP], env)
        for port in ports:
            cluster.wait_until(f"daphne on {port}", functools.partial(accepting, port))

        site = render_site(
            upstreams=[f"127.0.0.1:{port}" for port in ports],
            listen=f"    listen 127.0.0.1:{args.port};",
            server_name="127.0.0.1 localhost",
        )
        (directory / "site.conf").write_text(site)
        (directory / "nginx.conf").write_text(
            NGINX_CONF.format(
                # As root, nginx would hand its workers to "nobody", who may not read the
                # checkout: the workers stay the user who ran make, like everything else.
                user=f"user {pwd.getpwuid(os.geteuid()).pw_name};\n" if os.geteuid() == 0 else ""
            )
        )
        nginx_argv = [nginx, "-p", f"{directory}/", "-c", str(directory / "nginx.conf")]
        nginx_argv += ["-e", str(directory / "error.log")]  # not the system's log at start
        cluster.step("nginx-test", [*nginx_argv, "-t", "-q"])
        cluster.start("nginx", nginx_argv)
        cluster.wait_until(f"nginx on {args.port}", lambda: accepting(args.port))
        daphnes = ", ".join(str(port) for port in ports)
        clock = "runclock alone" if separate else "in each daphne"
        print(
            f"cluster ready: {origin}/ (nginx; daphne on {daphnes}; clock {clock}; "
            f"logs in {directory}). Ctrl-C stops it.",
            flush=True,
        )
        while True:
            cluster.check()
            time.sleep(0.2)
    except Stop as reason:
        print(reason, file=sys.stderr, flush=True)
        return 0 if cluster.signal is not None else 1
    finally:
        cluster.stop()
        print("cluster stopped", flush=True)


def site(args: argparse.Namespace) -> int:
    listen = tls_listen(args.tls_dir) if args.tls_dir else f"    listen {args.listen};"
    print(
        render_site(
            upstreams=args.upstream,
            listen=listen,
            server_name=args.server_name,
            static_root=Path(args.static_root),
        ),
        end="",
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    run_parser = commands.add_parser("run", help="start the local cluster until Ctrl-C")
    run_parser.add_argument("--processes", type=int, default=2, help="daphne processes")
    run_parser.add_argument("--first-port", type=int, default=8101, help="the first's port")
    run_parser.add_argument("--ports", help="daphne ports, comma-separated (else from first)")
    run_parser.add_argument("--port", type=int, default=8080, help="nginx's port on loopback")
    run_parser.add_argument("--clock", choices=["in-process", "separate"], default="in-process")
    run_parser.add_argument("--dir", default=str(ROOT / ".local" / "cluster"))
    run_parser.add_argument(
        "--restart-seconds", type=float, default=2.0, help="before a stopped daphne starts again"
    )
    run_parser.add_argument(
        "--no-collectstatic", action="store_true", help="STATIC_ROOT is up to date already"
    )
    run_parser.set_defaults(handler=run)

    site_parser = commands.add_parser("site", help="print the nginx site for a machine")
    site_parser.add_argument(
        "--upstream", action="append", required=True, help="HOST:PORT of a daphne; repeat"
    )
    site_parser.add_argument("--server-name", required=True, help="as ALLOWED_HOSTS, spaced")
    site_parser.add_argument("--tls-dir", help="fullchain.pem and privkey.pem (HTTPS on 443)")
    site_parser.add_argument("--listen", default="80", help="without --tls-dir (plain HTTP)")
    site_parser.add_argument("--static-root", default=str(STATIC_ROOT))
    site_parser.set_defaults(handler=site)

    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
