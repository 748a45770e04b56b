"""A player's sit-and-go results over a period (docs/statistics.md, "Tournaments").

Counted from their entries of tournaments that finished in the period (by the time each
ended): entered, won (first place), in the money (paid a prize), the prizes, the fees paid and
the net (prizes less buy-ins and fees), all in cents. A cancelled tournament refunded every
entrant and counts for nothing. One query.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import BigIntegerField, Count, F, Q, Sum
from django.db.models.functions import Coalesce

from accounts.models import User
from cardroom.models.tournaments import EntryStatus, TournamentStatus
from cardroom.stats.period import Period

__all__ = ["TournamentFigures", "tournament_figures"]


@dataclass(frozen=True, slots=True)
class TournamentFigures:
    entered: int = 0
    won: int = 0
    in_the_money: int = 0
    prizes: int = 0
    fees: int = 0
    buy_ins: int = 0

    @property
    def net(self) -> int:
        """Prizes less everything paid to enter (buy-ins and fees)."""
        return self.prizes - self.buy_ins - self.fees


def tournament_figures(*, user: User, period: Period) -> TournamentFigures:
    """The player's finished tournaments in ``period`` added up (module docstring)."""
    entries = user.tournament_entries.filter(
        status__in=(EntryStatus.WON, EntryStatus.ELIMINATED),
        tournament__status=TournamentStatus.FINISHED,
    )
    if period.start is not None:
        entries = entries.filter(tournament__ended__gte=period.start)
    if period.end is not None:
        entries = entries.filter(tournament__ended__lt=period.end)
    totals = entries.aggregate(
        entered=Count("id"),
        won=Count("id", filter=Q(place=1)),
        in_the_money=Count("id", filter=Q(prize__gt=0)),
        prizes=Coalesce(Sum("prize"), 0, output_field=BigIntegerField()),
        fees=Coalesce(Sum(F("tournament__fee")), 0, output_field=BigIntegerField()),
        buy_ins=Coalesce(Sum(F("tournament__buy_in")), 0, output_field=BigIntegerField()),
    )
    return TournamentFigures(**{name: int(value) for name, value in totals.items()})
