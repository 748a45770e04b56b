"""The rake report in the admin: totals, a chart, drill-down to hands, and a CSV export.

Staff only (the admin's own login), and then the ``cardroom.read_audit`` permission (the
Auditors group; superusers have every permission). The pages only read.
"""

from __future__ import annotations

import csv
from collections.abc import Callable
from datetime import date, timedelta
from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.template.response import TemplateResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import LedgerAudit
from cardroom.audit.reports import MAX_DAYS, RakeReport, hand_transfers, rake_chart, rake_report
from cardroom.models import Table

__all__ = ["rake_csv", "rake_hands", "rake_report_page"]

AUDIT = "cardroom.read_audit"
#: A view; the hands' export streams (StreamingHttpResponse is not an HttpResponse).
View = Callable[..., HttpResponseBase]
#: The range shown when none is asked for: the last 30 days, today included.
DEFAULT_DAYS = 30


def auditor_only(view: View) -> View:
    """The admin's staff login, then the auditors' permission (else 403)."""

    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        if not request.user.has_perm(AUDIT):
            raise PermissionDenied
        return view(request, *args, **kwargs)

    checked.__doc__ = view.__doc__
    return admin.site.admin_view(checked)


def _range(request: HttpRequest) -> tuple[date, date, str]:
    """The days asked for (``from`` and ``to``, YYYY-MM-DD) and an error in words, if any."""
    today = timezone.localdate()
    try:
        start = date.fromisoformat(request.GET.get("from") or str(today - timedelta(29)))
        end = date.fromisoformat(request.GET.get("to") or str(today))
    except ValueError:
        return (
            today - timedelta(29),
            today,
            _("Dates are written YYYY-MM-DD, such as 2025-01-31."),
        )
    if end < start:
        # Translators: %(end)s and %(start)s are dates written YYYY-MM-DD.
        backwards = _("The range ends (%(end)s) before it starts (%(start)s).")
        return start, end, backwards % {"end": end, "start": start}
    if (end - start).days >= MAX_DAYS:
        too_long = _("A report covers at most %(days)s days.")
        return start, end, too_long % {"days": MAX_DAYS}
    return start, end, ""


def _context(request: HttpRequest, title: str) -> dict[str, Any]:
    return {**admin.site.each_context(request), "title": title}


def _report(request: HttpRequest) -> tuple[RakeReport | None, date, date, str]:
    start, end, error = _range(request)
    return (None if error else rake_report(start=start, end=end)), start, end, error


@auditor_only
def rake_report_page(request: HttpRequest) -> HttpResponse:
    """Rake by day, table and game, with totals and a chart of rake over time."""
    report, start, end, error = _report(request)
    context = _context(request, _("Rake report"))
    context.update(
        report=report,
        start=start,
        end=end,
        error=error,
        chart=rake_chart(report.by_day) if report else None,
        last_audit=LedgerAudit.objects.order_by("-created").first(),
    )
    return TemplateResponse(
        request, "admin/cardroom/rake_report.html", context, status=400 if error else 200
    )


#: The CSV's columns: the first six as they always were (``cents`` is the rake and fees), then
#: the house's income split, appended so that programs reading the first ones still work.
CSV_COLUMNS = [
    "day", "table_id", "table", "game", "transfers", "cents",
    "rake_cents", "fee_cents", "house_result_cents", "income_cents",
    # Appended last (issue 35): the sit-and-gos' entry fees, which ``income_cents`` includes.
    "tournament_fee_cents",
]  # fmt: skip


def _income_cells(row: dict[str, Any]) -> list[int]:
    return [row["rake"], row["fees"], row["house"], row["income"], row["tournament_fees"]]


def csv_rows(report: RakeReport) -> list[list[Any]]:
    """The CSV's rows: the page's detail table, row for row, then its total."""
    rows: list[list[Any]] = [list(CSV_COLUMNS)]
    for row in report.rows:
        rows.append(
            [
                row["day"].isoformat(),
                "" if row["table_id"] is None else row["table_id"],
                row["table"],
                row["game"],
                row["transfers"],
                row["cents"],
                *_income_cells(row),
            ]
        )
    rows.append(
        ["total", "", "", "", report.transfers, report.total, *_income_cells(report.totals)]
    )
    return rows


@auditor_only
def rake_csv(request: HttpRequest) -> HttpResponse:
    """The report's detail rows as CSV, cents as integers."""
    report, start, end, error = _report(request)
    if report is None:
        return HttpResponse(error, status=400, content_type="text/plain; charset=utf-8")
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="rake-{start}-{end}.csv"'
    csv.writer(response).writerows(csv_rows(report))
    return response


@auditor_only
def rake_hands(request: HttpRequest) -> HttpResponse:
    """One row of the report, drilled down: its hands and every transfer of each."""
    raw_table = request.GET.get("table", "")
    try:
        day = date.fromisoformat(request.GET.get("day", ""))
        table_id = None if raw_table in ("", "none") else int(raw_table)
    except ValueError:
        return HttpResponse(
            _("Give day=YYYY-MM-DD and table=<id> (or none)."),
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    hands = hand_transfers(day=day, table_id=table_id)
    table = Table.objects.filter(pk=table_id).first() if table_id is not None else None
    if table is not None:
        # Translators: %(day)s is a date written YYYY-MM-DD, %(table)s a table's name.
        title = _("Rake on %(day)s: %(table)s") % {"day": day, "table": table.name}
    else:
        # Translators: %(day)s is a date written YYYY-MM-DD.
        title = _("Rake on %(day)s: no table") % {"day": day}
    context = _context(request, title)
    context.update(
        day=day,
        table=table,
        hands=hands,
        total=sum(h["rake"] for h in hands),
        house=sum(h["house"] for h in hands),
    )
    return TemplateResponse(request, "admin/cardroom/rake_hands.html", context)
