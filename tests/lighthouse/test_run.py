"""The measuring script's reading of a Lighthouse report: the scores, the audits that cost
points, and what passes (tests/lighthouse/run.py; the real runs are ``make lighthouse``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.lighthouse.run import summarize

LOBBY = "http://127.0.0.1:8000/lobby/"


def _report(
    accessibility: float, target_size: float, impact: str, final: str = LOBBY
) -> dict[str, Any]:
    node = {"type": "node", "selector": "td > a", "snippet": '<a href="/tables/3/">'}
    return {
        "requestedUrl": LOBBY,
        "finalDisplayedUrl": final,
        "categories": {
            "accessibility": {
                "score": accessibility,
                "auditRefs": [
                    {"id": "target-size", "weight": 7},
                    {"id": "td-has-header", "weight": 0},
                ],
            },
            "best-practices": {"score": 1, "auditRefs": [{"id": "errors-in-console", "weight": 1}]},
        },
        "audits": {
            "target-size": {
                "title": "Touch targets do not have sufficient size or spacing.",
                "score": target_size,
                "details": {
                    "items": [{"node": node}],
                    "debugData": {"type": "debugdata", "impact": impact},
                },
            },
            # Weighed nothing: it costs no points, so it is not reported.
            "td-has-header": {"title": "Cells without headers", "score": 0, "details": {}},
            "errors-in-console": {"title": "No errors", "score": 1, "details": {"items": []}},
        },
    }


def test_the_scores_and_the_audits_that_cost_points() -> None:
    result = summarize("lobby", "desktop", _report(0.96, 0, "serious"))
    assert result.scores == {"accessibility": 96, "best-practices": 100}
    assert [(audit["id"], audit["impact"]) for audit in result.failed] == [
        ("target-size", "serious")
    ]
    assert result.failed[0]["items"] == ['td > a <a href="/tables/3/">']


def test_a_score_below_the_floor_or_a_serious_violation_fails() -> None:
    assert summarize("lobby", "mobile", _report(1, 1, "")).passes(95)
    assert not summarize("lobby", "mobile", _report(0.94, 1, "")).passes(95)
    # 96 clears the floor, but axe-core rates the failed audit serious.
    assert not summarize("lobby", "mobile", _report(0.96, 0, "serious")).passes(95)
    assert summarize("lobby", "mobile", _report(0.96, 0, "moderate")).passes(95)


def test_a_page_that_sent_the_browser_to_the_login_is_not_scored() -> None:
    with pytest.raises(RuntimeError, match="the login did not hold"):
        summarize("lobby", "mobile", _report(1, 1, "", final=LOBBY + "../accounts/login/"))
