"""``{{ moment|moment }}``: every date and time a page shows, written one way (docs/languages.md).

The element says the moment in UTC in the page language's pattern, labelled "UTC", so it
reads right without the script; static/js/local_times.js rewrites it in the reader's own time
zone, with that zone's name, in the same pattern (``data-format``).
"""

from __future__ import annotations

from datetime import UTC, datetime

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

from accounts.language import moment_format, moment_text

register = template.Library()


@register.filter
def moment(value: datetime | None) -> SafeString | str:
    """A ``<time>`` element for ``value`` ("" for none)."""
    if value is None:
        return ""
    return format_html(
        '<time datetime="{}" data-local data-format="{}">{}</time>',
        value.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z"),
        moment_format(),
        moment_text(value),
    )
