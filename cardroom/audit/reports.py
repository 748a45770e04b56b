"""The rake report: what the house took, by day, table and game (docs/architecture.md).

Rake is every transfer into the house rake account: the rake on pots and the hand fees
(transfer kinds ``rake`` and ``fee``), each recorded with its table and hand. Days are
calendar days in the project's time zone, ``start`` and ``end`` both included. Every figure
is integer cents, summed by the database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import BigIntegerField, Case, Count, F, Q, QuerySet, Sum, When
from django.db.models.functions import TruncDate
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import AccountKind, Transfer
from cardroom.models import Hand, Table

__all__ = [
    "RakeReport",
    "hand_transfers",
    "rake_chart",
    "rake_report",
    "rake_transfers",
]

#: The longest range a report covers: ten years of days is still a small page of sums.
MAX_DAYS = 3_660


@dataclass(frozen=True, slots=True)
class RakeReport:
    """The rake between two days (both included).

    ``rows``: one per day, table and game, in that order, each with the transfers counted;
    ``by_day`` lists every day of the range, with zero where nothing was taken.
    """

    start: date
    end: date
    total: int
    transfers: int
    rows: list[dict[str, Any]] = field(default_factory=list)
    by_day: list[dict[str, Any]] = field(default_factory=list)
    by_table: list[dict[str, Any]] = field(default_factory=list)
    by_game: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        """The report as the command's ``--json`` prints it: cents as integers."""
        return {
            "from": self.start.isoformat(),
            "to": self.end.isoformat(),
            "total": self.total,
            "by_day": {row["day"].isoformat(): row["cents"] for row in self.by_day},
            "by_table": {str(row["table_id"]): row["cents"] for row in self.by_table},
            "by_game": {row["game"]: row["cents"] for row in self.by_game},
        }


def _bounds(start: date, end: date) -> tuple[datetime, datetime]:
    """The first instant of ``start`` and the first instant after ``end``, in local time."""
    if end < start:
        raise ValueError(f"the range ends ({end}) before it starts ({start})")
    if (end - start).days >= MAX_DAYS:
        raise ValueError(f"a report covers at most {MAX_DAYS} days")
    zone = timezone.get_current_timezone()
    first = datetime.combine(start, time.min, tzinfo=zone)
    after = datetime.combine(end + timedelta(days=1), time.min, tzinfo=zone)
    return first, after


def rake_transfers(*, start: date, end: date) -> QuerySet[Transfer]:
    """Every transfer into or out of the house rake between the two days, both included.

    Out of the rake means a void giving a hand's fee back; it counts negative, so the report
    is the rake the house kept.
    """
    first, after = _bounds(start, end)
    return Transfer.objects.filter(
        Q(target__kind=AccountKind.RAKE) | Q(source__kind=AccountKind.RAKE),
        created__gte=first,
        created__lt=after,
    ).annotate(
        signed=Case(
            When(source__kind=AccountKind.RAKE, then=-F("amount")),
            default=F("amount"),
            output_field=BigIntegerField(),
        )
    )


def rake_report(*, start: date, end: date) -> RakeReport:
    """The rake between ``start`` and ``end`` (both included), summed by the database."""
    transfers = rake_transfers(start=start, end=end)
    zone = timezone.get_current_timezone()
    grouped = (
        transfers.annotate(day=TruncDate("created", tzinfo=zone))
        .values("day", "table_id")
        .annotate(cents=Sum("signed"), count=Count("id"))
        .order_by("day", "table_id")
    )
    table_ids = {row["table_id"] for row in grouped if row["table_id"] is not None}
    tables: dict[int | None, Table] = {
        table.pk: table for table in Table.objects.filter(pk__in=table_ids)
    }
    rows: list[dict[str, Any]] = []
    days: dict[date, int] = {}
    by_table: dict[int | None, dict[str, Any]] = {}
    by_game: dict[str, int] = {}
    for row in grouped:
        table = tables.get(row["table_id"])
        game = table.game if table else ""
        entry = {
            "day": row["day"],
            "table_id": row["table_id"],
            "table": table.name if table else _("(no table)"),
            "game": game,
            "transfers": row["count"],
            "cents": row["cents"],
        }
        rows.append(entry)
        days[row["day"]] = days.get(row["day"], 0) + row["cents"]
        per_table = by_table.setdefault(
            row["table_id"],
            {"table_id": row["table_id"], "table": entry["table"], "game": game, "cents": 0},
        )
        per_table["cents"] += row["cents"]
        by_game[game] = by_game.get(game, 0) + row["cents"]
    every_day = [start + timedelta(days=n) for n in range((end - start).days + 1)]
    totals = transfers.aggregate(cents=Sum("signed"), count=Count("id"))
    return RakeReport(
        start=start,
        end=end,
        total=totals["cents"] or 0,
        transfers=totals["count"],
        rows=rows,
        by_day=[{"day": day, "cents": days.get(day, 0)} for day in every_day],
        by_table=sorted(
            by_table.values(), key=lambda row: (row["table_id"] is None, row["table_id"] or 0)
        ),
        by_game=[{"game": game, "cents": cents} for game, cents in sorted(by_game.items())],
    )


