"""SVG charts drawn on the server: a line chart of balances over time and a bar chart.

No script draws them: the page carries the finished SVG, which scales with its ``viewBox`` to
the width of a phone. Each chart names itself with ``<title>`` and ``<desc>`` (read by screen
readers through ``aria-labelledby``); the pages put the same numbers in a table beside it.

Amounts stay integer cents: the axis steps are whole cents (1, 2 or 5 times a power of ten),
and only the drawing positions are fractions of the chart's width.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.utils import dateformat
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from accounts.money import format_cents

__all__ = ["Bar", "Line", "bar_chart", "line_chart", "nice_ticks"]

# Narrow on purpose: on a phone's 360 px the 13-unit text is still some 10 px high.
WIDTH, HEIGHT = 480, 300
LEFT, RIGHT, TOP, BOTTOM = 84, 12, 16, 40
FONT = 13
#: Line colours, in order (the site's felt green, then its gold, then a blue).
COLOURS = ("#0f5132", "#b7791f", "#2563eb")


@dataclass(frozen=True, slots=True)
class Line:
    """A balance held between changes: ``points`` are (moment, cents) in time order."""

    label: str
    points: Sequence[tuple[datetime, int]]


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar: its label along the bottom (may be ""), its value and how that reads."""

    label: str
    value: int
    words: str


