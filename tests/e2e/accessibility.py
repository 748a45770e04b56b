"""axe-core (from npm, a dev dependency) injected into a page: its serious and critical
violations, and the page's width, for the accessibility and phone checks of the browser tests."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from django.conf import settings

#: A phone: the narrowest screen the pages must fit without sideways scrolling.
PHONE = {"width": 390, "height": 844}

_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.slice(0, 4).map((n) => ({
                    target: n.target.join(" "), html: n.html.slice(0, 160),
                    why: (n.failureSummary || "").slice(0, 240)}))}));
}"""


@cache
def _axe_source() -> str:
    path = Path(settings.BASE_DIR) / "node_modules" / "axe-core" / "axe.min.js"
    if not path.exists():
        raise AssertionError(f"{path} is missing: run `make install` (npm ci installs axe-core)")
    return path.read_text()


def serious_violations(page: Any) -> list[dict[str, Any]]:
    """The page's serious and critical accessibility violations, as axe-core reports them."""
    page.add_script_tag(content=_axe_source())
    return list(page.evaluate(_RUN))


def overflow(page: Any) -> int:
    """How many CSS pixels the page is wider than its viewport (0: it fits)."""
    return int(page.evaluate("document.documentElement.scrollWidth - window.innerWidth"))
