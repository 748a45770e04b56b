"""``make lighthouse``: Lighthouse's accessibility and best-practices scores of the lobby and a
table page, in the desktop and the mobile form factor; fails below the floor.

``python -m tests.lighthouse.run [--floor 95] [--out DIR]``

It migrates a fresh SQLite database in a temporary folder, seeds the demo (``seed_demo``, as
``make play`` does), deals alice and carol into a hand at a Survivor table on a ten-minute
clock (so the hand is in play throughout), starts daphne on loopback with the in-process clock
(the demo's bots play on at their tables), logs alice and bob in through the login form, and
runs Lighthouse (npm; its Node API, in ``measure.mjs``) on
Debian's Chromium for each page and form factor: the lobby (alice), the table as the player (alice)
and as a spectator (bob). Each run's user's cookies are set in the browser before it.

It prints a table of the scores and, under it, each audit that failed, with a few of the
elements it names; it writes each page's full report to ``--out`` (``test-artifacts/lighthouse/`` by
default) as ``<page>-<form factor>.json``. It exits 1 when a score is below the floor or when
an accessibility audit that failed is one axe-core rates serious or critical. Every step is
bounded in time; the server is stopped and the temporary database removed at the end.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.cookiejar import CookieJar
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
LIGHTHOUSE = ROOT / "node_modules" / "lighthouse"
MEASURE = Path(__file__).resolve().parent / "measure.mjs"
ARTIFACTS = ROOT / "test-artifacts"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CATEGORIES = ("accessibility", "best-practices")
FORM_FACTORS = ("desktop", "mobile")
#: Headless Chromium as root in a container: no sandbox; no GPU, no background chatter.
CHROME_FLAGS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
    "--no-first-run", "--disable-background-networking", "--disable-component-update",
    "--disable-sync",
)  # fmt: skip
#: A ceiling for each page (Lighthouse's own for the page's load is 30 s).
RUN_SECONDS = 90
SERIOUS = ("serious", "critical")
PLAYER, OPPONENT, SPECTATOR = "alice", "carol", "bob"
TABLE_NAME = "Survivor $1, a hand in play"


@dataclass(frozen=True)
class Result:
    """One Lighthouse run: its scores (0-100) and the audits that cost points."""

    page: str
    form_factor: str
    scores: dict[str, int]
    failed: list[dict[str, Any]]

    def passes(self, floor: int) -> bool:
        serious = [audit for audit in self.failed if audit["impact"] in SERIOUS]
        return min(self.scores.values()) >= floor and not serious


def summarize(page: str, form_factor: str, report: dict[str, Any]) -> Result:
    """The scores of a Lighthouse JSON report and its failed audits that carry weight, each as
    {category, id, title, impact (axe-core's, for accessibility), items: a few elements}."""
    if report["finalDisplayedUrl"] != report["requestedUrl"]:
        # Measuring the login page instead would pass for the wrong reason.
        raise RuntimeError(
            f"{page} ({form_factor}): {report['requestedUrl']} led to "
            f"{report['finalDisplayedUrl']}: the login did not hold"
        )
    scores: dict[str, int] = {}
    failed: list[dict[str, Any]] = []
    for key in CATEGORIES:
        category = report["categories"][key]
        scores[key] = round((category["score"] or 0) * 100)
        for ref in category["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref["weight"] == 0 or audit["score"] is None or audit["score"] >= 1:
                continue
            details = audit.get("details") or {}
            debug = next(
                (item for item in details.get("items", []) if item.get("type") == "debugdata"),
                details.get("debugData") or {},
            )
            failed.append(
                {
                    "category": key,
                    "id": ref["id"],
                    "title": audit["title"],
                    "impact": debug.get("impact", ""),
                    "items": [_item_words(item) for item in details.get("items", [])[:4]],
                }
            )
    return Result(page, form_factor, scores, failed)


def _item_words(item: dict[str, Any]) -> str:
    """One element or message of an audit's details, in a line."""
    node = item.get("node") or {}
    if node:
        return f"{node.get('selector', '')} {node.get('snippet', '')}".strip()[:200]
    for key in ("description", "source", "url", "value"):
        if item.get(key):
            text = item[key] if isinstance(item[key], str) else json.dumps(item[key])
            return text[:200]
    return json.dumps(item)[:200]


def print_results(results: list[Result], floor: int) -> None:
    head = f"{'page':<16}{'form factor':<13}" + "".join(f"{key:>16}" for key in CATEGORIES)
    print(head)
    print("-" * len(head))
    for result in results:
        cells = "".join(f"{result.scores[key]:>16}" for key in CATEGORIES)
        flag = "" if result.passes(floor) else "   <- below the floor or serious"
        print(f"{result.page:<16}{result.form_factor:<13}{cells}{flag}")
    for result in results:
        for audit in result.failed:
            impact = f" [{audit['impact']}]" if audit["impact"] else ""
            print(f"\n{result.page} {result.form_factor}: {audit['category']} {audit['id']}"
                  f"{impact}: {audit['title']}")  # fmt: skip
            for words in audit["items"]:
                print(f"    {words}")


@contextmanager
def chromium() -> Iterator[int]:
    """Debian's Chromium, headless, with a fresh profile; yields its DevTools port."""
    with tempfile.TemporaryDirectory(prefix="lighthouse-chromium-") as profile:
        argv = [CHROMIUM, *CHROME_FLAGS, f"--user-data-dir={profile}",
                "--remote-debugging-port=0", "about:blank"]  # fmt: skip
        process = subprocess.Popen(argv, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
        try:
            yield _devtools_port(process)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=5)


def _devtools_port(process: subprocess.Popen[bytes]) -> int:
    """The port Chromium prints on stderr when it listens (within 30 s)."""
    assert process.stderr is not None
    lines: list[str] = []
    timer = threading.Timer(30, process.kill)  # a Chromium that never says it is up
    timer.start()
    try:
        for raw in process.stderr:
            line = raw.decode(errors="replace")
            lines.append(line)
            if match := re.search(r"DevTools listening on ws://[^:]+:(\d+)/", line):
                # Keep reading stderr, or Chromium blocks once the pipe is full.
                threading.Thread(target=process.stderr.read, daemon=True).start()
                return int(match.group(1))
    finally:
        timer.cancel()
    raise RuntimeError(f"chromium did not start: {''.join(lines)[-2000:]}")


def run_lighthouse(port: int, runs: list[dict[str, Any]]) -> None:
    """tests/lighthouse/measure.mjs over the Chromium on ``port``: each run's JSON report is
    written to its ``out``."""
    plan = {"port": port, "categories": list(CATEGORIES), "runs": runs}
    done = subprocess.run(
        ["node", str(MEASURE)], input=json.dumps(plan), text=True, capture_output=True,
        timeout=RUN_SECONDS * len(runs), cwd=ROOT,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse failed: {(done.stderr or done.stdout)[-3000:]}")


def log_in(url: str, name: str, password: str) -> list[dict[str, str]]:
    """The cookies of ``name`` logged in through the login form."""
    jar = CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    with opener.open(f"{url}/accounts/login/", timeout=10) as response:
        response.read()
    token = next(cookie.value for cookie in jar if cookie.name == "csrftoken")
    form = {"username": name, "password": password, "csrfmiddlewaretoken": token}
    request = urllib.request.Request(
        f"{url}/accounts/login/",
        data=urllib.parse.urlencode(form).encode(),
        headers={"Referer": f"{url}/accounts/login/"},
    )
    with opener.open(request, timeout=10) as response:
        response.read()
    cookies = [{"name": cookie.name, "value": cookie.value} for cookie in jar]
    if not any(cookie["name"] == "sessionid" for cookie in cookies):
        raise RuntimeError(f"{name} could not log in")
    return cookies


def check_the_hand_is_in_play(url: str, cookies: dict[str, list[dict[str, str]]]) -> None:
    """The table page draws alice's cards (``data-card``) and none for bob, the spectator: the
    pages measured are the ones meant."""
    drawn = {}
    for name in (PLAYER, SPECTATOR):
        header = "; ".join(f"{cookie['name']}={cookie['value']}" for cookie in cookies[name])
        request = urllib.request.Request(url, headers={"Cookie": header})
        with urllib.request.urlopen(request, timeout=10) as response:
            drawn[name] = response.read().decode().count("data-card=")
    if not drawn[PLAYER] or drawn[SPECTATOR]:
        raise RuntimeError(f"the table at {url} is not a hand in play for {PLAYER}: {drawn}")


def prepare_database(folder: Path) -> int:
    """A fresh SQLite database with the demo and a Survivor table where alice and carol hold
    cards, asked to declare, on a ten-minute clock (so the hand is still in play while every
    page is measured); returns that table's id. Settings are read here, so the environment
    names the database first."""
    os.environ["DATABASE_URL"] = f"sqlite:///{folder / 'db.sqlite3'}"
    os.environ.setdefault("DJANGO_SECRET_KEY", secrets.token_urlsafe(50))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardroom.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from accounts.models import User
    from cardroom.tables.runtime import table_act, table_create
    from tests.cardroom.driving import play_to_declare

    call_command("migrate", interactive=False, verbosity=0)
    call_command("seed_demo", verbosity=0)
    options = {"ante": 100, "seats": 6, "decision_seconds": 600, "ante_seconds": 600}
    table = table_create(game="guts", preset="survivor", options=options, name=TABLE_NAME)
    players = [User.objects.get(username=name) for name in (PLAYER, OPPONENT)]
    for player in players:
        table_act(table_id=table.pk, user=player, action={"kind": "sit", "buy_in": 10_000})
    play_to_declare(table, players)
    return int(table.pk)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--floor", type=int, default=95, help="the lowest passing score")
    parser.add_argument("--out", type=Path, default=ARTIFACTS / "lighthouse")
    args = parser.parse_args(argv)
    if not LIGHTHOUSE.exists():
        sys.exit(f"{LIGHTHOUSE} is missing: run `make install` (npm ci installs lighthouse)")
    if not os.path.exists(CHROMIUM):
        sys.exit(f"{CHROMIUM} is missing: apt-get install chromium (Debian's; .ci/run installs it)")
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as folder:
        table = prepare_database(Path(folder))
        print(f"database migrated and seeded in {time.monotonic() - started:.0f} s", flush=True)
        from cardroom.management.commands.seed_demo import DEMO_PASSWORD
        from tests.live import live_server

        results: list[Result] = []
        with live_server("lighthouse") as url:
            cookies = {name: log_in(url, name, DEMO_PASSWORD) for name in (PLAYER, SPECTATOR)}
            check_the_hand_is_in_play(f"{url}/tables/{table}/", cookies)
            pages = [
                ("lobby", "/lobby/", PLAYER),
                ("table-player", f"/tables/{table}/", PLAYER),
                ("table-spectator", f"/tables/{table}/", SPECTATOR),
            ]
            runs = [
                {"page": page, "url": f"{url}{path}", "cookies": cookies[name],
                 "formFactor": form_factor, "out": str(args.out / f"{page}-{form_factor}.json")}
                for page, path, name in pages
                for form_factor in FORM_FACTORS
            ]  # fmt: skip
            measuring = time.monotonic()
            with chromium() as port:
                run_lighthouse(port, runs)
            print(f"{len(runs)} pages measured in {time.monotonic() - measuring:.0f} s\n")
        for run in runs:
            report = json.loads(Path(run["out"]).read_text())
            results.append(summarize(run["page"], run["formFactor"], report))
    print_results(results, args.floor)
    print(f"\nreports in {args.out}; {time.monotonic() - started:.0f} s in all")
    failing = [result for result in results if not result.passes(args.floor)]
    if failing:
        print(f"FAILED: {len(failing)} of {len(results)} runs below {args.floor} or serious")
        return 1
    print(f"passed: every score is at least {args.floor}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
