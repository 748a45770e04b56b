"""The auditors' export of hands, in the admin next to the rake report (docs/hand-history.md).

Any period, one table or all, as JSON lines or text, with everything: every event (private
ones with their readers), the deck and its salts, the openings checked against the commitment,
the ledger transfers. Streamed hand by hand, so a month of a busy room is never held in memory.
The same permission as the other audit pages: the admin's staff login, then the auditors'.
"""

from __future__ import annotations

from datetime import timedelta

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.language import said
from cardroom.audit.views import _context, auditor_only
from cardroom.history.export import Period, hand_records, hands_between, language_for
from cardroom.history.past_hands import FORMATS, streamed
from cardroom.models import Table
from games.words import sentence_of

__all__ = ["hands_export"]


@auditor_only
def hands_export(request: HttpRequest) -> HttpResponseBase:
    """The form (from, to, table, format); with ``download`` the hands themselves, streamed."""
    today = timezone.now().date()
    start = request.GET.get("from") or str(today - timedelta(days=6))
    end = request.GET.get("to") or str(today)
    kind = request.GET.get("format", "jsonl")
    raw_table = request.GET.get("table", "")
    table_id = int(raw_table) if raw_table.isdigit() else None
    error = ""
    if table_id is None and raw_table:
        # Translators: %(table)s is what was typed, in quotes.
        error = _("%(table)s is not a table's id") % {"table": repr(raw_table)}
    try:
        period = Period.parse(start, end)
    except ValueError as problem:
        error = said(sentence_of(problem))
    if kind not in FORMATS:
        error = _("The format is jsonl or text.")
    if "download" in request.GET and not error:
        content_type, suffix, lines = FORMATS[kind]
        records = hand_records(
            hands_between(period, table_id=table_id), audit=True, language=language_for(kind)
        )
        last = period.end - timedelta(microseconds=1)
        name = f"hands-{period.start:%Y-%m-%d}-{last:%Y-%m-%d}"
        name += f"-table-{table_id}" if table_id else ""
        return streamed(request, lines(records), content_type, f"{name}.{suffix}")
    context = _context(request, _("Export hands"))
    context.update(
        start=start,
        end=end,
        kind=kind,
        table_id=table_id,
        tables=Table.objects.order_by("name").only("id", "name"),
        error=error,
    )
    return TemplateResponse(
        request, "admin/cardroom/hands_export.html", context, status=400 if error else 200
    )
