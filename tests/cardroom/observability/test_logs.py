"""LOG_FORMAT=json: every log line one JSON object; unset, Python's plain lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SAY = "import logging; logging.getLogger('cardroom.test').warning('table %s paused', 7)"


def log_of(**env: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", SAY],
        cwd=ROOT,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stderr.strip()


def test_json_logs_are_one_object_a_line():
    line = log_of(LOG_FORMAT="json").splitlines()[-1]
    record = json.loads(line)
    assert record["message"] == "table 7 paused"
    assert record["level"] == "WARNING"
    assert record["logger"] == "cardroom.test"
    assert "time" in record


def test_plain_logs_by_default():
    assert log_of(LOG_FORMAT="").splitlines()[-1] == "table 7 paused"