def nice_ticks(low: int, high: int, count: int = 4) -> list[int]:
    """Round axis values covering ``low`` to ``high``: about ``count`` steps of 1, 2 or 5 times
    a power of ten.

    >>> nice_ticks(0, 100_000)
    [0, 50000, 100000]
    >>> nice_ticks(99_000, 101_000)
    [99000, 99500, 100000, 100500, 101000]
    >>> nice_ticks(7, 7)
    [6, 7, 8]
    """
    if high <= low:
        return [low - 1, low, low + 1]
    raw = -(-(high - low) // count)
    power = 1
    while power * 10 <= raw:
        power *= 10
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = (low // step) * step
    last = -(-high // step) * step
    return list(range(first, last + 1, step))


def _date_format(span_seconds: float) -> str:
    """The dates along the bottom, as Django's date format (month names in the reader's
    language)."""
    if span_seconds <= 2 * 86_400:
        return "H:i"
    if span_seconds <= 300 * 86_400:
        return "M d"
    return "Y-m"


def _svg(chart_id: str, title: str, desc: str, body: list[str]) -> SafeString:
    head = (
        f'<svg class="stats-chart" id="{escape(chart_id)}" role="img" '
        f'aria-labelledby="{escape(chart_id)}-title {escape(chart_id)}-desc" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" preserveAspectRatio="xMidYMid meet" '
        f'xmlns="http://www.w3.org/2000/svg" font-size="{FONT}">'
        f'<title id="{escape(chart_id)}-title">{escape(title)}</title>'
        f'<desc id="{escape(chart_id)}-desc">{escape(desc)}</desc>'
    )
    # Safe: every text in it went through escape().
    return mark_safe(head + "".join(body) + "</svg>")


def _y_axis(ticks: list[int], y: Callable[[int], float], words: Callable[[int], str]) -> list[str]:
    parts = []
    for tick in ticks:
        at = round(y(tick), 1)
        parts.append(
            f'<line x1="{LEFT}" y1="{at}" x2="{WIDTH - RIGHT}" y2="{at}" stroke="#e5e7eb"/>'
            f'<text x="{LEFT - 6}" y="{at + 4}" text-anchor="end" fill="#374151">'
            f"{escape(words(tick))}</text>"
        )
    return parts


def line_chart(
    *,
    chart_id: str,
    title: str,
    desc: str,
    lines: Sequence[Line],
    start: datetime,
    end: datetime,
) -> SafeString:
    """Balances from ``start`` to ``end`` as step lines (a balance holds until it changes),
    with dollars up the side, dates along the bottom and a legend of the lines."""
    top = TOP + 18 * len(lines)  # room for the legend, a line each
    values = [cents for line in lines for _, cents in line.points]
    ticks = nice_ticks(min(values, default=0), max(values, default=0))
    low, high = ticks[0], ticks[-1]
    plot_width, plot_height = WIDTH - LEFT - RIGHT, HEIGHT - top - BOTTOM
    span = max((end - start).total_seconds(), 1.0)

    def x(moment: datetime) -> float:
        offset = min(max((moment - start).total_seconds(), 0.0), span)
        return LEFT + plot_width * offset / span

    def y(cents: int) -> float:
        return top + plot_height * (high - cents) / (high - low)

    body = _y_axis(ticks, y, format_cents)
    fmt = _date_format(span)
    for index in range(5):
        moment = start + (end - start) * index / 4
        anchor = ("start", "middle", "middle", "middle", "end")[index]
        body.append(
            f'<text x="{round(x(moment), 1)}" y="{HEIGHT - BOTTOM + 20}" '
            f'text-anchor="{anchor}" fill="#374151">{escape(dateformat.format(moment, fmt))}</text>'
        )
    body.append(
        f'<line x1="{LEFT}" y1="{top + plot_height}" x2="{WIDTH - RIGHT}" '
        f'y2="{top + plot_height}" stroke="#9ca3af"/>'
    )
    for index, line in enumerate(lines):
        colour = COLOURS[index % len(COLOURS)]
        dash = ' stroke-dasharray="6 4"' if index else ""
        if line.points:
            first_at, first = line.points[0]
            path = [f"M{round(x(first_at), 1)} {round(y(first), 1)}"]
            for moment, cents in line.points[1:]:
                path.append(f"H{round(x(moment), 1)}V{round(y(cents), 1)}")
            path.append(f"H{round(x(end), 1)}")
            body.append(
                f'<path d="{"".join(path)}" fill="none" stroke="{colour}" '
                f'stroke-width="2.5"{dash}><title>{escape(line.label)}</title></path>'
            )
        key_y = TOP + 18 * index
        body.append(
            f'<line x1="{LEFT}" y1="{key_y - 4}" x2="{LEFT + 24}" y2="{key_y - 4}" '
            f'stroke="{colour}" stroke-width="3"{dash}/>'
            f'<text x="{LEFT + 30}" y="{key_y}">{escape(line.label)}</text>'
        )
    return _svg(chart_id, title, desc, body)


def bar_chart(
    *,
    chart_id: str,
    title: str,
    desc: str,
    bars: Sequence[Bar],
    words: Callable[[int], str] = str,
    colour: str = COLOURS[0],
) -> SafeString:
    """Bars from zero, scaled to the largest; ``words`` writes the values up the side."""
    values = [bar.value for bar in bars]
    ticks = nice_ticks(min([0, *values]), max([0, *values]), count=3)
    if ticks[-1] <= 0:
        ticks = [0, 1]
    low, high = ticks[0], ticks[-1]
    plot_width, plot_height = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def y(value: int) -> float:
        return TOP + plot_height * (high - value) / (high - low)

    body = _y_axis(ticks, y, words)
    step = plot_width / max(len(bars), 1)
    zero = y(0)
    for index, bar in enumerate(bars):
        top, bottom = sorted((y(bar.value), zero))
        left = LEFT + index * step + step * 0.1
        body.append(
            f'<rect x="{round(left, 1)}" y="{round(top, 1)}" '
            f'width="{round(max(step * 0.8, 1), 1)}" height="{round(bottom - top, 1)}" '
            f'fill="{colour}"><title>{escape(bar.words)}</title></rect>'
        )
        if bar.label:
            body.append(
                f'<text x="{round(LEFT + index * step + step / 2, 1)}" '
                f'y="{HEIGHT - BOTTOM + 20}" text-anchor="middle" fill="#374151">'
                f"{escape(bar.label)}</text>"
            )
    body.append(
        f'<line x1="{LEFT}" y1="{round(zero, 1)}" x2="{WIDTH - RIGHT}" y2="{round(zero, 1)}" '
        f'stroke="#9ca3af"/>'
    )
    return _svg(chart_id, title, desc, body)
