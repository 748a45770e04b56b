"""The rake report: what the house took, by day, table and game (docs/architecture.md).

Rake is every transfer into the house rake account: the rake on pots and the hand fees
(transfer kinds ``rake`` and ``fee``), each recorded with its table and hand. Beside it, the
house result of banked play (Three Card Poker): every transfer from a player's stack or
bankroll into the house bank, less every transfer back (payouts, refunds, voids), so positive
means the house won. Beside them, the sit-and-gos' entry fees: every transfer into the house's
fee account less every refund out of it, each counted on the row of its tournament's game (and
its table, once it started). The house's income is the three together. Days are calendar days in the
project's time zone (UTC), ``start`` and ``end`` both included. Every figure is integer
cents, summed by the database in one grouped query (and one more for the tables' names; the
fees are read one transfer a row, with their tournaments: a registration each).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from typing import Any

from django.db.models import (
    BigIntegerField,
    Case,
    Count,
    F,
    Q,
    QuerySet,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Coalesce, TruncDate
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import AccountKind, Transfer, TransferKind
from cardroom.models import Hand, Table, Tournament
from cardroom.tournaments.money import tournament_of_key

__all__ = [
    "FIGURES",
    "RakeReport",
    "hand_transfers",
    "rake_chart",
    "rake_report",
]

#: The longest range a report covers: ten years of days is still a small page of sums.
MAX_DAYS = 3_660

#: The figures of every row and total, in cents: ``cents`` (the rake account: rake and fees,
#: the report's original figure), ``rake`` and ``fees`` (its two parts), ``house`` (the house
#: result of banked play), ``tournament_fees`` (the sit-and-gos' entry fees, less refunds) and
#: ``income`` (everything the house made: ``cents`` + ``house`` + ``tournament_fees``).
FIGURES = ("cents", "rake", "fees", "house", "tournament_fees", "income")

_PLAYERS = (AccountKind.STACK, AccountKind.BANKROLL)
_INTO_RAKE = Q(target__kind=AccountKind.RAKE)
_OUT_OF_RAKE = Q(source__kind=AccountKind.RAKE)
_TOUCHES_RAKE = _INTO_RAKE | _OUT_OF_RAKE
_HOUSE_WON = Q(target__kind=AccountKind.HOUSE, source__kind__in=_PLAYERS)
_HOUSE_PAID = Q(source__kind=AccountKind.HOUSE, target__kind__in=_PLAYERS)


@dataclass(frozen=True, slots=True)
class RakeReport:
    """The rake, fees and house result between two days (both included).

    ``rows``: one per day, table and game, in that order, each with the rake transfers
    counted and every figure of :data:`FIGURES`; ``by_day`` lists every day of the range,
    with zero where nothing was taken; ``totals`` has every figure for the whole range
    (``total`` is ``totals["cents"]``, the rake and fees).
    """

    start: date
    end: date
    total: int
    transfers: int
    rows: list[dict[str, Any]] = field(default_factory=list)
    by_day: list[dict[str, Any]] = field(default_factory=list)
    by_table: list[dict[str, Any]] = field(default_factory=list)
    by_game: list[dict[str, Any]] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The report as the command's ``--json`` prints it: cents as integers.

        The first keys are the rake's (rake and fees); ``rake``, ``fees``, ``house_result``
        and ``income`` are the range's totals, and ``income_by_day``, ``income_by_table`` and
        ``income_by_game`` give the same four figures for each day, table and game.
        """

        def split(row: dict[str, Any]) -> dict[str, int]:
            return {
                "rake": row["rake"],
                "fees": row["fees"],
                "house_result": row["house"],
                "tournament_fees": row["tournament_fees"],
                "income": row["income"],
            }

        return {
            "from": self.start.isoformat(),
            "to": self.end.isoformat(),
            "total": self.total,
            "by_day": {row["day"].isoformat(): row["cents"] for row in self.by_day},
            "by_table": {str(row["table_id"]): row["cents"] for row in self.by_table},
            "by_game": {row["game"]: row["cents"] for row in self.by_game},
            **split(self.totals),
            "income_by_day": {row["day"].isoformat(): split(row) for row in self.by_day},
            "income_by_table": {str(row["table_id"]): split(row) for row in self.by_table},
            "income_by_game": {row["game"]: split(row) for row in self.by_game},
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


def _signed(into: Q, out_of: Q) -> Case:
    """A transfer's amount counted for one side: plus into it, minus out of it, else 0."""
    return Case(
        When(into, then=F("amount")),
        When(out_of, then=-F("amount")),
        default=Value(0),
        output_field=BigIntegerField(),
    )


def _income(*, start: date, end: date) -> QuerySet[Transfer]:
    """Every transfer that made or cost the house money between the two days, each with its
    part of every figure (``part_cents``, ``part_fee``, ``part_house``), for the database to
    sum."""
    first, after = _bounds(start, end)
    return Transfer.objects.filter(
        _TOUCHES_RAKE | _HOUSE_WON | _HOUSE_PAID, created__gte=first, created__lt=after
    ).annotate(
        part_cents=_signed(_INTO_RAKE, _OUT_OF_RAKE),
        part_fee=_signed(
            _INTO_RAKE & Q(kind=TransferKind.FEE),
            # A player pays a hand fee from their stack; rake is taken from the pot. So a
            # void (cardroom/tables/control.py) gives a fee back to a stack, rake to the pot.
            _OUT_OF_RAKE & Q(kind=TransferKind.VOID, target__kind__in=_PLAYERS),
        ),
        part_house=_signed(_HOUSE_WON, _HOUSE_PAID),
    )


def _figures(cents: int, fees: int, house: int, tournament_fees: int = 0) -> dict[str, int]:
    """Every figure of :data:`FIGURES` from the four summed (the tournaments' fees by
    :func:`_tournament_fees`, the others by the database)."""
    return {
        "cents": cents,
        "rake": cents - fees,
        "fees": fees,
        "house": house,
        "tournament_fees": tournament_fees,
        "income": cents + house + tournament_fees,
    }


_INTO_FEES = Q(target__kind=AccountKind.FEES)
_OUT_OF_FEES = Q(source__kind=AccountKind.FEES)


def _tournament_fees(*, start: date, end: date) -> dict[tuple[date, int | None, str], int]:
    """The tournaments' fees less their refunds between the two days, by day, table (None
    before the tournament started) and game: each transfer of the fee account is its
    tournament's (its key names it: cardroom/tournaments/money.py)."""
    first, after = _bounds(start, end)
    moved = list(
        Transfer.objects.filter(_INTO_FEES | _OUT_OF_FEES, created__gte=first, created__lt=after)
        .annotate(
            day=TruncDate("created", tzinfo=timezone.get_current_timezone()),
            part=_signed(_INTO_FEES, _OUT_OF_FEES),
        )
        .values_list("day", "idempotency_key", "part")
    )
    ids = {pk for _, key, _ in moved if (pk := tournament_of_key(key)) is not None}
    tournaments = {
        pk: (table_id, game)
        for pk, table_id, game in Tournament.objects.filter(pk__in=ids).values_list(
            "pk", "table_id", "game"
        )
    }
    fees: dict[tuple[date, int | None, str], int] = {}
    for day, key, part in moved:
        table_id, game = tournaments.get(tournament_of_key(key) or 0, (None, ""))
        fees[day, table_id, game] = fees.get((day, table_id, game), 0) + part
    return fees


def _zero() -> dict[str, int]:
    return dict.fromkeys(FIGURES, 0)


def _add(into: dict[str, Any], row: dict[str, Any]) -> None:
    for name in FIGURES:
        into[name] += row[name]


def rake_report(*, start: date, end: date) -> RakeReport:
    """The rake, fees and house result between ``start`` and ``end`` (both included), summed
    by the database: one grouped query, one of the tournaments' fees (and their tournaments'
    when there are any), and one for the names of the tables."""
    zero = Value(0, output_field=BigIntegerField())
    grouped: list[dict[str, Any]] = [
        dict(row)
        for row in _income(start=start, end=end)
        .annotate(day=TruncDate("created", tzinfo=timezone.get_current_timezone()))
        .values("day", "table_id")
        .annotate(
            sum_cents=Coalesce(Sum("part_cents"), zero),
            sum_fee=Coalesce(Sum("part_fee"), zero),
            sum_house=Coalesce(Sum("part_house"), zero),
            count=Count("id", filter=_TOUCHES_RAKE),
        )
        .order_by("day", "table_id")
    ]
    fees = _tournament_fees(start=start, end=end)
    table_ids = {row["table_id"] for row in grouped if row["table_id"] is not None}
    table_ids |= {table_id for _, table_id, _ in fees if table_id is not None}
    tables: dict[int | None, Table] = {
        table.pk: table for table in Table.objects.filter(pk__in=table_ids)
    }
    for row in grouped:
        table = tables.get(row["table_id"])
        row["game"] = table.game if table else ""
        row["sum_tournament"] = fees.pop((row["day"], row["table_id"], row["game"]), 0)
    grouped += [
        {"day": day, "table_id": table_id, "game": game, "sum_cents": 0, "sum_fee": 0,
         "sum_house": 0, "sum_tournament": cents, "count": 0}
        for (day, table_id, game), cents in fees.items()
    ]  # fmt: skip
    grouped.sort(key=lambda row: (row["day"], row["table_id"] is None, row["table_id"] or 0))
    rows: list[dict[str, Any]] = []
    days: dict[date, dict[str, Any]] = {}
    by_table: dict[int | None, dict[str, Any]] = {}
    by_game: dict[str, dict[str, Any]] = {}
    totals = _zero()
    transfers = 0
    for row in grouped:
        table = tables.get(row["table_id"])
        game = row["game"]
        entry = {
            "day": row["day"],
            "table_id": row["table_id"],
            "table": table.name if table else _("(no table)"),
            "game": game,
            "transfers": row["count"],
            **_figures(row["sum_cents"], row["sum_fee"], row["sum_house"], row["sum_tournament"]),
        }
        rows.append(entry)
        transfers += row["count"]
        _add(totals, entry)
        _add(days.setdefault(row["day"], {"day": row["day"], **_zero()}), entry)
        per_table = by_table.setdefault(
            row["table_id"],
            {"table_id": row["table_id"], "table": entry["table"], "game": game, **_zero()},
        )
        _add(per_table, entry)
        _add(by_game.setdefault(game, {"game": game, **_zero()}), entry)
    every_day = [start + timedelta(days=n) for n in range((end - start).days + 1)]
    return RakeReport(
        start=start,
        end=end,
        total=totals["cents"],
        transfers=transfers,
        rows=rows,
        by_day=[days.get(day, {"day": day, **_zero()}) for day in every_day],
        by_table=sorted(
            by_table.values(), key=lambda row: (row["table_id"] is None, row["table_id"] or 0)
        ),
        by_game=[by_game[game] for game in sorted(by_game)],
        totals=totals,
    )


def _parts(transfers: list[Transfer]) -> tuple[int, int]:
    """The rake (and fees) and the house result of some transfers, read with their accounts."""
    rake = house = 0
    for t in transfers:
        rake += t.amount * (
            (t.target.kind == AccountKind.RAKE) - (t.source.kind == AccountKind.RAKE)
        )
        if t.source.kind in _PLAYERS and t.target.kind == AccountKind.HOUSE:
            house += t.amount
        elif t.source.kind == AccountKind.HOUSE and t.target.kind in _PLAYERS:
            house -= t.amount
    return rake, house


def hand_transfers(*, day: date, table_id: int | None) -> list[dict[str, Any]]:
    """The drill-down of one row: the hands that paid rake or fees, or played against the
    house, that day at that table, each with every transfer it made, in order, its ``rake``
    (rake and fees) and its ``house`` result."""
    income = _income(start=day, end=day)
    income = (
        income.filter(table_id=table_id) if table_id is not None else income.filter(table_id=None)
    )
    hand_ids = sorted({pk for pk in income.values_list("hand_id", flat=True) if pk is not None})
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
        rake, house = _parts(transfers)
        result.append(
            {
                "hand_id": pk,
                "hand": hands.get(pk),
                "rake": rake,
                "house": house,
                "transfers": transfers,
            }
        )
    loose = list(income.filter(hand_id=None).select_related("source", "target").order_by("id"))
    if loose:
        rake, house = _parts(loose)
        result.append(
            {"hand_id": None, "hand": None, "rake": rake, "house": house, "transfers": loose}
        )
    return result


#: The chart's size in SVG user units, and the room kept for the axis labels.
CHART_WIDTH, CHART_HEIGHT, CHART_LEFT, CHART_BOTTOM = 720, 220, 64, 28


def rake_chart(by_day: list[dict[str, Any]]) -> dict[str, Any]:
    """The geometry of a chart of each day's rake (bars) and house result (a line with a
    point a day), for a template to draw as SVG.

    Both series share one scale, from the lowest figure (or zero) to the highest (or zero):
    the house result goes below zero on a day the house paid out more than it won. A few day
    labels along the bottom, the highest and lowest amounts and zero on the left. Drawn on the
    server: no JavaScript is needed to read it.
    """
    count = max(len(by_day), 1)
    plot_width = CHART_WIDTH - CHART_LEFT - 8
    plot_height = CHART_HEIGHT - CHART_BOTTOM - 8
    figures = [row[name] for row in by_day for name in ("cents", "house")]
    top = max([0, *figures])
    bottom = min([0, *figures])
    span = top - bottom

    def y_of(cents: int) -> float:
        """Where an amount is, down from the top (SVG's y grows downwards)."""
        return round(8 + (0.0 if span == 0 else plot_height * (top - cents) / span), 2)

    zero = y_of(0)
    step = plot_width / count
    label_every = max(1, count // 8)
    bars = []
    for index, row in enumerate(by_day):
        x = CHART_LEFT + index * step
        y = y_of(row["cents"])
        bars.append(
            {
                "x": round(x + step * 0.1, 2),
                "y": min(y, zero),
                "width": round(max(step * 0.8, 1), 2),
                "height": round(abs(zero - y), 2),
                "day": row["day"],
                "cents": row["cents"],
                "house": row["house"],
                "house_y": y_of(row["house"]),
                "label": index % label_every == 0,
                "label_x": round(x + step / 2, 2),
            }
        )
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "left": CHART_LEFT,
        "zero": zero,
        "baseline": CHART_HEIGHT - CHART_BOTTOM,
        "label_y": CHART_HEIGHT - 10,
        "top": top,
        "bottom": bottom,
        "house_line": " ".join(f"{bar['label_x']},{bar['house_y']}" for bar in bars),
        "bars": bars,
    }