def hand_transfers(*, day: date, table_id: int | None) -> list[dict[str, Any]]:
    """The drill-down of one row: the hands that paid rake that day at that table, each with
    every transfer it made (rake and the rest), in order."""
    rake = rake_transfers(start=day, end=day)
    rake = rake.filter(table_id=table_id) if table_id is not None else rake.filter(table_id=None)
    hand_ids = sorted({pk for pk in rake.values_list("hand_id", flat=True) if pk is not None})
    hands = {hand.pk: hand for hand in Hand.objects.filter(pk__in=hand_ids)}
    moved = (
        Transfer.objects.filter(hand_id__in=hand_ids)
        .select_related("source", "target")
        .order_by("id")
    )
    by_hand: dict[int, list[Transfer]] = {}
    for transfer in moved:
        assert transfer.hand_id is not None  # filtered on hand_id above
        by_hand.setdefault(transfer.hand_id, []).append(transfer)
    result = []
    for pk in hand_ids:
        transfers = by_hand.get(pk, [])
        rake_cents = sum(
            t.amount if t.target.kind == AccountKind.RAKE else -t.amount
            for t in transfers
            if AccountKind.RAKE in (t.target.kind, t.source.kind)
        )
        result.append(
            {"hand_id": pk, "hand": hands.get(pk), "rake": rake_cents, "transfers": transfers}
        )
    loose = list(rake.filter(hand_id=None).select_related("source", "target").order_by("id"))
    if loose:
        rake_cents = sum(t.amount for t in loose)
        result.append({"hand_id": None, "hand": None, "rake": rake_cents, "transfers": loose})
    return result


#: The chart's size in SVG user units, and the room kept for the axis labels.
CHART_WIDTH, CHART_HEIGHT, CHART_LEFT, CHART_BOTTOM = 720, 220, 64, 28


def rake_chart(by_day: list[dict[str, Any]]) -> dict[str, Any]:
    """The geometry of a bar chart of rake per day, for a template to draw as SVG.

    Bars are scaled to the largest day; a few day labels along the bottom, the largest
    amount and zero on the left. Drawn on the server: no JavaScript is needed to read it.
    """
    count = max(len(by_day), 1)
    plot_width = CHART_WIDTH - CHART_LEFT - 8
    plot_height = CHART_HEIGHT - CHART_BOTTOM - 8
    top = max((row["cents"] for row in by_day), default=0)
    step = plot_width / count
    label_every = max(1, count // 8)
    bars = []
    for index, row in enumerate(by_day):
        height = 0.0 if top == 0 else plot_height * row["cents"] / top
        x = CHART_LEFT + index * step
        bars.append(
            {
                "x": round(x + step * 0.1, 2),
                "y": round(8 + plot_height - height, 2),
                "width": round(max(step * 0.8, 1), 2),
                "height": round(height, 2),
                "day": row["day"],
                "cents": row["cents"],
                "label": index % label_every == 0,
                "label_x": round(x + step / 2, 2),
            }
        )
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "left": CHART_LEFT,
        "baseline": CHART_HEIGHT - CHART_BOTTOM,
        "label_y": CHART_HEIGHT - 10,
        "top": top,
        "bars": bars,
    }
