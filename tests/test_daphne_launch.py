"""Every place the project starts daphne gives a WebSocket handshake the same 20 seconds.

daphne's command line refuses a handshake after 5 s; at 200 tables on two busy processes about
90 of 1,000 sockets opening at once took longer and were refused (docs/deploy.md). A launcher
that forgot the flag would bring those refusals back for its users only.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAUNCHERS = (
    "Makefile",
    "deploy/systemd/cardroom-daphne@.service",
    "deploy/cluster.py",
    "tests/live.py",
)
FLAG = re.compile(r"""--websocket_connect_timeout["',\s]+(\d+)""")


def test_each_launcher_gives_handshakes_twenty_seconds():
    for name in LAUNCHERS:
        text = (ROOT / name).read_text()
        assert "daphne" in text, name
        assert [int(seconds) for seconds in FLAG.findall(text)] == [20], name


def test_the_flag_is_read_as_written():
    """The pattern finds the value in each launcher's own spelling, and not a lookalike."""
    assert FLAG.findall('"-p", str(port), "--websocket_connect_timeout", "20",') == ["20"]
    assert FLAG.findall("--proxy-headers --websocket_connect_timeout 20 cardroom") == ["20"]
    assert FLAG.findall("--websocket_timeout 86400") == []
